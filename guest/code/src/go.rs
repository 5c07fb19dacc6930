//! Go: functions, methods (named with their receiver, `(*Server) Serve`),
//! types (struct, interface with its methods, others) and top-level
//! `const`/`var` names.

use tree_sitter::Node;

use super::{Scope, Step, field_name, leaf, name_of};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    let name = || field_name(node, "name", source).unwrap_or_default();
    match node.kind() {
        "function_declaration" => leaf("func", name(), None),
        "method_declaration" => leaf("func", method_name(node, source), None),
        "type_declaration" | "const_declaration" | "var_declaration" | "var_spec_list" => {
            Step::Descend(node, scope, None)
        }
        "type_spec" | "type_alias" => {
            let ty = node.child_by_field_name("type");
            let kind = match ty.map(|t| t.kind()) {
                Some("struct_type") => "struct",
                Some("interface_type") => "interface",
                _ => "type",
            };
            Step::Symbol {
                kind,
                name: name(),
                visibility: None,
                body: ty
                    .filter(|t| t.kind() == "interface_type")
                    .map(|t| (t, Scope::Type)),
            }
        }
        "method_elem" | "method_spec" if scope == Scope::Type => leaf("func", name(), None),
        "const_spec" => leaf("const", names(node, source), None),
        "var_spec" => leaf("var", names(node, source), None),
        _ => Step::Skip,
    }
}

/// `(*Server) Serve`.
fn method_name(node: Node<'_>, source: &str) -> String {
    let name = field_name(node, "name", source).unwrap_or_default();
    let receiver = node
        .child_by_field_name("receiver")
        .and_then(|list| list.named_child(0))
        .and_then(|param| param.child_by_field_name("type"))
        .map(|ty| name_of(ty, source));
    match receiver {
        Some(ty) => format!("({ty}) {name}"),
        None => name,
    }
}

/// Every name a spec declares: `a, b`.
fn names(node: Node<'_>, source: &str) -> String {
    let mut cursor = node.walk();
    node.children_by_field_name("name", &mut cursor)
        .map(|n| name_of(n, source))
        .collect::<Vec<_>>()
        .join(", ")
}
