//! Python: classes and functions (nested ones too), decorated or not, and
//! module-level constants (`ALL_CAPS = …`); definitions under module-level
//! `if`/`try` count.

use tree_sitter::Node;

use super::{Scope, Step, field_name, leaf, text};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    match node.kind() {
        "class_definition" => Step::Symbol {
            kind: "class",
            name: field_name(node, "name", source).unwrap_or_default(),
            visibility: None,
            body: node.child_by_field_name("body").map(|b| (b, Scope::Type)),
        },
        "function_definition" => Step::Symbol {
            kind: if text(node, source).starts_with("async") {
                "async def"
            } else {
                "def"
            },
            name: field_name(node, "name", source).unwrap_or_default(),
            visibility: None,
            body: node
                .child_by_field_name("body")
                .map(|b| (b, Scope::Function)),
        },
        "decorated_definition" => Step::Descend(node, scope, None),
        "if_statement" | "try_statement" | "else_clause" | "elif_clause" | "except_clause"
        | "finally_clause" | "block"
            if scope == Scope::Module =>
        {
            Step::Descend(node, scope, None)
        }
        "expression_statement" if scope == Scope::Module => constant(node, source),
        _ => Step::Skip,
    }
}

/// `NAME = …` with an all-capitals name.
fn constant<'t>(node: Node<'t>, source: &str) -> Step<'t> {
    let Some(assignment) = node.named_child(0).filter(|n| n.kind() == "assignment") else {
        return Step::Skip;
    };
    let Some(left) = assignment
        .child_by_field_name("left")
        .filter(|n| n.kind() == "identifier")
    else {
        return Step::Skip;
    };
    let name = text(left, source);
    let capitals = name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    if capitals {
        leaf("const", name.to_owned(), None)
    } else {
        Step::Skip
    }
}
