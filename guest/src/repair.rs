//! Path repair (SPEC R8): the spellings a model cannot see are tried before
//! "not found". First the syntax — surrounding whitespace and quotes, a
//! leading `@`, a `file://` URL, `~` — then, when the file is not there,
//! the invisible differences: a narrow no-break space (U+202F) or no-break
//! space (U+00A0) before AM/PM as in macOS screenshot names, NFC versus NFD,
//! curly versus straight quotes. Each candidate is resolved and checked like
//! any path; when two exist, nothing is guessed. Still nothing: the closest
//! names in the parent directory, by edit distance.
//!
//! ```
//! use filetools_core::{Config, repair::clean};
//! let (path, repairs) = clean(&Config::default(), " @\"src/main.rs\" ");
//! assert_eq!(path, "src/main.rs");
//! assert_eq!(repairs.len(), 2);
//! ```

use std::fmt;

use unicode_normalization::UnicodeNormalization as _;

use std::collections::BTreeMap;

use crate::config::Config;
use crate::error::ToolError;
use crate::fs::{FsError, HostFs, Metadata};
use crate::path::resolve_arg;

/// One repair made to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// Surrounding whitespace or quotes removed.
    Trimmed,
    /// A leading `@` removed.
    At,
    /// A `file://` URL turned into a path.
    FileUrl,
    /// `~` replaced by the configured home directory.
    Home,
    /// A plain space before AM/PM is this special space in the name.
    SpecialSpace(char),
    /// A special space in the path is a plain space in the name.
    PlainSpace,
    /// The name is stored decomposed (NFD).
    Decomposed,
    /// The name is stored composed (NFC).
    Composed,
    /// The name has curly quotes where the path had straight ones.
    CurlyQuotes,
    /// The name has straight quotes where the path had curly ones.
    StraightQuotes,
    /// The file this spelling was repaired to earlier in the session.
    Remembered,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repair::Trimmed => f.write_str("surrounding spaces or quotes removed"),
            Repair::At => f.write_str("leading @ removed"),
            Repair::FileUrl => f.write_str("file:// URL read as a path"),
            Repair::Home => f.write_str("~ expanded"),
            Repair::SpecialSpace(c) => write!(
                f,
                "the name has a {} (U+{:04X}) before AM/PM",
                if *c == '\u{202F}' {
                    "narrow no-break space"
                } else {
                    "no-break space"
                },
                u32::from(*c)
            ),
            Repair::PlainSpace => {
                f.write_str("the name has a plain space where the path had a special one")
            }
            Repair::Decomposed => f.write_str("the name is stored in decomposed Unicode (NFD)"),
            Repair::Composed => f.write_str("the name is stored in composed Unicode (NFC)"),
            Repair::CurlyQuotes => f.write_str("the name has curly quotes or apostrophes"),
            Repair::StraightQuotes => f.write_str("the name has straight quotes or apostrophes"),
            Repair::Remembered => f.write_str("the file this path was repaired to earlier"),
        }
    }
}

/// The one line that says what was repaired.
pub fn describe(rel: &str, repairs: &[Repair]) -> String {
    let reasons: Vec<String> = repairs.iter().map(ToString::to_string).collect();
    format!("[path repaired to {rel}: {}]", reasons.join("; "))
}

/// Quotes that may wrap a path: `(open, close)`.
const QUOTE_PAIRS: [(char, char); 5] =
    [('"', '"'), ('\'', '\''), ('`', '`'), ('“', '”'), ('‘', '’')];

/// Cleans the syntax of `raw`: whitespace, quotes, `@`, `file://`, `~`.
pub fn clean(config: &Config, raw: &str) -> (String, Vec<Repair>) {
    let mut repairs = Vec::new();
    let mut path = raw.trim().to_owned();
    if path.len() != raw.len() {
        repairs.push(Repair::Trimmed);
    }
    if let Some(rest) = path.strip_prefix('@') {
        path = rest.trim_start().to_owned();
        repairs.push(Repair::At);
    }
    for (open, close) in QUOTE_PAIRS {
        if path.chars().count() >= 2 && path.starts_with(open) && path.ends_with(close) {
            path = path[open.len_utf8()..path.len() - close.len_utf8()]
                .trim()
                .to_owned();
            if !repairs.contains(&Repair::Trimmed) {
                repairs.push(Repair::Trimmed);
            }
            break;
        }
    }
    if let Some(rest) = path.strip_prefix('@') {
        path = rest.to_owned();
        repairs.push(Repair::At);
    }
    if let Some(rest) = path.strip_prefix("file://") {
        path = percent_decode(rest.strip_prefix("localhost").unwrap_or(rest));
        repairs.push(Repair::FileUrl);
    }
    if !config.home.is_empty() && (path == "~" || path.starts_with("~/")) {
        path = format!("{}{}", config.home.trim_end_matches('/'), &path[1..]);
        repairs.push(Repair::Home);
    }
    (path, repairs)
}

/// `%XX` sequences decoded; invalid ones kept as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(u8::try_from(h * 16 + l).unwrap_or(b'%'));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// Spellings of `path` that differ only in what a model cannot see.
fn variants(path: &str) -> Vec<(String, Repair)> {
    let mut out: Vec<(String, Repair)> = Vec::new();
    for space in ['\u{202F}', '\u{A0}'] {
        let mut special = path.to_owned();
        for marker in ["AM", "PM", "am", "pm"] {
            special = special.replace(&format!(" {marker}"), &format!("{space}{marker}"));
        }
        out.push((special, Repair::SpecialSpace(space)));
    }
    out.push((
        path.replace(['\u{202F}', '\u{A0}'], " "),
        Repair::PlainSpace,
    ));
    out.push((path.nfd().collect(), Repair::Decomposed));
    out.push((path.nfc().collect(), Repair::Composed));
    out.push((path.replace('\'', "\u{2019}"), Repair::CurlyQuotes));
    out.push((
        path.replace(['\u{2018}', '\u{2019}'], "'")
            .replace(['\u{201C}', '\u{201D}'], "\""),
        Repair::StraightQuotes,
    ));
    let mut seen = vec![path.to_owned()];
    out.retain(|(candidate, _)| {
        let fresh = !seen.contains(candidate);
        seen.push(candidate.clone());
        fresh
    });
    out
}

/// A file found under another spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its root-relative path.
    pub rel: String,
    /// Its metadata.
    pub meta: Metadata,
    /// How the spelling differed.
    pub repair: Repair,
}

/// The one existing spelling of `path` that differs invisibly; `None` when
/// there is none. Two or more are refused by name, never guessed.
pub fn find<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
) -> Result<Option<Found>, ToolError> {
    let mut found: Vec<Found> = Vec::new();
    for (candidate, repair) in variants(path) {
        let Ok(rel) = resolve_arg(config, &candidate) else {
            continue;
        };
        if let Ok(meta) = fs.stat(&rel)
            && !found.iter().any(|f| f.rel == rel)
        {
            found.push(Found { rel, meta, repair });
        }
    }
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(ToolError::AmbiguousPath {
            path: path.to_owned(),
            candidates: found
                .into_iter()
                .map(|f| format!("{} ({})", f.rel, f.repair))
                .collect(),
        }),
    }
}

/// Where a tool's path leads, after repair.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The root-relative path as the model spelled it, once cleaned.
    pub asked: String,
    /// The root-relative path found (equal to `asked` unless repaired).
    pub rel: String,
    /// `stat` of `rel`.
    pub stat: Result<Metadata, FsError>,
    /// What was repaired.
    pub repairs: Vec<Repair>,
}

impl Target {
    /// The one line that says what was repaired, if anything was.
    pub fn note(&self) -> Option<String> {
        (!self.repairs.is_empty()).then(|| describe(&self.rel, &self.repairs))
    }

    /// Whether the file was found under an invisibly different spelling,
    /// which later calls with the same spelling should reuse.
    pub fn respelled(&self) -> bool {
        self.rel != self.asked
    }
}

/// Resolves `raw` for a tool: syntax cleaned, then — when nothing is there —
/// the spelling this session repaired it to before, then the invisible
/// variants. A device name or a path outside the root is an error; a missing
/// file is not (the `stat` says so), since `write` creates.
pub(crate) fn locate<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    raw: &str,
    remembered: &BTreeMap<String, String>,
) -> Result<Target, ToolError> {
    let (cleaned, mut repairs) = clean(config, raw);
    let asked = resolve_arg(config, &cleaned)?;
    let stat = fs.stat(&asked);
    if !matches!(stat, Err(FsError::NotFound)) {
        return Ok(Target {
            rel: asked.clone(),
            asked,
            stat,
            repairs,
        });
    }
    if let Some(rel) = remembered.get(&asked)
        && let Ok(meta) = fs.stat(rel)
    {
        repairs.push(Repair::Remembered);
        return Ok(Target {
            asked: asked.clone(),
            rel: rel.clone(),
            stat: Ok(meta),
            repairs,
        });
    }
    match find(config, fs, &cleaned)? {
        Some(found) => {
            repairs.push(found.repair);
            Ok(Target {
                asked,
                rel: found.rel,
                stat: Ok(found.meta),
                repairs,
            })
        }
        None => Ok(Target {
            rel: asked.clone(),
            asked,
            stat,
            repairs,
        }),
    }
}

/// Names listed as suggestions at most.
pub const MAX_SUGGESTIONS: usize = 3;

/// The "not found" error for `path` (root-relative `rel`), with the closest
/// names in its directory.
pub fn not_found<F: HostFs + ?Sized>(config: &Config, fs: &F, path: &str, rel: &str) -> ToolError {
    let (dir, name) = match rel.rsplit_once('/') {
        Some((dir, name)) => (dir, name),
        None => (".", rel),
    };
    let suggestions = match fs.list_dir(dir) {
        Ok(entries) => {
            let mut scored: Vec<(usize, String)> = entries
                .into_iter()
                .filter_map(|entry| {
                    let distance = distance(&entry.name.to_lowercase(), &name.to_lowercase());
                    let allowed = (name.chars().count() / 3).max(2);
                    (distance <= allowed).then(|| {
                        let full = if dir == "." {
                            entry.name
                        } else {
                            format!("{dir}/{}", entry.name)
                        };
                        (distance, full)
                    })
                })
                .collect();
            scored.sort();
            scored
                .into_iter()
                .take(MAX_SUGGESTIONS)
                .map(|(_, name)| name)
                .collect()
        }
        Err(_) => Vec::new(),
    };
    let missing_dir = dir != "." && matches!(fs.stat(dir), Err(FsError::NotFound));
    ToolError::NotFound {
        path: path.to_owned(),
        suggestions,
        missing_dir: missing_dir.then(|| dir.to_owned()),
        cwd: config.cwd.clone(),
    }
}

/// Levenshtein distance by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemFs;

    #[test]
    fn syntax_is_cleaned() {
        let config = Config {
            home: "/home/me".into(),
            ..Config::default()
        };
        assert_eq!(clean(&config, "'a b.txt'").0, "a b.txt");
        assert_eq!(clean(&config, "@src/x.rs").0, "src/x.rs");
        assert_eq!(
            clean(&config, "file:///home/me/a%20b.txt").0,
            "/home/me/a b.txt"
        );
        assert_eq!(clean(&config, "~/notes.md").0, "/home/me/notes.md");
        assert_eq!(clean(&config, "plain.txt").1, vec![]);
        assert_eq!(clean(&Config::default(), "~/x").0, "~/x");
    }

    #[test]
    fn a_screenshot_name_typed_with_a_plain_space_is_found() {
        let fs = MemFs::new();
        let real = "Screenshot 2026-11-29 at 10.04.31\u{202F}AM.png";
        fs.add_file(real, b"x");
        let found = find(
            &Config::default(),
            &fs,
            "Screenshot 2026-11-29 at 10.04.31 AM.png",
        )
        .unwrap()
        .unwrap();
        assert_eq!(found.rel, real);
        assert_eq!(found.repair, Repair::SpecialSpace('\u{202F}'));
    }

    #[test]
    fn nfd_names_and_curly_apostrophes_are_found() {
        let fs = MemFs::new();
        fs.add_file("cafe\u{301}.txt", b"x");
        fs.add_file("Bob\u{2019}s notes.txt", b"x");
        let config = Config::default();
        assert_eq!(
            find(&config, &fs, "caf\u{e9}.txt").unwrap().unwrap().repair,
            Repair::Decomposed
        );
        assert_eq!(
            find(&config, &fs, "Bob's notes.txt")
                .unwrap()
                .unwrap()
                .repair,
            Repair::CurlyQuotes
        );
        assert_eq!(find(&config, &fs, "nothing.txt").unwrap(), None);
    }

    #[test]
    fn two_candidates_are_not_guessed() {
        let fs = MemFs::new();
        fs.add_file("shot 1\u{202F}PM.png", b"x");
        fs.add_file("shot 1\u{A0}PM.png", b"x");
        let err = find(&Config::default(), &fs, "shot 1 PM.png").unwrap_err();
        assert!(
            matches!(err, ToolError::AmbiguousPath { ref candidates, .. } if candidates.len() == 2),
            "{err:?}"
        );
    }

    #[test]
    fn close_names_are_suggested() {
        let fs = MemFs::new();
        fs.add_file("src/main.rs", b"x");
        fs.add_file("src/mod.rs", b"x");
        fs.add_file("src/unrelated_file.rs", b"x");
        let err = not_found(&Config::default(), &fs, "src/mian.rs", "src/mian.rs");
        let ToolError::NotFound { suggestions, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(suggestions, &vec!["src/main.rs".to_owned()]);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
