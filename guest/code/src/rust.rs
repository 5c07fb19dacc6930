//! Rust: items, with `impl`, `trait` and `mod` bodies as members and `pub`
//! (or `pub(crate)`, …) as visibility.

use tree_sitter::Node;

use super::{Scope, Step, child_of_kind, field_name, name_of};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, _scope: Scope) -> Step<'t> {
    let kind = match node.kind() {
        "function_item" | "function_signature_item" => "fn",
        "struct_item" => "struct",
        "enum_item" => "enum",
        "union_item" => "union",
        "trait_item" => "trait",
        "impl_item" => "impl",
        "mod_item" => "mod",
        "const_item" => "const",
        "static_item" => "static",
        "type_item" | "associated_type" => "type",
        "macro_definition" => "macro_rules!",
        "foreign_mod_item" => {
            return node
                .child_by_field_name("body")
                .map_or(Step::Skip, |body| Step::Descend(body, Scope::Module, None));
        }
        _ => return Step::Skip,
    };
    let name = if kind == "impl" {
        impl_name(node, source)
    } else {
        field_name(node, "name", source).unwrap_or_default()
    };
    let body = match kind {
        "impl" | "trait" => node.child_by_field_name("body").map(|b| (b, Scope::Type)),
        "mod" => node.child_by_field_name("body").map(|b| (b, Scope::Module)),
        _ => None,
    };
    Step::Symbol {
        kind,
        name,
        visibility: child_of_kind(node, "visibility_modifier").map(|v| name_of(v, source)),
        body,
    }
}

/// `Display for Decimal`, or the type alone for an inherent impl.
fn impl_name(node: Node<'_>, source: &str) -> String {
    let ty = field_name(node, "type", source).unwrap_or_default();
    match field_name(node, "trait", source) {
        Some(tr) => format!("{tr} for {ty}"),
        None => ty,
    }
}
