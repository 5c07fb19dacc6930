//! The syntax check after a change (SPEC E11). For code, the top-level
//! statements the change touched are parsed first (see `touched`): when they
//! parse, the check is done. Otherwise, and for JSON, TOML and YAML, the new
//! text is parsed whole, and only when it has errors is the old text parsed
//! too. A file that already had errors is not reported on; neither is a
//! language with no parser here.

use crate::answers::refusal::Refusal;
use crate::answers::result::{Block, ToolResult};
use crate::answers::syntax_note::SyntaxNote;
use crate::change::touched::touched;
use crate::config::{Config, SyntaxCheck};
use crate::view::outline::Language;
use crate::view::syntax::{checkable, errors};

/// Errors named in an answer at most.
pub const MAX_ERRORS_SHOWN: usize = 3;

/// Extensions of JSON with comments, which a strict JSON parse refuses.
const LOOSE_JSON: [&str; 2] = [".jsonc", ".json5"];

/// What the answer to changing `rel` from `before` to `after` should say of
/// its syntax, if anything.
pub(crate) fn check(config: &Config, rel: &str, before: &str, after: &str) -> Option<SyntaxNote> {
    if config.syntax_check == SyntaxCheck::Off {
        return None;
    }
    let language = Language::detect(rel, after.as_bytes());
    // Prose, plain text and loose JSON: nothing to parse, so no pass over
    // the text either.
    if !checkable(language)
        || language == Language::Json && LOOSE_JSON.iter().any(|ext| rel.ends_with(ext))
    {
        return None;
    }
    let name = language.name();
    if after.len() as u64 > config.max_syntax_check_bytes {
        return Some(SyntaxNote::TooLarge {
            language: name,
            max: config.max_syntax_check_bytes,
        });
    }
    // Code: the statements the change touched parse on their own when it
    // broke nothing, which spares a parse of the whole file.
    let is_data = matches!(language, Language::Json | Language::Toml | Language::Yaml);
    if !is_data
        && matches!(errors(language, touched(before, after), 1), Ok(Some(found)) if found.is_empty())
    {
        return None;
    }
    let found = match errors(language, after, MAX_ERRORS_SHOWN) {
        Ok(Some(found)) if !found.is_empty() => found,
        Ok(_) => return None,
        Err(why) => {
            return Some(SyntaxNote::Stopped {
                language: name,
                why,
            });
        }
    };
    match errors(language, before, 1) {
        Ok(Some(old)) if old.is_empty() => Some(SyntaxNote::Broke {
            language: name,
            errors: found,
        }),
        _ => None,
    }
}

/// Refuses a change that breaks the syntax, when the session says so.
pub(crate) fn refuse_broken(
    config: &Config,
    path: &str,
    note: Option<&SyntaxNote>,
) -> Result<(), Refusal> {
    match note {
        Some(SyntaxNote::Broke { language, errors })
            if config.syntax_check == SyntaxCheck::Refuse =>
        {
            Err(Refusal::BrokenSyntax {
                path: path.to_owned(),
                language,
                errors: SyntaxNote::errors_text(errors),
            })
        }
        _ => Ok(()),
    }
}

/// `result` with `note` said after its text and put in its metadata.
pub(crate) fn noted(mut result: ToolResult, note: Option<&SyntaxNote>) -> ToolResult {
    let Some(note) = note else {
        return result;
    };
    match result.content.first_mut() {
        Some(Block::Text(text)) => {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&note.to_string());
        }
        _ => result.content.push(Block::Text(note.to_string())),
    }
    if let (Some(into), serde_json::Value::Object(facts)) =
        (result.metadata.as_object_mut(), note.metadata())
    {
        into.extend(facts);
    }
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::answers::result::ToolResult;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    fn edited(config: &str, path: &str, text: &str, old: &str, new: &str) -> (ToolResult, Vec<u8>) {
        let fs = MemFs::new();
        fs.add_file(path, text.as_bytes());
        let mut s = Session::open(config, fs).unwrap();
        s.call("read", &json!({"file_path": path}).to_string());
        let args = json!({"file_path": path, "old_string": old, "new_string": new});
        let result = s.call("edit", &args.to_string());
        (result, s.fs().contents(path).unwrap())
    }

    const PY: &str = "def f(x):\n    if x:\n        return 1\n    return 2\n";

    #[test]
    fn an_edit_that_breaks_clean_code_says_where() {
        let (result, _) = edited(
            "{}",
            "a.py",
            PY,
            "        return 1\n",
            "        return (1\n",
        );
        assert!(!result.is_error);
        let text = result.text();
        let note = text.lines().find(|l| l.starts_with("Syntax")).unwrap();
        assert!(
            note.starts_with(
                "Syntax: this python file parsed cleanly before and now does not: line "
            ),
            "{text}"
        );
        assert!(note.ends_with("take the change back with undo."), "{text}");
        assert!(result.metadata["syntax_errors"][0]["line"].is_u64());
    }

    #[test]
    fn a_clean_edit_says_nothing_of_syntax() {
        let (result, _) = edited("{}", "a.py", PY, "return 1", "return 3");
        assert!(!result.text().contains("Syntax"), "{}", result.text());
        assert!(result.metadata.get("syntax_errors").is_none());
    }

    #[test]
    fn the_session_can_refuse_such_an_edit() {
        let (result, after) = edited(
            r#"{"syntax_check": "refuse"}"#,
            "c.json",
            "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
            "\"b\": 2",
            "\"b\": 2,",
        );
        assert_eq!(result.metadata["error"], "syntax_error");
        assert!(
            result.text().starts_with(
                "Error: c.json parses cleanly as json, and this change would break it: line 4:"
            ),
            "{}",
            result.text()
        );
        assert_eq!(after, b"{\n  \"a\": 1,\n  \"b\": 2\n}\n");
    }

    #[test]
    fn a_file_broken_before_is_not_reported_and_off_means_off() {
        let broken = "def f(:\n    pass\n";
        let (result, _) = edited("{}", "b.py", broken, "pass", "pass)");
        assert!(!result.text().contains("Syntax"), "{}", result.text());
        let (result, _) = edited(
            r#"{"syntax_check": "off"}"#,
            "a.py",
            PY,
            "return 1",
            "return (1",
        );
        assert!(!result.text().contains("Syntax"), "{}", result.text());
    }

    #[test]
    fn a_file_over_the_limit_is_said_to_be_unchecked() {
        let (result, _) = edited(
            r#"{"max_syntax_check_bytes": 10}"#,
            "a.toml",
            "a = 1\nb = 2\n",
            "b = 2",
            "b = ",
        );
        assert!(
            result
                .text()
                .contains("Syntax not checked: this toml file is over 10 bytes.\n[version "),
            "{}",
            result.text()
        );
        assert_eq!(result.metadata["syntax_checked"], false);
    }

    #[test]
    fn markdown_and_plain_text_are_not_checked() {
        let (result, _) = edited("{}", "r.md", "# A\n\ntext\n", "text", "`unclosed");
        assert!(!result.text().contains("Syntax"), "{}", result.text());
    }
}
