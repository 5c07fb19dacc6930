//! JSON with the keys of every object sorted: the bytes of an answer's
//! metadata, or of a notebook cell in nbformat's style, do not depend on
//! the order the code built the object in.

use serde::ser::{Serialize, SerializeMap as _, Serializer};
use serde_json::Value;

/// `value` serialized with the keys of every object in it sorted, without
/// a copy of it.
#[derive(Debug, Clone, Copy)]
pub struct Sorted<'a>(pub &'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_unstable_by_key(|(key, _)| *key);
                let mut out = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    out.serialize_entry(key, &Sorted(value))?;
                }
                out.end()
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(serializer),
        }
    }
}

/// `value` with the keys of every object in it sorted.
pub fn sorted(value: &Value) -> Value {
    serde_json::to_value(Sorted(value)).unwrap_or_else(|_| value.clone())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_are_sorted_at_every_level_and_arrays_keep_their_order() {
        let value = json!({"b": [{"z": 1, "a": 2}, 3], "a": {"y": null, "x": true}});
        let expected = r#"{"a":{"x":true,"y":null},"b":[{"a":2,"z":1},3]}"#;
        assert_eq!(serde_json::to_string(&Sorted(&value)).unwrap(), expected);
        assert_eq!(sorted(&value).to_string(), expected);
    }
}
