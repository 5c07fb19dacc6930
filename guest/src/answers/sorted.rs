//! JSON with the keys of every object sorted: the bytes of an answer's
//! metadata, or of a notebook cell in nbformat's style, do not depend on
//! the order the code built the object in.

use serde_json::Value;

/// `value` with the keys of every object in it sorted.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by_key(|(key, _)| *key);
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), sorted(value)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_are_sorted_at_every_level_and_arrays_keep_their_order() {
        let value = json!({"b": [{"z": 1, "a": 2}, 3], "a": {"y": null, "x": true}});
        assert_eq!(
            sorted(&value).to_string(),
            r#"{"a":{"x":true,"y":null},"b":[{"a":2,"z":1},3]}"#
        );
    }
}
