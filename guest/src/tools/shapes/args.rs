//! The arguments of a shape's call: a JSON object whose values are read by
//! name, `null` counting as absent and numbers also accepted as numeric
//! strings (SPEC R17); anything else is refused with the tool's schema.

use serde_json::{Map, Value};

use crate::answers::error::ToolError;
use crate::answers::quote::short_json;

/// One call's arguments.
pub(crate) struct Args {
    tool: &'static str,
    takes: &'static str,
    map: Map<String, Value>,
}

impl Args {
    /// The object in `json`, for `tool`, whose compact schema is `takes`.
    pub fn parse(tool: &'static str, takes: &'static str, json: &str) -> Result<Self, ToolError> {
        let text = if json.trim().is_empty() { "{}" } else { json };
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok(Self { tool, takes, map }),
            Ok(other) => Err(Self::refuse(
                tool,
                takes,
                format!(
                    "the arguments must be a JSON object, got {}",
                    short_json(&other)
                ),
            )),
            Err(err) => Err(Self::refuse(
                tool,
                takes,
                format!("the arguments are not valid JSON ({err})"),
            )),
        }
    }

    fn refuse(tool: &'static str, takes: &'static str, problem: String) -> ToolError {
        ToolError::Arguments {
            tool,
            problem,
            takes,
        }
    }

    /// An error about this call's arguments.
    pub fn error(&self, problem: impl Into<String>) -> ToolError {
        Self::refuse(self.tool, self.takes, problem.into())
    }

    /// Refuses any argument not in `known`.
    pub fn only(&self, known: &[&str]) -> Result<(), ToolError> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            Some(name) => Err(self.error(format!("unknown argument {name:?}"))),
            None => Ok(()),
        }
    }

    /// The value of `name`, `null` counting as absent.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// A required string.
    pub fn string(&self, name: &str) -> Result<String, ToolError> {
        self.opt_string(name)?
            .ok_or_else(|| self.error(format!("{name} is required")))
    }

    /// An optional string.
    pub fn opt_string(&self, name: &str) -> Result<Option<String>, ToolError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(self.error(format!(
                "{name} must be a string, got {}",
                short_json(other)
            ))),
        }
    }

    /// An optional integer, as a JSON number or a numeric string.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>, ToolError> {
        match self.value(name) {
            None => Ok(None),
            Some(value) => int_of(value).map(Some).ok_or_else(|| {
                self.error(format!(
                    "{name} must be an integer, got {}",
                    short_json(value)
                ))
            }),
        }
    }

    /// An optional boolean, as JSON or as `"true"`/`"false"`.
    pub fn opt_bool(&self, name: &str) -> Result<Option<bool>, ToolError> {
        match self.value(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(Some(s == "true")),
            Some(other) => Err(self.error(format!(
                "{name} must be true or false, got {}",
                short_json(other)
            ))),
        }
    }

    /// An optional list of strings (also a JSON array sent as a string).
    pub fn opt_strings(&self, name: &str) -> Result<Option<Vec<String>>, ToolError> {
        let Some(value) = self.value(name) else {
            return Ok(None);
        };
        let parsed;
        let value = match value {
            Value::String(text) if text.trim_start().starts_with('[') => {
                parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
                &parsed
            }
            other => other,
        };
        match value {
            Value::Array(items) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.error(format!(
                        "{name} must hold strings, got {}",
                        short_json(other)
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            other => Err(self.error(format!(
                "{name} must be a list of strings, got {}",
                short_json(other)
            ))),
        }
    }
}

/// An integer from a JSON number or a numeric string.
pub(crate) fn int_of(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}
