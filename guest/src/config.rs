//! [`Config`]: every cap and policy of a session, with its default, in one
//! place (SPEC R2, R10). A host passes it as a JSON object; `{}` takes every
//! default, unknown keys and out-of-range values are refused by name.
//!
//! ```
//! let config = filetools_core::Config::from_json(r#"{"max_lines": 500}"#).unwrap();
//! assert_eq!(config.max_lines, 500);
//! assert_eq!(config.max_line_chars, filetools_core::config::DEFAULT_MAX_LINE_CHARS);
//! ```

use serde::{Deserialize, Deserializer, Serialize};

/// Longest path accepted, in bytes (Linux's `PATH_MAX`): a longer one
/// cannot name a file, and is most likely content sent as a path.
pub const MAX_PATH_BYTES: usize = 4096;

/// Lines shown by one read when no `limit` is given.
pub const DEFAULT_MAX_LINES: u64 = 2000;
/// Characters of one line shown before it is cut.
pub const DEFAULT_MAX_LINE_CHARS: u64 = 2000;
/// Output budget of one call, in estimated tokens.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u64 = 25_000;
/// Bytes counted as one token when estimating.
pub const DEFAULT_BYTES_PER_TOKEN: u64 = 4;
/// Bytes fetched from the host per `read` call.
pub const DEFAULT_CHUNK_BYTES: u32 = 64 * 1024;
/// The most one `read` of the host is asked for: the Rust host returns at
/// most this much (`MAX_READ_BYTES` there), so that a shorter piece still
/// means the end of the file.
pub const MAX_CHUNK_BYTES: u32 = 16 * 1024 * 1024;
/// Bytes scanned past the shown page to count the file's lines; beyond this
/// the total is reported as "more than N". Counting is the one part of a
/// first page that grows with the file: at 1 MiB it costs a fraction of a
/// millisecond, and every source file of usual size still gets its total.
pub const DEFAULT_COUNT_LIMIT_BYTES: u64 = 1024 * 1024;

/// Largest file `edit` loads, and the largest old version `write` compares
/// line by line.
pub const DEFAULT_MAX_EDIT_BYTES: u64 = 16 * 1024 * 1024;
/// Entries of a directory listed by one read.
pub const DEFAULT_MAX_DIR_ENTRIES: u64 = 200;
/// Longest edge, in pixels, of an image sent to the model.
pub const DEFAULT_MAX_IMAGE_EDGE: u64 = 1568;
/// Pixels of an image sent to the model (about 1.15 megapixels).
pub const DEFAULT_MAX_IMAGE_PIXELS: u64 = 1_150_000;
/// Bytes of an image sent to the model; JPEG quality falls until it fits.
pub const DEFAULT_MAX_IMAGE_BYTES: u64 = 1024 * 1024;
/// Bytes of an image file that is decoded at all.
pub const DEFAULT_MAX_IMAGE_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Pixels of an image that is decoded at all, checked against the size its
/// header claims before anything is decoded: at four bytes a pixel, 24 MP
/// (6000x4000) leaves room in the default 256 MiB session memory for the
/// file itself and the decoder's own buffers.
pub const DEFAULT_MAX_DECODE_PIXELS: u64 = 24_000_000;
/// A read without a range of a file estimated above this many tokens gets
/// its outline (or head and tail), and no outline is longer (SPEC R5).
pub const DEFAULT_OUTLINE_BUDGET_TOKENS: u64 = 10_000;
/// Share of a file's bytes, in percent, an outline may take (but never
/// less than a quarter of the outline budget).
pub const DEFAULT_OUTLINE_MAX_PERCENT: u64 = 5;
/// Largest file parsed for an outline; larger ones get head and tail.
pub const DEFAULT_MAX_OUTLINE_BYTES: u64 = 4 * 1024 * 1024;
/// Largest file whose syntax is checked after a change (SPEC E11): a
/// parse of this much code takes tens of milliseconds in the component.
pub const DEFAULT_MAX_SYNTAX_CHECK_BYTES: u64 = 1024 * 1024;
/// Bytes of replaced file versions a session keeps for `undo`.
pub const DEFAULT_HISTORY_BYTES: u64 = 8 * 1024 * 1024;
/// Bytes of file text a session keeps as the model last saw it, to show
/// what changed since (SPEC V3) and to merge an edit with another
/// writer's change (SPEC V4).
pub const DEFAULT_VIEW_BYTES: u64 = 4 * 1024 * 1024;

/// A session's caps and policies.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of a flat JSON config"
)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Lines shown by one read when the model gives no `limit`.
    pub max_lines: u64,
    /// Characters shown of one line before it is cut at a grapheme boundary.
    pub max_line_chars: u64,
    /// Output budget of one call in estimated tokens; a page stops at the last
    /// whole line that fits.
    pub max_output_tokens: u64,
    /// Bytes per token used for the cheap token estimate.
    pub bytes_per_token: u64,
    /// Bytes asked of the host per read; memory stays bounded by it.
    pub chunk_bytes: u32,
    /// Bytes scanned beyond the page to count total lines.
    pub count_limit_bytes: u64,
    /// The absolute path the model knows the workspace root by, e.g.
    /// `/home/me/project`; absolute paths under it are accepted. Empty: only
    /// relative paths are accepted.
    pub root: String,
    /// Other absolute spellings of the same root, e.g. a symlink to it or the
    /// spelling the user typed (`/tmp/p` for `/private/tmp/p`); absolute
    /// paths under any of them are accepted too.
    pub root_aliases: Vec<String>,
    /// The session's working directory, relative to the root (`.` = root);
    /// relative paths are resolved from it.
    pub cwd: String,
    /// The absolute path `~` stands for (inside `root` to be usable); empty:
    /// `~` is not expanded.
    pub home: String,
    /// Answer an unchanged repeat of a read with a short stub (SPEC R7).
    pub dedup: bool,
    /// Let paths under `/proc` and `/sys` through when the root contains
    /// them; by default they are refused by name, like devices.
    pub kernel_files: bool,
    /// Largest file an edit loads into memory; larger files are not
    /// fingerprinted when read, so their staleness is judged by size and
    /// mtime alone.
    pub max_edit_bytes: u64,
    /// Bytes of replaced versions kept for undo; the oldest go first.
    pub history_bytes: u64,
    /// Bytes of file text kept as the model last saw it (files up to
    /// `max_edit_bytes`; the oldest go first), so a file changed since is
    /// answered with what changed rather than "read it again"; 0 keeps
    /// none.
    pub view_bytes: u64,
    /// Let an edit of a file someone changed since the model's view land
    /// when the text it replaces, and the lines around it, did not change
    /// (SPEC V4); off, such an edit is refused with what changed.
    pub merge: bool,
    /// Entries of a directory listed by one read.
    pub max_dir_entries: u64,
    /// Longest edge of an image sent to the model, in pixels.
    pub max_image_edge: u64,
    /// Pixels of an image sent to the model.
    pub max_image_pixels: u64,
    /// Bytes of an image sent to the model.
    pub max_image_bytes: u64,
    /// Bytes of an image file decoded at all; larger ones are described.
    pub max_image_file_bytes: u64,
    /// Pixels of an image decoded at all (as its header claims); larger
    /// ones are described.
    pub max_decode_pixels: u64,
    /// Answer a read without a range of a file too large to show whole with
    /// its outline, or its head and tail (SPEC R5).
    pub outline: bool,
    /// The size, in estimated tokens, above which a file is outlined, and
    /// the most an outline may take.
    pub outline_budget_tokens: u64,
    /// Share of the file, in percent, an outline may take; never less than
    /// a quarter of `outline_budget_tokens`.
    pub outline_max_percent: u64,
    /// Largest file parsed for an outline.
    pub max_outline_bytes: u64,
    /// What a change that leaves a cleanly parsing file with syntax errors
    /// does (SPEC E11): `warn` (the answer says where), `refuse` (nothing
    /// is written) or `off`.
    pub syntax_check: SyntaxCheck,
    /// Largest file whose syntax is checked; larger ones are not, and the
    /// answer says so.
    pub max_syntax_check_bytes: u64,
    /// What the model is told of files it has seen that changed on disk
    /// since (SPEC K2): `off` (only when it next touches one, and when the
    /// host asks with `changes`), or `note` (at the head of every answer).
    pub change_notices: ChangeNotices,
    /// The tool sets the session offers, by name: `filetools` (`read`,
    /// `write`, `edit`, `undo`), `text-editor`, `apply-patch`,
    /// `mcp-filesystem`, `notebook`; one name or a list.
    #[serde(deserialize_with = "one_or_many")]
    pub tools: Vec<ToolSet>,
    /// Characters one `view` of the text editor shows at most, notices
    /// included (its definition's `max_characters`); 0: the output budget
    /// alone.
    pub max_characters: u64,
    /// Paths `grep` and `find` leave out, in `.gitignore` syntax relative
    /// to the root (`secrets/`, `*.pem`): named in the answer when they
    /// skip something, and lifted by a call's `no_ignore`.
    pub search_exclude: Vec<String>,
    /// The workspace cannot be changed: the definitions list only the
    /// tools (and commands) that can succeed, and a change is refused as
    /// read-only before anything else is checked. A host whose file
    /// system refuses writes sets it.
    pub read_only: bool,
}

/// A set of tools in the shape one family of models was trained on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolSet {
    /// `read`, `write`, `edit`, `undo`.
    Filetools,
    /// Anthropic's text editor, `str_replace_based_edit_tool`.
    TextEditor,
    /// OpenAI's `apply_patch` (Responses operations and the Codex envelope).
    ApplyPatch,
    /// The tools of the MCP reference filesystem server.
    McpFilesystem,
    /// `notebook_edit`, Claude Code's notebook cell edits.
    Notebook,
}

impl ToolSet {
    /// Every set's config name.
    pub const NAMES: [&'static str; 5] = [
        "filetools",
        "text-editor",
        "apply-patch",
        "mcp-filesystem",
        "notebook",
    ];
}

/// When the model is told of seen files that changed on disk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeNotices {
    /// When it touches such a file, or the host asks (`changes`).
    #[default]
    Off,
    /// Also at the head of every answer, for the files the call left alone.
    Note,
}

/// What a change that breaks a file's syntax does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SyntaxCheck {
    /// The change is made; the answer says where the errors are.
    #[default]
    Warn,
    /// The change is refused; nothing is written.
    Refuse,
    /// No check.
    Off,
}

/// A list given as one value or as an array.
fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<ToolSet>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(ToolSet),
        Many(Vec<ToolSet>),
    }
    match OneOrMany::deserialize(deserializer) {
        Ok(OneOrMany::One(set)) => Ok(vec![set]),
        Ok(OneOrMany::Many(sets)) => Ok(sets),
        Err(_) => Err(serde::de::Error::custom(format!(
            "tools must name tool sets, one or a list, from: {}",
            ToolSet::NAMES.join(", ")
        ))),
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_lines: DEFAULT_MAX_LINES,
            max_line_chars: DEFAULT_MAX_LINE_CHARS,
            max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            bytes_per_token: DEFAULT_BYTES_PER_TOKEN,
            chunk_bytes: DEFAULT_CHUNK_BYTES,
            count_limit_bytes: DEFAULT_COUNT_LIMIT_BYTES,
            root: String::new(),
            root_aliases: Vec::new(),
            cwd: ".".to_owned(),
            home: String::new(),
            dedup: true,
            kernel_files: false,
            max_edit_bytes: DEFAULT_MAX_EDIT_BYTES,
            history_bytes: DEFAULT_HISTORY_BYTES,
            view_bytes: DEFAULT_VIEW_BYTES,
            merge: true,
            max_dir_entries: DEFAULT_MAX_DIR_ENTRIES,
            max_image_edge: DEFAULT_MAX_IMAGE_EDGE,
            max_image_pixels: DEFAULT_MAX_IMAGE_PIXELS,
            max_image_bytes: DEFAULT_MAX_IMAGE_BYTES,
            max_image_file_bytes: DEFAULT_MAX_IMAGE_FILE_BYTES,
            max_decode_pixels: DEFAULT_MAX_DECODE_PIXELS,
            outline: true,
            outline_budget_tokens: DEFAULT_OUTLINE_BUDGET_TOKENS,
            outline_max_percent: DEFAULT_OUTLINE_MAX_PERCENT,
            max_outline_bytes: DEFAULT_MAX_OUTLINE_BYTES,
            syntax_check: SyntaxCheck::Warn,
            max_syntax_check_bytes: DEFAULT_MAX_SYNTAX_CHECK_BYTES,
            change_notices: ChangeNotices::Off,
            tools: vec![ToolSet::Filetools],
            max_characters: 0,
            search_exclude: Vec::new(),
            read_only: false,
        }
    }
}

impl Config {
    /// Parses and validates a JSON config object.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let text = if text.trim().is_empty() { "{}" } else { text };
        let config: Config =
            serde_json::from_str(text).map_err(|err| format!("invalid session config: {err}"))?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), String> {
        let positive = [
            ("max_lines", self.max_lines),
            ("max_line_chars", self.max_line_chars),
            ("max_output_tokens", self.max_output_tokens),
            ("bytes_per_token", self.bytes_per_token),
            ("chunk_bytes", u64::from(self.chunk_bytes)),
            ("max_edit_bytes", self.max_edit_bytes),
            ("max_dir_entries", self.max_dir_entries),
            ("max_image_edge", self.max_image_edge),
            ("max_image_pixels", self.max_image_pixels),
            ("max_image_bytes", self.max_image_bytes),
            ("max_decode_pixels", self.max_decode_pixels),
            ("outline_budget_tokens", self.outline_budget_tokens),
        ];
        for (name, value) in positive {
            if value == 0 {
                return Err(format!("invalid session config: {name} must be at least 1"));
            }
        }
        if self.budget_bytes() < MIN_BUDGET_BYTES {
            return Err(format!(
                "invalid session config: max_output_tokens * bytes_per_token must be at least {MIN_BUDGET_BYTES} bytes"
            ));
        }
        if self.chunk_bytes > MAX_CHUNK_BYTES {
            return Err(format!(
                "invalid session config: chunk_bytes must be at most {MAX_CHUNK_BYTES}, got {}",
                self.chunk_bytes
            ));
        }
        if !(1..=100).contains(&self.outline_max_percent) {
            return Err(format!(
                "invalid session config: outline_max_percent must be from 1 to 100, got {}",
                self.outline_max_percent
            ));
        }
        if !self.root.is_empty() && !self.root.starts_with('/') {
            return Err(format!(
                "invalid session config: root must be an absolute path, got {:?}",
                self.root
            ));
        }
        if let Some(alias) = self.root_aliases.iter().find(|a| !a.starts_with('/')) {
            return Err(format!(
                "invalid session config: root_aliases must be absolute paths, got {alias:?}"
            ));
        }
        if self.tools.is_empty() {
            return Err("invalid session config: tools must name at least one tool set".to_owned());
        }
        if self.max_characters != 0 && self.max_characters < MIN_MAX_CHARACTERS {
            return Err(format!(
                "invalid session config: max_characters must be 0 or at least {MIN_MAX_CHARACTERS}"
            ));
        }
        Ok(())
    }

    /// The output budget in bytes.
    pub fn budget_bytes(&self) -> u64 {
        self.max_output_tokens.saturating_mul(self.bytes_per_token)
    }

    /// Estimated tokens of `bytes` bytes of output, rounded up.
    pub fn estimate_tokens(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.bytes_per_token)
    }
}

/// The smallest output budget that still leaves room for a line and its
/// notices.
pub const MIN_BUDGET_BYTES: u64 = 512;

/// The smallest `max_characters`: room for the notices and as much again
/// for the text.
pub const MIN_MAX_CHARACTERS: u64 = 2 * MIN_BUDGET_BYTES;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_object_takes_defaults() {
        assert_eq!(Config::from_json("{}").unwrap(), Config::default());
        assert_eq!(Config::from_json("").unwrap(), Config::default());
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = Config::from_json(r#"{"max_linez": 3}"#).unwrap_err();
        assert!(err.contains("max_linez"), "{err}");
    }

    #[test]
    fn zero_caps_are_refused() {
        let err = Config::from_json(r#"{"max_lines": 0}"#).unwrap_err();
        assert!(err.contains("max_lines must be at least 1"), "{err}");
    }

    #[test]
    fn a_chunk_larger_than_a_host_returns_at_once_is_refused() {
        let at_most = format!(r#"{{"chunk_bytes": {MAX_CHUNK_BYTES}}}"#);
        assert!(Config::from_json(&at_most).is_ok());
        let over = format!(r#"{{"chunk_bytes": {}}}"#, MAX_CHUNK_BYTES + 1);
        let err = Config::from_json(&over).unwrap_err();
        assert!(
            err.contains("chunk_bytes must be at most 16777216"),
            "{err}"
        );
    }

    #[test]
    fn tool_sets_are_named_one_or_many() {
        let one = Config::from_json(r#"{"tools": "text-editor"}"#).unwrap();
        assert_eq!(one.tools, [ToolSet::TextEditor]);
        let many = Config::from_json(r#"{"tools": ["filetools", "notebook"]}"#).unwrap();
        assert_eq!(many.tools, [ToolSet::Filetools, ToolSet::Notebook]);
        let err = Config::from_json(r#"{"tools": "vim"}"#).unwrap_err();
        assert!(err.contains("mcp-filesystem"), "{err}");
        assert!(Config::from_json(r#"{"tools": []}"#).is_err());
    }

    #[test]
    fn relative_root_is_refused() {
        assert!(Config::from_json(r#"{"root": "proj"}"#).is_err());
        assert!(Config::from_json(r#"{"root": "/p", "root_aliases": ["q"]}"#).is_err());
    }
}
