//! A tool's parameters as Gemini's function declarations take them: the
//! subset of OpenAPI's schema its API and SDKs accept as they are. Types
//! are its enum names (`OBJECT`, `STRING`…), one per schema (a type that
//! may be `null` becomes `nullable`, and the numeric strings the loose
//! forms allow are left to the arguments parser, which takes them anyway),
//! `oneOf` is `anyOf`, an `enum` is of strings, a `format` one Gemini
//! knows; what it has no word for (`additionalProperties`) is left out,
//! and so are the bounds of lengths and counts, which the arguments parser
//! enforces anyway: Google's Python SDK sends them under its own names
//! (`min_items`), so a declaration holding one would not reach the API as
//! it was given.
//!
//! ```
//! use serde_json::json;
//! use filetools_core::tools::gemini::parameters;
//! let schema = json!({"type": "object", "additionalProperties": false,
//!     "properties": {"offset": {"type": ["integer", "string"], "minimum": 1}}});
//! assert_eq!(parameters(&schema), json!({"type": "OBJECT",
//!     "properties": {"offset": {"type": "INTEGER", "minimum": 1}}}));
//! ```

use serde_json::{Map, Value};

/// The formats Gemini's schema knows.
const FORMATS: [&str; 6] = ["enum", "date-time", "int32", "int64", "float", "double"];

/// The keys kept as they are. Bounds of lengths and counts (`minItems`…)
/// are left to the arguments parser, which enforces them anyway: Google's
/// Python SDK sends them under its own names (`min_items`), so a
/// declaration holding one would not reach the API as it was given.
const KEPT: [&str; 7] = [
    "description",
    "required",
    "minimum",
    "maximum",
    "pattern",
    "title",
    "default",
];

/// `schema` (JSON Schema) as Gemini's schema.
pub fn parameters(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "type" => {
                let (kind, nullable) = one_type(value);
                if let Some(kind) = kind {
                    out.insert("type".to_owned(), Value::String(kind));
                }
                if nullable {
                    out.insert("nullable".to_owned(), Value::Bool(true));
                }
            }
            "properties" => {
                let properties = value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, property)| (name.clone(), parameters(property)))
                    .collect();
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" => {
                out.insert(key.clone(), parameters(value));
            }
            "anyOf" | "oneOf" => {
                let each = value.as_array().into_iter().flatten().map(parameters);
                out.insert("anyOf".to_owned(), Value::Array(each.collect()));
            }
            "enum"
                if value
                    .as_array()
                    .is_some_and(|v| v.iter().all(Value::is_string)) =>
            {
                out.insert(key.clone(), value.clone());
            }
            "format" if value.as_str().is_some_and(|f| FORMATS.contains(&f)) => {
                out.insert(key.clone(), value.clone());
            }
            key if KEPT.contains(&key) => {
                out.insert(key.to_owned(), value.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// Gemini's name of the JSON Schema `type`, the first one not `null` of a
/// list, and whether `null` is allowed.
fn one_type(value: &Value) -> (Option<String>, bool) {
    let names: Vec<&str> = match value {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let nullable = names.contains(&"null");
    let kind = names
        .into_iter()
        .find(|name| *name != "null")
        .map(str::to_ascii_uppercase);
    (kind, nullable)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::Config;
    use crate::tools::schema::{Format, render};

    /// Every key of `schema` and of the schemas within it.
    fn keys(schema: &Value, out: &mut Vec<String>) {
        if let Value::Object(map) = schema {
            for (key, value) in map {
                out.push(key.clone());
                match key.as_str() {
                    "properties" => value
                        .as_object()
                        .into_iter()
                        .flatten()
                        .for_each(|(_, p)| keys(p, out)),
                    "items" => keys(value, out),
                    "anyOf" => value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .for_each(|s| keys(s, out)),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn every_set_declares_only_what_gemini_knows() {
        let config = Config::from_json(
            r#"{"tools": ["filetools", "text-editor", "apply-patch", "mcp-filesystem", "notebook"]}"#,
        )
        .unwrap();
        let known = [
            "type",
            "nullable",
            "properties",
            "items",
            "anyOf",
            "enum",
            "format",
        ];
        for tool in render(&config, Format::Gemini) {
            assert_eq!(tool.as_object().unwrap().len(), 3, "{tool}");
            let mut found = Vec::new();
            keys(&tool["parameters"], &mut found);
            for key in found {
                assert!(
                    known.contains(&key.as_str()) || KEPT.contains(&key.as_str()),
                    "{}: {key}",
                    tool["name"]
                );
            }
            let types = tool["parameters"].to_string();
            assert!(
                !types.contains("\"type\":[") && !types.contains("\"object\""),
                "{types}"
            );
        }
    }

    #[test]
    fn a_nullable_type_and_one_of_become_gemini_words() {
        let schema = json!({"oneOf": [{"type": ["string", "null"], "format": "uri"}, {"type": "integer", "enum": [1, 2]}]});
        assert_eq!(
            parameters(&schema),
            json!({"anyOf": [{"type": "STRING", "nullable": true}, {"type": "INTEGER"}]})
        );
    }
}
