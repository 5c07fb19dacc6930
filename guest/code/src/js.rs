//! JavaScript, TypeScript and TSX: functions, classes and their members,
//! interfaces, type aliases, enums, namespaces, and top-level `const`/`let`/
//! `var` bindings (a bound arrow or function expression is a `function`).
//! `export` is the visibility of what it wraps; TypeScript's `public`,
//! `private` and `protected` that of a member. A bundle that wraps its code
//! in a function called at once (`(function () { … })()`, `!function…`, a
//! UMD wrapper's factory) is outlined from inside that function, as if its
//! body were the file.

use tree_sitter::Node;

use super::{Scope, Step, child_of_kind, field_name, leaf, name_of, text};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    let name = || {
        field_name(node, "name", source)
            .or_else(|| field_name(node, "property", source))
            .unwrap_or_default()
    };
    let visibility = || child_of_kind(node, "accessibility_modifier").map(|v| name_of(v, source));
    let with_body = |kind, inner| Step::Symbol {
        kind,
        name: name(),
        visibility: visibility(),
        body: node.child_by_field_name("body").map(|b| (b, inner)),
    };
    match node.kind() {
        "function_declaration" | "generator_function_declaration" => {
            with_body("function", Scope::Function)
        }
        "function_signature" | "declare_function" => leaf("function", name(), None),
        "class_declaration" | "abstract_class_declaration" | "class" => {
            with_body("class", Scope::Type)
        }
        "interface_declaration" => with_body("interface", Scope::Type),
        "internal_module" | "module" => with_body("namespace", Scope::Module),
        "enum_declaration" => leaf("enum", name(), None),
        "type_alias_declaration" => leaf("type", name(), None),
        "method_definition" => with_body(method_kind(node, source), Scope::Function),
        "method_signature" | "abstract_method_signature" => {
            leaf(method_kind(node, source), name(), visibility())
        }
        "field_definition" | "public_field_definition" | "property_signature" => {
            leaf("field", name(), visibility())
        }
        "export_statement" => {
            let wrapper = if child_of_kind(node, "default").is_some() {
                "export default"
            } else {
                "export"
            };
            Step::Descend(node, scope, Some(wrapper))
        }
        "ambient_declaration" => Step::Descend(node, scope, Some("declare")),
        "lexical_declaration" | "variable_declaration" if scope == Scope::Module => {
            Step::Descend(node, scope, None)
        }
        "variable_declarator" if scope == Scope::Module => binding(node, source),
        "expression_statement" if scope == Scope::Module => wrapped_body(node, source)
            .map_or(Step::Skip, |body| Step::Descend(body, Scope::Module, None)),
        _ => Step::Skip,
    }
}

/// The body of the function a statement calls at once, or hands to the
/// function it calls (a UMD factory): the larger one when both are there.
fn wrapped_body<'t>(statement: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut expression = statement.named_child(0)?;
    while matches!(
        expression.kind(),
        "parenthesized_expression" | "unary_expression"
    ) {
        let last = u32::try_from(expression.named_child_count().checked_sub(1)?).ok()?;
        expression = expression.named_child(last)?;
    }
    if expression.kind() != "call_expression" {
        return None;
    }
    let unwrap = |mut node: Node<'t>| -> Option<Node<'t>> {
        while node.kind() == "parenthesized_expression" {
            node = node.named_child(0)?;
        }
        Some(node)
    };
    let callee = expression.child_by_field_name("function").and_then(unwrap);
    let is_function = |f: &Node<'_>| {
        matches!(
            f.kind(),
            "function_expression" | "function" | "arrow_function"
        )
    };
    // Functions handed to a call are looked into only when the callee is a
    // wrapper itself (UMD) or AMD's `define`, not for every callback.
    let wrapper = callee.is_some_and(|c| is_function(&c) || text(c, source) == "define");
    let arguments = expression
        .child_by_field_name("arguments")
        .filter(|_| wrapper);
    let mut cursor = expression.walk();
    let candidates = callee.into_iter().chain(
        arguments
            .into_iter()
            .flat_map(|a| a.named_children(&mut cursor).collect::<Vec<_>>())
            .filter_map(unwrap),
    );
    candidates
        .filter(|f| is_function(f))
        .filter_map(|f| f.child_by_field_name("body"))
        .filter(|body| body.kind() == "statement_block")
        .max_by_key(|body| body.end_byte() - body.start_byte())
}

/// `get`, `set`, `static`, `async` methods say so.
fn method_kind(node: Node<'_>, source: &str) -> &'static str {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.is_named() && child.kind() != "accessibility_modifier" {
            break;
        }
        match text(child, source) {
            "get" => return "get",
            "set" => return "set",
            "static" => return "static method",
            "async" => return "async method",
            _ => {}
        }
    }
    "method"
}

/// `const name = …`: a function when it binds one.
fn binding<'t>(node: Node<'t>, source: &str) -> Step<'t> {
    let name = field_name(node, "name", source).unwrap_or_default();
    let value = node.child_by_field_name("value");
    let function = value.filter(|v| {
        matches!(
            v.kind(),
            "arrow_function" | "function_expression" | "function" | "generator_function"
        )
    });
    if let Some(function) = function {
        return Step::Symbol {
            kind: "function",
            name,
            visibility: None,
            body: function
                .child_by_field_name("body")
                .map(|b| (b, Scope::Function)),
        };
    }
    if let Some(class) = value.filter(|v| v.kind() == "class") {
        return Step::Symbol {
            kind: "class",
            name,
            visibility: None,
            body: class.child_by_field_name("body").map(|b| (b, Scope::Type)),
        };
    }
    let keyword =
        node.parent()
            .and_then(|p| p.child(0))
            .map_or("const", |k| match text(k, source) {
                "let" => "let",
                "var" => "var",
                _ => "const",
            });
    leaf(keyword, name, None)
}
