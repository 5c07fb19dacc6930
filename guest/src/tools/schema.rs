//! The tool definitions in the form each API expects: MCP's `tools/list`,
//! Anthropic's `tools`, OpenAI's Chat Completions and Responses function
//! tools, a strict form of each API's, and Gemini's function declarations.
//!
//! The loose forms list no required property and allow any other: a
//! validating SDK then lets the names and numeric strings the arguments
//! parser accepts (`filePath`, `"offset": "10"`) through to it, and it
//! stays the one judge of arguments. The OpenAI strict forms follow
//! OpenAI's rules (every property required, optional ones nullable,
//! nothing else allowed); the parser takes `null` as absent, so a model
//! filling it calls the same tool. The Anthropic strict form is the exact
//! schema in the subset Anthropic's strict tool use takes, written so that
//! the SDKs' own strict transform leaves it as it is. Properties come in
//! the order a model should write them: the file first.
//!
//! ```
//! use filetools_core::tools::schema::{Format, render};
//! let tools = render(&filetools_core::Config::default(), Format::OpenaiStrict);
//! let read = &tools[0]["function"];
//! assert_eq!(read["strict"], true);
//! assert_eq!(read["parameters"]["properties"]["offset"]["type"][1], "null");
//! ```

use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::tools::definitions::{Definition, definitions};

/// A form of the tool definitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// MCP `tools/list` entries: `name`, `title`, `description`,
    /// `inputSchema`, `outputSchema`, `annotations`.
    Mcp,
    /// Anthropic Messages API `tools`: `name`, `description`,
    /// `input_schema`.
    Anthropic,
    /// OpenAI Chat Completions function tools: `{"type": "function",
    /// "function": {name, description, parameters}}`.
    Openai,
    /// As [`Format::Openai`], with `strict: true` and strict parameters.
    OpenaiStrict,
    /// OpenAI Responses API `tools`: `{"type": "function", name,
    /// description, parameters, strict: false}`, and built-in tools
    /// (`apply_patch`) as the API names them.
    OpenaiResponses,
    /// As [`Format::OpenaiResponses`], with `strict: true` and strict
    /// parameters.
    OpenaiResponsesStrict,
    /// As [`Format::Anthropic`], with `strict: true` and the exact schema
    /// in the form Anthropic's strict tool use takes.
    AnthropicStrict,
    /// Gemini function declarations: `{name, description, parameters}`,
    /// the parameters in the subset of OpenAPI's schema Gemini takes
    /// (see [`crate::tools::gemini`]).
    Gemini,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 8] = [
        Format::Mcp,
        Format::Anthropic,
        Format::AnthropicStrict,
        Format::Openai,
        Format::OpenaiStrict,
        Format::OpenaiResponses,
        Format::OpenaiResponsesStrict,
        Format::Gemini,
    ];

    /// The format called `name` (see [`Format::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The format called `name`, or an error that lists the known names.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
            format!(
                "unknown schema format {:?}; use one of {}",
                crate::answers::quote::cut(name),
                known.join(", ")
            )
        })
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Mcp => "mcp",
            Format::Anthropic => "anthropic",
            Format::AnthropicStrict => "anthropic-strict",
            Format::Openai => "openai",
            Format::OpenaiStrict => "openai-strict",
            Format::OpenaiResponses => "openai-responses",
            Format::OpenaiResponsesStrict => "openai-responses-strict",
            Format::Gemini => "gemini",
        }
    }

    /// The API's loose format, whose built-in tools this one offers too.
    fn api(self) -> Format {
        match self {
            Format::AnthropicStrict => Format::Anthropic,
            Format::OpenaiResponsesStrict => Format::OpenaiResponses,
            other => other,
        }
    }
}

/// The definitions of a session with `config`, in `format`: a JSON array.
pub fn render(config: &Config, format: Format) -> Vec<Value> {
    definitions(config)
        .iter()
        .map(|def| one(def, format))
        .collect()
}

fn one(def: &Definition, format: Format) -> Value {
    if let Some((native, builtin)) = &def.builtin
        && *native == format.api()
    {
        return builtin.clone();
    }
    match format {
        Format::Mcp => {
            let a = def.annotations;
            json!({
                "name": def.name,
                "title": a.title,
                "description": def.description,
                "inputSchema": loose(&def.input_schema),
                "outputSchema": def.output_schema,
                "annotations": {
                    "title": a.title,
                    "readOnlyHint": a.read_only,
                    "destructiveHint": a.destructive,
                    "idempotentHint": a.idempotent,
                    "openWorldHint": false
                }
            })
        }
        Format::Anthropic => json!({
            "name": def.name,
            "description": def.description,
            "input_schema": loose(&def.input_schema),
        }),
        Format::AnthropicStrict => json!({
            "name": def.name,
            "description": def.description,
            "input_schema": anthropic_strict(&def.input_schema),
            "strict": true,
        }),
        Format::Openai => json!({"type": "function", "function": {
            "name": def.name,
            "description": def.description,
            "parameters": loose(&def.input_schema),
        }}),
        Format::OpenaiStrict => json!({"type": "function", "function": {
            "name": def.name,
            "description": def.description,
            "parameters": strict(&def.input_schema),
            "strict": true,
        }}),
        Format::Gemini => json!({
            "name": def.name,
            "description": def.description,
            "parameters": crate::tools::gemini::parameters(&loose(&def.input_schema)),
        }),
        Format::OpenaiResponses | Format::OpenaiResponsesStrict => {
            let strict_mode = format == Format::OpenaiResponsesStrict;
            let parameters = if strict_mode { strict } else { loose };
            json!({
                "type": "function",
                "name": def.name,
                "description": def.description,
                "parameters": parameters(&def.input_schema),
                "strict": strict_mode,
            })
        }
    }
}

/// `schema` without `required` and `additionalProperties`, its integers
/// also allowed as numeric strings; a required property says so in its
/// description instead.
fn loose(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let required = names(map.get("required"));
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "required" | "additionalProperties" => {}
            "properties" => {
                let properties = each_property(value, &required, loose, |property, required| {
                    if required {
                        mark_required(property);
                    }
                });
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" => {
                out.insert(key.clone(), loose(value));
            }
            "type" if value == "integer" => {
                out.insert(key.clone(), json!(["integer", "string"]));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// The `properties` object `value`, each property converted by `convert`
/// and then adjusted by `adjust`, which is told whether it is required.
fn each_property(
    value: &Value,
    required: &[&str],
    convert: fn(&Value) -> Value,
    adjust: fn(&mut Value, bool),
) -> Map<String, Value> {
    value
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, property)| {
            let mut property = convert(property);
            adjust(&mut property, required.contains(&name.as_str()));
            (name.clone(), property)
        })
        .collect()
}

fn mark_required(property: &mut Value) {
    match property.get_mut("description") {
        Some(Value::String(text)) => text.insert_str(0, "Required. "),
        _ => {
            if let Value::Object(map) = property {
                map.insert(
                    "description".to_owned(),
                    Value::String("Required.".to_owned()),
                );
            }
        }
    }
}

/// `schema` under OpenAI's strict rules: every property required, the
/// optional ones nullable, no other property allowed, and none of the
/// keywords strict mode refuses.
fn strict(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let required = names(map.get("required"));
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            // `required` is rebuilt from the properties.
            "minimum" | "minItems" | "required" => {}
            "properties" => {
                let properties = each_property(value, &required, strict, |property, required| {
                    if !required {
                        nullable(property);
                    }
                });
                let all: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
                out.insert("required".to_owned(), Value::Array(all));
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" => {
                out.insert(key.clone(), strict(value));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if out.get("type").is_some_and(|t| t == "object") {
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    Value::Object(out)
}

fn nullable(property: &mut Value) {
    if let Some(kind) = property.get_mut("type")
        && let Value::String(name) = kind
    {
        *kind = json!([name.clone(), "null"]);
    }
    // An enum names every value the property may take: null too.
    if let Some(Value::Array(values)) = property.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// `schema` (exact: its `required` and closed objects kept) as Anthropic's
/// strict tool use takes it: a bound it does not check (`minimum`) said in
/// the description instead, and an `enum` without its `type`, which is
/// what the SDKs' strict transform makes of them, so it has nothing left
/// to change.
fn anthropic_strict(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "minimum" => {}
            "type" if map.contains_key("enum") => {}
            "properties" => {
                let properties = value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, property)| (name.clone(), anthropic_strict(property)))
                    .collect();
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" => {
                out.insert(key.clone(), anthropic_strict(value));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if let Some(least) = map.get("minimum") {
        let said = format!("At least {least}.");
        let description = match out.get("description").and_then(Value::as_str) {
            Some(text) => format!("{text} {said}"),
            None => said,
        };
        out.insert("description".to_owned(), Value::String(description));
    }
    if out.get("type").is_some_and(|t| t == "object") {
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    Value::Object(out)
}

fn names(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// Every object schema under `value`, with its path.
    fn objects<'a>(value: &'a Value, path: &str, out: &mut Vec<(String, &'a Value)>) {
        if value.get("type").is_some_and(|t| t == "object") {
            out.push((path.to_owned(), value));
        }
        if let Some(properties) = value.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                objects(property, &format!("{path}/{name}"), out);
            }
        }
        if let Some(items) = value.get("items") {
            objects(items, &format!("{path}/items"), out);
        }
    }

    #[test]
    fn strict_schemas_require_every_property_and_allow_no_other() {
        for tool in render(&Config::default(), Format::OpenaiStrict) {
            let function = &tool["function"];
            let mut found = Vec::new();
            objects(&function["parameters"], "", &mut found);
            assert!(!found.is_empty());
            for (path, object) in found {
                let properties: Vec<&String> =
                    object["properties"].as_object().unwrap().keys().collect();
                let required: Vec<&str> = names(object.get("required"));
                assert_eq!(
                    properties.len(),
                    required.len(),
                    "{} {path}",
                    function["name"]
                );
                assert_eq!(object["additionalProperties"], false, "{path}");
            }
            let text = function["parameters"].to_string();
            assert!(
                !text.contains("minimum") && !text.contains("minItems"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_call_with_every_optional_field_null_is_the_call_without_them() {
        let files = || {
            let fs = MemFs::new();
            fs.add_file("a.txt", b"one\ntwo\nthree\n");
            fs
        };
        let nulls = [
            (
                "read",
                r#"{"file_path": "a.txt", "offset": null, "limit": null, "pages": null, "char_offset": null}"#,
                r#"{"file_path": "a.txt"}"#,
            ),
            (
                "edit",
                r#"{"file_path": "a.txt", "old_string": "two", "new_string": "2", "replace_all": null, "edits": null}"#,
                r#"{"file_path": "a.txt", "old_string": "two", "new_string": "2"}"#,
            ),
            (
                "edit",
                r#"{"file_path": "a.txt", "old_string": null, "new_string": null, "replace_all": false, "edits": [{"old_string": "two", "new_string": "2", "replace_all": null}]}"#,
                r#"{"file_path": "a.txt", "edits": [{"old_string": "two", "new_string": "2"}]}"#,
            ),
        ];
        for (tool, with_nulls, without) in nulls {
            let answer = |arguments: &str| {
                let mut session = Session::open("{}", files()).unwrap();
                session.call("read", r#"{"file_path": "a.txt"}"#);
                let result = session.call(tool, arguments);
                (
                    result.text(),
                    result.is_error,
                    session.fs().contents("a.txt"),
                )
            };
            assert_eq!(answer(with_nulls), answer(without), "{with_nulls}");
            assert!(!answer(with_nulls).1, "{}", answer(with_nulls).0);
        }
    }

    #[test]
    fn loose_schemas_let_aliases_and_numeric_strings_through() {
        for tool in render(&Config::default(), Format::Anthropic) {
            let schema = &tool["input_schema"];
            let text = schema.to_string();
            assert!(!text.contains("additionalProperties"), "{text}");
            assert!(schema.get("required").is_none(), "{text}");
            let (subject, said) = if tool["name"] == "read" {
                ("file_path", "Required unless file_paths is given. ")
            } else if schema["properties"].get("pattern").is_some() {
                ("pattern", "Required. ")
            } else {
                ("file_path", "Required. ")
            };
            let description = schema["properties"][subject]["description"]
                .as_str()
                .unwrap();
            assert!(description.contains(said), "{description}");
        }
        let read = &render(&Config::default(), Format::Mcp)[0];
        assert_eq!(
            read["inputSchema"]["properties"]["offset"]["type"],
            json!(["integer", "string"])
        );
        assert_eq!(read["annotations"]["readOnlyHint"], true);
    }

    /// Every tool of every set, in `format`.
    fn every_set(format: Format) -> Vec<Value> {
        let config = Config::from_json(
            r#"{"tools": ["filetools", "text-editor", "apply-patch", "mcp-filesystem", "notebook"]}"#,
        )
        .unwrap();
        render(&config, format)
    }

    /// The input schema of a `format` entry, if it has one (a built-in
    /// tool has none).
    fn input(tool: &Value) -> Option<&Value> {
        tool.get("input_schema")
            .or_else(|| tool.get("parameters"))
            .or_else(|| tool["function"].get("parameters"))
    }

    #[test]
    fn strict_schemas_list_properties_in_the_order_a_model_writes_them() {
        for format in [
            Format::OpenaiStrict,
            Format::OpenaiResponsesStrict,
            Format::AnthropicStrict,
        ] {
            for tool in every_set(format) {
                let Some(schema) = input(&tool) else { continue };
                let Some(first) = schema["properties"].as_object().unwrap().keys().next() else {
                    continue;
                };
                let subject = [
                    "file_path",
                    "pattern",
                    "path",
                    "notebook_path",
                    "command",
                    "input",
                    "paths",
                    "source",
                ];
                assert!(
                    subject.contains(&first.as_str()),
                    "{}: {tool}",
                    format.name()
                );
            }
        }
        let edit = &every_set(Format::OpenaiStrict)[2]["function"]["parameters"];
        let order: Vec<&String> = edit["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            order,
            [
                "file_path",
                "old_string",
                "new_string",
                "replace_all",
                "edits",
                "symbol",
                "position",
                "encoding",
                "expect"
            ]
        );
        assert_eq!(edit["required"][0], "file_path");
    }

    #[test]
    fn responses_entries_say_whether_they_are_strict() {
        for (format, strict_mode) in [
            (Format::OpenaiResponses, false),
            (Format::OpenaiResponsesStrict, true),
        ] {
            let tools = every_set(format);
            assert_eq!(
                tools[8],
                json!({"type": "apply_patch"}),
                "the built-in tool"
            );
            for tool in tools.iter().filter(|t| t["type"] == "function") {
                assert_eq!(tool["strict"], strict_mode, "{tool}");
                assert_eq!(
                    tool["parameters"].get("additionalProperties").is_some(),
                    strict_mode,
                    "{tool}"
                );
            }
        }
    }

    #[test]
    fn anthropic_strict_schemas_are_exact_closed_and_free_of_keywords_strict_mode_moves() {
        let tools = every_set(Format::AnthropicStrict);
        assert_eq!(
            tools[7]["type"], "text_editor_20250728",
            "the built-in tool"
        );
        for tool in tools.iter().filter(|t| t.get("input_schema").is_some()) {
            assert_eq!(tool["strict"], true, "{tool}");
            let mut found = Vec::new();
            objects(&tool["input_schema"], "", &mut found);
            for (path, object) in found {
                assert_eq!(
                    object["additionalProperties"], false,
                    "{} {path}",
                    tool["name"]
                );
            }
            let text = tool["input_schema"].to_string();
            assert!(!text.contains("\"minimum\""), "{text}");
            assert!(!text.contains("[\"integer\",\"null\"]"), "{text}");
        }
        let read = &tools[0]["input_schema"];
        // One file or several: neither path argument is required alone.
        assert_eq!(read["required"], json!([]));
        assert_eq!(read["properties"]["file_paths"]["type"], "array");
        assert!(
            read["properties"]["offset"]["description"]
                .as_str()
                .unwrap()
                .ends_with("At least 1.")
        );
        let notebook = tools.iter().find(|t| t["name"] == "notebook_edit").unwrap();
        let mode = &notebook["input_schema"]["properties"]["edit_mode"];
        assert!(
            mode.get("type").is_none() && mode["enum"].is_array(),
            "{mode}"
        );
    }

    #[test]
    fn every_format_has_a_name_it_is_found_by() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("palm"), None);
    }
}
