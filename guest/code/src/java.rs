//! Java: classes, interfaces, enums, records and annotation types with their
//! constructors, methods, fields and nested types; `public`, `protected` or
//! `private` as visibility.

use tree_sitter::Node;

use super::{Scope, Step, child_of_kind, field_name, leaf, text};

pub(super) fn classify<'t>(node: Node<'t>, source: &str, scope: Scope) -> Step<'t> {
    let name = || field_name(node, "name", source).unwrap_or_default();
    let kind = match node.kind() {
        "class_declaration" => "class",
        "interface_declaration" => "interface",
        "enum_declaration" => "enum",
        "record_declaration" => "record",
        "annotation_type_declaration" => "@interface",
        "method_declaration" | "annotation_type_element_declaration" => {
            return leaf("method", name(), visibility(node, source));
        }
        "constructor_declaration" | "compact_constructor_declaration" => {
            return leaf("constructor", name(), visibility(node, source));
        }
        "field_declaration" | "constant_declaration" => {
            let declared = node
                .child_by_field_name("declarator")
                .and_then(|d| field_name(d, "name", source))
                .unwrap_or_default();
            return leaf("field", declared, visibility(node, source));
        }
        "enum_body_declarations" => return Step::Descend(node, scope, None),
        _ => return Step::Skip,
    };
    Step::Symbol {
        kind,
        name: name(),
        visibility: visibility(node, source),
        body: node.child_by_field_name("body").map(|b| (b, Scope::Type)),
    }
}

fn visibility(node: Node<'_>, source: &str) -> Option<String> {
    let modifiers = child_of_kind(node, "modifiers")?;
    let mut cursor = modifiers.walk();
    let found = modifiers
        .children(&mut cursor)
        .map(|m| text(m, source))
        .find(|m| matches!(*m, "public" | "protected" | "private"));
    found.map(str::to_owned)
}
