//! Jupyter notebooks (SPEC R13): rendered as a document instead of raw
//! JSON — each cell in order with its kind, id and source, then its outputs
//! as text; image outputs attached as image blocks (within the image
//! limits); an output over [`MAX_OUTPUT_CHARS`] replaced by its size and the
//! command that extracts it. The rendering is paged like any text, so a long
//! notebook never floods the context.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("n.ipynb", br#"{"cells": [{"cell_type": "code", "id": "a1", "execution_count": 1,
//!   "source": ["1 + 1"], "outputs": [{"output_type": "execute_result", "execution_count": 1,
//!   "data": {"text/plain": ["2"]}, "metadata": {}}], "metadata": {}}],
//!   "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#);
//! let mut session = Session::open("{}", fs).unwrap();
//! let text = session.call("read", r#"{"file_path": "n.ipynb"}"#).text();
//! assert!(text.contains("--- cell 1: code, id a1, [1] ---"), "{text}");
//! assert!(text.contains("3\t1 + 1\n4\t>>> result:\n5\t2"), "{text}");
//! ```

use std::collections::HashSet;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::answers::error::ToolError;
use crate::answers::error::cells::RepeatedKey;
use crate::answers::notice::Size;
use crate::answers::result::{Block, ToolResult};
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use crate::memory::ledger::Observation;
use crate::text::base64;
use crate::view::image::{self, Fitted};
use crate::view::read;
use crate::view::read::args::ReadArgs;

/// Characters of one output shown before it is replaced by its size.
pub const MAX_OUTPUT_CHARS: usize = 10_000;
/// Image outputs attached to one read.
pub const MAX_IMAGES: usize = 8;
/// Bytes of a notebook that is parsed; larger ones are read as text.
pub const MAX_NOTEBOOK_BYTES: u64 = 64 * 1024 * 1024;

/// Whether `head` (the first bytes of a text file) looks like a notebook.
pub(crate) fn looks_like(head: &[u8]) -> bool {
    let trimmed = head.trim_ascii_start();
    trimmed.starts_with(b"{") && memchr::memmem::find(head, b"\"cells\"").is_some()
}

/// A notebook's text: a string or a list of strings.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// `text` without ANSI colour codes (tracebacks carry them).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The first key, in the order of the text, that an object of the JSON
/// `text` holds twice; `None` when there is none or `text` is not JSON.
pub fn repeated_key(text: &[u8]) -> Option<RepeatedKey> {
    let mut walk = Walk {
        path: String::new(),
        found: None,
    };
    let mut json = serde_json::Deserializer::from_slice(text);
    // A repeat ends the walk early, as an error; the finding is kept.
    let _ = (&mut walk).deserialize(&mut json);
    walk.found
}

/// A walk over JSON that keeps no values, only the path it stands at.
struct Walk {
    path: String,
    found: Option<RepeatedKey>,
}

impl<'de> DeserializeSeed<'de> for &mut Walk {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, json: D) -> Result<(), D::Error> {
        json.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &mut Walk {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let outer = self.path.len();
        let mut n = 0usize;
        loop {
            let _ = write!(self.path, "[{n}]");
            let more = items.next_element_seed(&mut *self)?;
            self.path.truncate(outer);
            if more.is_none() {
                return Ok(());
            }
            n += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        let outer = self.path.len();
        let mut keys = HashSet::new();
        while let Some(key) = entries.next_key::<String>()? {
            if keys.contains(&key) {
                self.found = Some(RepeatedKey {
                    key,
                    at: self.path.clone(),
                });
                return Err(de::Error::custom("a repeated key"));
            }
            let plain = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if plain {
                let _ = write!(self.path, ".{key}");
            } else {
                let dot = if self.path.is_empty() { "." } else { "" };
                let _ = write!(self.path, "{dot}[{key:?}]");
            }
            entries.next_value_seed(&mut *self)?;
            self.path.truncate(outer);
            keys.insert(key);
        }
        Ok(())
    }
}

/// Strings of one payload list kept at most; the rest are skipped.
pub const MAX_PAYLOAD_ITEMS: usize = 100_000;

/// A notebook's JSON as a tree, without what no rendering or edit needs:
/// the payloads of outputs (`cells[*].outputs[*].data[*]`) are kept only
/// as far as they are text — a string, or a list of strings up to
/// [`MAX_PAYLOAD_ITEMS`] — and anything else there is skipped as it is
/// parsed and stands as null. Millions of numbers in a plot's output then
/// cost no memory; everything else, cell metadata included, is kept as it
/// is.
pub(crate) fn parse(text: &[u8]) -> Result<Value, serde_json::Error> {
    let mut json = serde_json::Deserializer::from_slice(text);
    let value = Slim(Place::Root).deserialize(&mut json)?;
    json.end()?;
    Ok(value)
}

/// Where in a notebook a value stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The document.
    Root,
    /// `cells`.
    Cells,
    /// One cell.
    Cell,
    /// A cell's `outputs`.
    Outputs,
    /// One output.
    Output,
    /// An output's `data`: payloads by MIME type.
    Bundle,
    /// One payload.
    Payload,
    /// Anywhere else: kept whole.
    Other,
}

impl Place {
    /// The place of the value under `key` of a map here.
    fn under(self, key: &str) -> Place {
        match (self, key) {
            (Place::Root, "cells") => Place::Cells,
            (Place::Cell, "outputs") => Place::Outputs,
            (Place::Output, "data") => Place::Bundle,
            (Place::Bundle | Place::Payload, _) => Place::Payload,
            _ => Place::Other,
        }
    }

    /// The place of an item of a list here.
    fn item(self) -> Place {
        match self {
            Place::Cells => Place::Cell,
            Place::Outputs => Place::Output,
            Place::Payload => Place::Payload,
            _ => Place::Other,
        }
    }
}

/// Builds a [`Value`] at a place, as [`parse`] says.
#[derive(Clone, Copy)]
struct Slim(Place);

impl Slim {
    /// `value`, unless it stands in a payload, where only text is kept.
    fn scalar(self, value: Value) -> Value {
        if self.0 == Place::Payload {
            Value::Null
        } else {
            value
        }
    }
}

impl<'de> DeserializeSeed<'de> for Slim {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, json: D) -> Result<Value, D::Error> {
        json.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Slim {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(self.scalar(Value::Bool(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_str<E>(self, text: &str) -> Result<Value, E> {
        Ok(Value::String(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Value, E> {
        Ok(Value::String(text))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let inner = Slim(self.0.item());
        let mut kept = Vec::new();
        if self.0 != Place::Payload {
            while let Some(item) = items.next_element_seed(inner)? {
                kept.push(item);
            }
            return Ok(Value::Array(kept));
        }
        // A payload: its strings, while there is nothing but strings.
        let mut text = true;
        while let Some(item) = items.next_element_seed(inner)? {
            text &= item.is_string() && kept.len() < MAX_PAYLOAD_ITEMS;
            if text {
                kept.push(item);
            }
        }
        Ok(if text {
            Value::Array(kept)
        } else {
            Value::Null
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut kept = serde_json::Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let value = entries.next_value_seed(Slim(self.0.under(&key)))?;
            if self.0 != Place::Payload {
                kept.insert(key, value);
            }
        }
        Ok(if self.0 == Place::Payload {
            Value::Null
        } else {
            Value::Object(kept)
        })
    }
}

/// An image output waiting to be attached.
struct Pending {
    mime: &'static str,
    data: Vec<u8>,
}

/// Renders `notebook`, noting a key its JSON repeats; image outputs are
/// collected into `images`.
fn render(
    notebook: &Value,
    repeated: Option<&RepeatedKey>,
    path: &str,
    images: &mut Vec<Pending>,
) -> Option<String> {
    let cells = notebook.get("cells")?.as_array()?;
    let mut out = String::new();
    let code = cells.iter().filter(|c| c["cell_type"] == "code").count();
    let language = notebook["metadata"]["kernelspec"]["language"]
        .as_str()
        .or_else(|| notebook["metadata"]["language_info"]["name"].as_str())
        .unwrap_or("unknown language");
    let _ = writeln!(
        out,
        "[notebook: {} {} ({code} code, {} other), {language}; line numbers count this rendering, not the file's JSON]",
        cells.len(),
        if cells.len() == 1 { "cell" } else { "cells" },
        cells.len() - code
    );
    if let Some(repeated) = repeated {
        let _ = writeln!(
            out,
            "[its JSON holds {repeated}: shown as Jupyter reads it, with the last; remove the other before editing cells]"
        );
    }
    for (c, cell) in cells.iter().enumerate() {
        let kind = cell["cell_type"].as_str().unwrap_or("unknown");
        let _ = write!(out, "--- cell {}: {kind}", c + 1);
        if let Some(id) = cell["id"].as_str() {
            let _ = write!(out, ", id {id}");
        }
        if let Some(count) = cell["execution_count"].as_u64() {
            let _ = write!(out, ", [{count}]");
        }
        out.push_str(" ---\n");
        let source = text_of(&cell["source"]);
        out.push_str(&source);
        if !source.is_empty() && !source.ends_with('\n') {
            out.push('\n');
        }
        for (o, output) in cell["outputs"].as_array().into_iter().flatten().enumerate() {
            render_output(&mut out, output, path, c, o, images);
        }
    }
    Some(out)
}

fn render_output(
    out: &mut String,
    output: &Value,
    path: &str,
    c: usize,
    o: usize,
    images: &mut Vec<Pending>,
) {
    let (label, text, field) = match output["output_type"].as_str() {
        Some("stream") => (
            output["name"].as_str().unwrap_or("stream").to_owned(),
            text_of(&output["text"]),
            ".text".to_owned(),
        ),
        Some("error") => (
            format!(
                "error {}: {}",
                output["ename"].as_str().unwrap_or(""),
                output["evalue"].as_str().unwrap_or("")
            ),
            strip_ansi(&text_of(&output["traceback"]).replace("\n\n", "\n")),
            ".traceback".to_owned(),
        ),
        Some(kind @ ("execute_result" | "display_data")) => {
            let data = &output["data"];
            for (mime, wanted) in [("image/png", "image/png"), ("image/jpeg", "image/jpeg")] {
                if let Some(encoded) = data[mime].as_str().map(|s| s.replace(['\n', '\r'], "")) {
                    match base64::decode(&encoded) {
                        Some(bytes) if images.len() < MAX_IMAGES => {
                            images.push(Pending {
                                mime: wanted,
                                data: bytes,
                            });
                            let _ = writeln!(
                                out,
                                ">>> image {} ({mime}): attached below",
                                images.len()
                            );
                        }
                        Some(bytes) => {
                            let _ = writeln!(
                                out,
                                ">>> {mime} image of {} not attached (at most {MAX_IMAGES} per read)",
                                Size(bytes.len() as u64)
                            );
                        }
                        None => {
                            let _ = writeln!(out, ">>> {mime} image that is not valid base64");
                        }
                    }
                    return;
                }
            }
            let label = if kind == "execute_result" {
                "result"
            } else {
                "display"
            };
            if data.get("text/plain").is_some() {
                (
                    label.to_owned(),
                    text_of(&data["text/plain"]),
                    ".data[\"text/plain\"]".to_owned(),
                )
            } else if let Some((mime, value)) = data.as_object().and_then(|m| m.iter().next()) {
                if value.is_null() {
                    let _ = writeln!(out, ">>> {label}: {mime} output, not shown");
                } else {
                    let size = text_of(value).chars().count();
                    let _ = writeln!(
                        out,
                        ">>> {label}: {mime} output of {size} characters, not shown"
                    );
                }
                return;
            } else {
                return;
            }
        }
        _ => return,
    };
    let chars = text.chars().count();
    let _ = writeln!(out, ">>> {label}:");
    if chars > MAX_OUTPUT_CHARS {
        let _ = writeln!(
            out,
            "[output of {chars} characters not shown (over {MAX_OUTPUT_CHARS}); extract it with: jq -j '.cells[{c}].outputs[{o}]{field} | add? // .' {path}]"
        );
        return;
    }
    out.push_str(&text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

/// Reads the notebook `rel` for `read`: `None` when it is not a notebook
/// after all (then it is read as text).
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
) -> Result<Option<(ToolResult, Observation)>, ToolError> {
    if meta.size > MAX_NOTEBOOK_BYTES {
        return Ok(None);
    }
    let data = image::read_all(fs, rel, &args.file_path, config.chunk_bytes)?;
    let Ok(notebook) = parse(&data) else {
        return Ok(None);
    };
    if notebook.get("nbformat").is_none() {
        return Ok(None);
    }
    let mut images = Vec::new();
    let repeated = repeated_key(&data);
    let Some(rendered) = render(&notebook, repeated.as_ref(), &args.file_path, &mut images) else {
        return Ok(None);
    };
    let mut result = read::page_rendering(config, args, &rendered, rel, "notebook", meta.size)?;
    let shown_text = result.text();
    let mut tokens = result.metadata["estimated_tokens"].as_u64().unwrap_or(0);
    for (n, pending) in images.into_iter().enumerate() {
        if !shown_text.contains(&format!(">>> image {} (", n + 1)) {
            continue;
        }
        match image::fit(config, pending.data, pending.mime) {
            Ok(Fitted::Shown { shown, block }) => {
                tokens += image::image_tokens(shown.shown_width, shown.shown_height);
                result
                    .content
                    .push(Block::Text(format!("image {}: {shown}", n + 1)));
                result.content.push(block);
            }
            Ok(Fitted::NotShown(text)) | Err(text) => {
                result
                    .content
                    .push(Block::Text(format!("image {}: {text}", n + 1)));
            }
        }
    }
    result.metadata["estimated_tokens"] = Value::from(tokens);
    Ok(Some((result, Observation::whole(meta))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;
    use serde_json::json;

    fn notebook(outputs: &Value) -> Vec<u8> {
        json!({
            "cells": [
                {"cell_type": "markdown", "id": "m1", "source": ["# Title\n", "Some text"], "metadata": {}},
                {"cell_type": "code", "id": "c1", "execution_count": 3, "source": "print('hi')", "outputs": outputs, "metadata": {}}
            ],
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5
        })
        .to_string()
        .into_bytes()
    }

    fn read_text(bytes: &[u8]) -> ToolResult {
        let fs = MemFs::new();
        fs.add_file("n.ipynb", bytes);
        let mut session = Session::open("{}", fs).unwrap();
        session.call("read", r#"{"file_path": "n.ipynb"}"#)
    }

    #[test]
    fn cells_are_rendered_in_order_with_kinds_and_outputs() {
        let result = read_text(&notebook(
            &json!([{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]),
        ));
        let text = result.text();
        assert!(
            text.contains("[notebook: 2 cells (1 code, 1 other), python;"),
            "{text}"
        );
        assert!(text.contains("--- cell 1: markdown, id m1 ---\n3\t# Title\n4\tSome text\n5\t--- cell 2: code, id c1, [3] ---\n6\tprint('hi')\n7\t>>> stdout:\n8\thi"), "{text}");
        assert_eq!(result.metadata["kind"], "notebook");
    }

    #[test]
    fn a_huge_output_is_replaced_by_its_size_and_how_to_extract_it() {
        let big = "x".repeat(50_000);
        let result = read_text(&notebook(
            &json!([{"output_type": "stream", "name": "stdout", "text": big}]),
        ));
        let text = result.text();
        assert!(text.contains("[output of 50000 characters not shown (over 10000); extract it with: jq -j '.cells[1].outputs[0].text | add? // .' n.ipynb]"), "{text}");
        assert!(text.len() < 2000);
    }

    #[test]
    fn image_outputs_are_attached_and_errors_lose_their_colours() {
        let png = image::tests::png(32, 16);
        let outputs = json!([
            {"output_type": "display_data", "data": {"image/png": base64::encode(&png), "text/plain": ["<Figure>"]}, "metadata": {}},
            {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": ["\u{1b}[31mValueError\u{1b}[0m: bad"]}
        ]);
        let result = read_text(&notebook(&outputs));
        let text = result.text();
        assert!(
            text.contains(">>> image 1 (image/png): attached below"),
            "{text}"
        );
        assert!(text.contains(">>> error ValueError: bad:\n"), "{text}");
        assert!(text.contains("\tValueError: bad"), "{text}");
        assert!(matches!(
            result.content.last(),
            Some(Block::Image {
                width: 32,
                height: 16,
                ..
            })
        ));
    }

    #[test]
    fn a_repeated_key_is_found_with_its_place_and_decoded() {
        let found = |text: &str| repeated_key(text.as_bytes()).map(|r| r.to_string());
        assert_eq!(found(r#"{"a": [1, {"b": 2}], "c": {}}"#), None);
        assert_eq!(found("not json"), None);
        assert_eq!(
            found(r#"{"cells": [], "c\u0065lls": []}"#).as_deref(),
            Some("the key \"cells\" twice at the top level")
        );
        assert_eq!(
            found(r#"{"cells": [{"a": 1}, {"data": {"text/plain": 1, "text/plain": 2}}]}"#)
                .as_deref(),
            Some("the key \"text/plain\" twice in the object at .cells[1].data")
        );
        assert_eq!(
            found(r#"{"a b": [[{"1x": {"y": 1, "y": 2}}]]}"#).as_deref(),
            Some("the key \"y\" twice in the object at .[\"a b\"][0][0][\"1x\"]")
        );
    }

    #[test]
    fn read_shows_the_last_of_a_repeated_key_and_says_so() {
        let cell =
            |id: &str| json!({"cell_type": "markdown", "id": id, "metadata": {}, "source": id});
        let notebook = format!(
            r#"{{"cells": [{}], "cells": [{}], "metadata": {{}}, "nbformat": 4, "nbformat_minor": 5}}"#,
            cell("first"),
            cell("last")
        );
        let text = read_text(notebook.as_bytes()).text();
        assert!(text.contains("--- cell 1: markdown, id last ---"), "{text}");
        assert!(!text.contains("first"), "{text}");
        assert!(
            text.contains("[its JSON holds the key \"cells\" twice at the top level: shown as Jupyter reads it, with the last; remove the other before editing cells]"),
            "{text}"
        );
    }

    #[test]
    fn only_the_payloads_of_outputs_are_trimmed() {
        let text = serde_json::json!({
            "metadata": {"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}},
            "cells": [{"cell_type": "code", "source": [],
                "metadata": {"nteract": {"transient": {"deleting": false, "n": [1, 2]}}},
                "outputs": [{"output_type": "display_data", "metadata": {"deep": {"x": {"y": 3}}},
                    "data": {"text/plain": ["a", "b"], "application/json": {"v": [1, 2, 3]},
                        "numbers": [1, 2, 3], "text/html": "<b>"}}]}]
        });
        let parsed = parse(text.to_string().as_bytes()).unwrap();
        assert_eq!(parsed["metadata"], text["metadata"]);
        let cell = &parsed["cells"][0];
        assert_eq!(cell["metadata"], text["cells"][0]["metadata"]);
        let output = &cell["outputs"][0];
        assert_eq!(
            output["metadata"],
            text["cells"][0]["outputs"][0]["metadata"]
        );
        assert_eq!(output["data"]["text/plain"], serde_json::json!(["a", "b"]));
        assert_eq!(output["data"]["text/html"], "<b>");
        assert!(output["data"]["application/json"].is_null());
        assert!(output["data"]["numbers"].is_null());
    }

    #[test]
    fn json_that_is_not_a_notebook_is_read_as_text() {
        let result = read_text(br#"{"cells": 3, "other": true}"#);
        assert!(
            result.text().starts_with("1\t{\"cells\": 3"),
            "{}",
            result.text()
        );
    }
}
