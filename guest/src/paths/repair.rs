//! Path repair (SPEC R8): the spellings a model cannot see are tried before
//! "not found". First the syntax — surrounding whitespace and quotes, a
//! leading `@`, a `file://` URL, `~` — then, when the file is not there,
//! the invisible differences: a narrow no-break space (U+202F) or no-break
//! space (U+00A0) before AM/PM as in macOS screenshot names, NFC versus NFD,
//! curly versus straight quotes. Each candidate is resolved and checked like
//! any path; when two exist, nothing is guessed. Then component by component,
//! directories included: a missing name is looked for in its directory among
//! names that differ from it only in what cannot be seen (special spaces,
//! zero-width characters, quotes, dashes, widths, composition), and the
//! difference is spelled out. Still nothing: the closest names in the
//! parent directory, by edit distance, each with any invisible character
//! it has that the path does not.
//!
//! ```
//! use filetools_core::{Config, paths::repair::clean};
//! let (path, repairs) = clean(&Config::default(), " @\"src/main.rs\" ");
//! assert_eq!(path, "src/main.rs");
//! assert_eq!(repairs.len(), 2);
//! ```

use std::fmt;

use unicode_normalization::UnicodeNormalization as _;

use std::collections::BTreeMap;

use crate::answers::error::ToolError;
use crate::config::Config;
use crate::fs::host::{FsError, HostFs, Metadata};
use crate::paths::path::resolve_arg;
use crate::text::fold::{Level, fold};

/// How a name on disk differs from the one asked for, where no eye sees it:
/// the first character that differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unseen {
    /// The character in the name on disk (`None`: it has nothing there).
    pub found: Option<char>,
    /// The character in the path asked for (`None`: nothing there).
    pub asked: Option<char>,
}

impl fmt::Display for Unseen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.found, self.asked) {
            (Some(found), Some(asked)) => write!(
                f,
                "the name has {} where the path has {}",
                spelled(found),
                spelled(asked)
            ),
            (Some(found), None) => write!(f, "the name has an invisible {}", spelled(found)),
            (None, Some(asked)) => write!(
                f,
                "the path has an invisible {} the name lacks",
                spelled(asked)
            ),
            (None, None) => f.write_str("the name differs only in how its letters are encoded"),
        }
    }
}

/// `c` as a model can act on it: its code point and name, or itself when
/// it is plain ASCII.
fn spelled(c: char) -> String {
    let name = match c {
        ' ' => return "a plain space".to_owned(),
        '\'' => return "a straight apostrophe (')".to_owned(),
        '"' => return "a straight quote (\")".to_owned(),
        '-' => return "a hyphen (-)".to_owned(),
        '\u{00A0}' => "no-break space",
        '\u{202F}' => "narrow no-break space",
        '\u{2009}' => "thin space",
        '\u{200A}' => "hair space",
        '\u{2002}' | '\u{2003}' => "wide space",
        '\u{3000}' => "ideographic space",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero width no-break space",
        '\u{00AD}' => "soft hyphen",
        '\u{2018}' | '\u{2019}' => "curly apostrophe",
        '\u{201C}' | '\u{201D}' => "curly quote",
        '\u{2010}' | '\u{2011}' => "Unicode hyphen",
        '\u{2013}' => "en dash",
        '\u{2014}' => "em dash",
        '\u{2212}' => "minus sign",
        c if c.is_ascii() => return format!("{c:?}"),
        _ => "character",
    };
    format!("U+{:04X} ({name})", u32::from(c))
}

/// Characters that take no room on screen.
fn zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
    )
}

/// `name` with what cannot be seen folded away: zero-width characters
/// dropped; special spaces, quotes, dashes and full-width forms made plain;
/// letters decomposed.
fn fold_name(name: &str) -> String {
    fold(name, Level::Typography)
        .chars()
        .filter(|&c| !zero_width(c))
        .collect()
}

/// The first character where `asked` and `found`, equal once folded, differ.
fn unseen(asked: &str, found: &str) -> Unseen {
    let (asked, found): (String, String) = (asked.nfc().collect(), found.nfc().collect());
    let mut a = asked.chars().peekable();
    let mut b = found.chars().peekable();
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (Some(x), Some(y)) if x == y => {
                a.next();
                b.next();
            }
            (x, Some(y)) if zero_width(y) && x.is_none_or(|x| !zero_width(x)) => {
                return Unseen {
                    found: Some(y),
                    asked: None,
                };
            }
            (Some(x), y) if zero_width(x) && y.is_none_or(|y| !zero_width(y)) => {
                return Unseen {
                    found: None,
                    asked: Some(x),
                };
            }
            (x, y) if x.is_some() || y.is_some() => return Unseen { found: y, asked: x },
            _ => {
                return Unseen {
                    found: None,
                    asked: None,
                };
            }
        }
    }
}

/// The invisible or look-alike characters of `name` that `asked` lacks,
/// spelled out for a suggestion, or `None` when it has none.
fn unseen_in(name: &str, asked: &str) -> Option<String> {
    let special = |c: char| !c.is_ascii() && fold_name(&c.to_string()) != c.to_string();
    let mut odd: Vec<String> = Vec::new();
    for c in name.chars().filter(|&c| special(c) && !asked.contains(c)) {
        let text = spelled(c);
        if !odd.contains(&text) {
            odd.push(text);
        }
    }
    (!odd.is_empty()).then(|| format!("it has {}", odd.join(", ")))
}

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
    /// A name in the path differs from the one on disk only invisibly.
    Unseen(Unseen),
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
            Repair::Unseen(unseen) => unseen.fmt(f),
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

/// What a path is looked up for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// A file that must be there: a name missing from its directory is
    /// matched against the directory's entries (a listing), to find the
    /// one that differs from it only invisibly.
    Existing,
    /// A file a change may create: its spellings are tried by name alone,
    /// so a new file costs the same in a directory of any size. A file
    /// there under a spelling only a listing would find is not looked for:
    /// the new name is created beside it.
    MayCreate,
}

/// The one existing spelling of `path` that differs invisibly; `None` when
/// there is none. Two or more are refused by name, never guessed.
pub fn find<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
) -> Result<Option<Found>, ToolError> {
    find_for(config, fs, path, Lookup::Existing)
}

/// [`find`] for `lookup`.
fn find_for<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
    lookup: Lookup,
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
        0 => match resolve_arg(config, path) {
            Ok(rel) if lookup == Lookup::Existing => find_unseen(fs, &rel),
            _ => Ok(None),
        },
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

/// `rel` found component by component, each missing name matched in its
/// directory to the one name that differs from it only invisibly; several
/// such names are listed, never guessed.
fn find_unseen<F: HostFs + ?Sized>(fs: &F, rel: &str) -> Result<Option<Found>, ToolError> {
    let mut resolved = String::new();
    let mut difference = None;
    for part in rel.split('/') {
        let joined = |name: &str| {
            if resolved.is_empty() {
                name.to_owned()
            } else {
                format!("{resolved}/{name}")
            }
        };
        if fs.stat(&joined(part)).is_ok() {
            resolved = joined(part);
            continue;
        }
        let dir = if resolved.is_empty() {
            "."
        } else {
            resolved.as_str()
        };
        let Ok(entries) = fs.list_dir(dir) else {
            return Ok(None);
        };
        let want = fold_name(part);
        let matches: Vec<String> = entries
            .into_iter()
            .filter(|entry| fold_name(&entry.name) == want)
            .map(|entry| entry.name)
            .collect();
        match matches.as_slice() {
            [] => return Ok(None),
            [one] => {
                difference.get_or_insert(unseen(part, one));
                resolved = joined(one);
            }
            many => {
                return Err(ToolError::AmbiguousPath {
                    path: rel.to_owned(),
                    candidates: many
                        .iter()
                        .map(|name| format!("{} ({})", joined(name), unseen(part, name)))
                        .collect(),
                });
            }
        }
    }
    let (Some(unseen), Ok(meta)) = (difference, fs.stat(&resolved)) else {
        return Ok(None);
    };
    Ok(Some(Found {
        rel: resolved,
        meta,
        repair: Repair::Unseen(unseen),
    }))
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
    locate_for(config, fs, raw, remembered, Lookup::Existing)
}

/// [`locate`] for `lookup`: a change that may create the file looks for
/// other spellings by name alone (see [`Lookup::MayCreate`]).
pub(crate) fn locate_for<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    raw: &str,
    remembered: &BTreeMap<String, String>,
    lookup: Lookup,
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
    match find_for(config, fs, &cleaned, lookup)? {
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

/// Where `path` leads, repaired, with its metadata; "not found" (with
/// suggestions) when nothing is there under any spelling tried.
pub(crate) fn existing<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
    remembered: &BTreeMap<String, String>,
) -> Result<(Target, Metadata), ToolError> {
    let target = locate(config, fs, path, remembered)?;
    match &target.stat {
        Ok(meta) => {
            let meta = *meta;
            Ok((target, meta))
        }
        Err(FsError::NotFound) => Err(not_found(config, fs, path, &target.asked)),
        Err(err) => Err(ToolError::from_fs(path, err.clone())),
    }
}

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
                        let mut full = if dir == "." {
                            entry.name.clone()
                        } else {
                            format!("{dir}/{}", entry.name)
                        };
                        if let Some(odd) = unseen_in(&entry.name, name) {
                            full = format!("{full} ({odd})");
                        }
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
pub(crate) fn distance(a: &str, b: &str) -> usize {
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
    use crate::fs::memory::MemFs;

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
    fn a_screenshot_in_a_directory_spelled_with_am_is_repaired() {
        // The directory's name has a plain space before AM; the file's, U+202F.
        let fs = MemFs::new();
        let dir = "Shots 10.04 AM";
        fs.add_file(&format!("{dir}/Screenshot 1.02\u{202F}PM.png"), b"x");
        let found = find(
            &Config::default(),
            &fs,
            "Shots 10.04 AM/Screenshot 1.02 PM.png",
        )
        .unwrap()
        .unwrap();
        assert_eq!(found.rel, format!("{dir}/Screenshot 1.02\u{202F}PM.png"));
        assert_eq!(
            found.repair.to_string(),
            "the name has U+202F (narrow no-break space) where the path has a plain space"
        );
    }

    #[test]
    fn invisible_characters_are_found_and_named() {
        let fs = MemFs::new();
        fs.add_file("weird\u{200B}name.png", b"x");
        let found = find(&Config::default(), &fs, "weirdname.png")
            .unwrap()
            .unwrap();
        assert_eq!(found.rel, "weird\u{200B}name.png");
        assert_eq!(
            found.repair.to_string(),
            "the name has an invisible U+200B (zero width space)"
        );
        // A typo as well: only suggested, with the invisible part named.
        let err = not_found(&Config::default(), &fs, "weirdnme.png", "weirdnme.png");
        let ToolError::NotFound { suggestions, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(
            suggestions,
            &vec!["weird\u{200B}name.png (it has U+200B (zero width space))".to_owned()]
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
