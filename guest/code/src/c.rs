//! C and C++: functions (prototypes as `decl`), structs, unions, enums,
//! classes with their methods, namespaces, typedefs and `#define`s; the
//! insides of `#if` blocks, `extern "C"` and templates count. `static` is a
//! C function's visibility.

use tree_sitter::Node;

use super::{Scope, Step, child_of_kind, leaf, name_of, text};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    match node.kind() {
        "function_definition" => {
            let kind = if scope == Scope::Type {
                "method"
            } else {
                "function"
            };
            match declared_function(node, source) {
                Some(name) => leaf(kind, name, storage(node, source)),
                None => Step::Skip,
            }
        }
        "declaration" | "field_declaration" => declaration(node, source, scope),
        "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier" => {
            specifier(node, source)
        }
        "type_definition" => {
            let name = node
                .child_by_field_name("declarator")
                .map(|d| name_of(innermost(d), source))
                .unwrap_or_default();
            leaf("typedef", name, None)
        }
        "preproc_def" | "preproc_function_def" if scope != Scope::Function => {
            let name = node
                .child_by_field_name("name")
                .map(|n| name_of(n, source))
                .unwrap_or_default();
            leaf("#define", name, None)
        }
        "namespace_definition" => Step::Symbol {
            kind: "namespace",
            name: node
                .child_by_field_name("name")
                .map_or_else(|| "(anonymous)".to_owned(), |n| name_of(n, source)),
            visibility: None,
            body: node.child_by_field_name("body").map(|b| (b, Scope::Module)),
        },
        "preproc_if"
        | "preproc_ifdef"
        | "preproc_else"
        | "preproc_elif"
        | "preproc_elifdef"
        | "template_declaration"
        | "declaration_list" => Step::Descend(node, scope, None),
        "linkage_specification" => node.child_by_field_name("body").map_or(Step::Skip, |body| {
            if body.kind() == "declaration_list" {
                Step::Descend(body, scope, None)
            } else {
                Step::Descend(node, scope, None)
            }
        }),
        _ => Step::Skip,
    }
}

/// A declaration: a type defined in it, a function prototype, or nothing.
fn declaration<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    if let Some(ty) = node
        .child_by_field_name("type")
        .filter(|t| t.child_by_field_name("body").is_some())
    {
        return specifier(ty, source);
    }
    match declared_function(node, source) {
        Some(name) if scope == Scope::Type => leaf("method", name, None),
        Some(name) => leaf("decl", name, storage(node, source)),
        None => Step::Skip,
    }
}

/// A struct, union, enum or class with a body (a bare `struct x;` is not one).
fn specifier<'t>(node: Node<'t>, source: &str) -> Step<'t> {
    let Some(body) = node.child_by_field_name("body") else {
        return Step::Skip;
    };
    let kind = match node.kind() {
        "struct_specifier" => "struct",
        "union_specifier" => "union",
        "enum_specifier" => "enum",
        _ => "class",
    };
    let name = node
        .child_by_field_name("name")
        .map_or_else(|| "(anonymous)".to_owned(), |n| name_of(n, source));
    Step::Symbol {
        kind,
        name,
        visibility: None,
        body: (kind != "enum").then_some((body, Scope::Type)),
    }
}

/// The name a function declarator declares, if `node` declares a function.
fn declared_function(node: Node<'_>, source: &str) -> Option<String> {
    let mut declarator = node.child_by_field_name("declarator")?;
    loop {
        if declarator.kind() == "function_declarator" {
            let name = declarator.child_by_field_name("declarator")?;
            return Some(name_of(name, source));
        }
        declarator = declarator.child_by_field_name("declarator")?;
    }
}

/// The identifier at the heart of a declarator (`*name[4]` → `name`).
fn innermost(mut declarator: Node<'_>) -> Node<'_> {
    while let Some(inner) = declarator.child_by_field_name("declarator") {
        declarator = inner;
    }
    declarator
}

/// `static` where a declaration has it.
fn storage(node: Node<'_>, source: &str) -> Option<String> {
    child_of_kind(node, "storage_class_specifier")
        .filter(|s| text(*s, source) == "static")
        .map(|_| "static".to_owned())
}
