//! Lines of ignore patterns, as git reads a `.gitignore` (and ripgrep an
//! `.ignore`), matched against paths handed over as text relative to the
//! directory the lines belong to: no path is parsed to decide.
//!
//! A line is a comment after `#`, loses its unescaped trailing spaces, is
//! a negation after `!` (`\#` and `\!` stand for the characters), applies
//! to directories only when it ends in `/`, and is anchored to its
//! directory when a `/` starts or divides it; otherwise it matches a name
//! at any depth. `dir/**` matches what is inside `dir`, not `dir`. `*`,
//! `?` and classes never match a `/`. The last line that matches decides.
//!
//! ```
//! use filetools_core::paths::walk::patterns::Patterns;
//! let lines = ["target/", "*.log", "!keep.log", "/top.txt"];
//! let patterns = Patterns::new(lines.iter().map(|line| (None, *line)), true).unwrap();
//! assert!(patterns.matched("a/target", true).is_some_and(|rule| !rule.keep));
//! assert!(patterns.matched("a/target", false).is_none());
//! assert!(patterns.matched("x/keep.log", false).is_some_and(|rule| rule.keep));
//! assert!(patterns.matched("x/top.txt", false).is_none());
//! ```

use std::cell::RefCell;

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

/// One line that is a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The line as written (trailing spaces dropped).
    pub original: String,
    /// The file it came from, root-relative; none for the host's own.
    pub from: Option<String>,
    /// A negation: what it matches is kept.
    pub keep: bool,
    /// It matches directories only.
    pub dir_only: bool,
}

/// The rules of one set of lines.
#[derive(Debug, Clone)]
pub struct Patterns {
    set: GlobSet,
    rules: Vec<Rule>,
    /// The indices of the last match, kept to spare an allocation a path.
    hits: RefCell<Vec<usize>>,
}

/// A line that does not parse as a glob: the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine(pub String);

impl Patterns {
    /// The rules of `lines` (each with the file it came from). A line that
    /// is not a valid glob fails the whole when `strict`, and is left out
    /// otherwise, as git leaves it out. An unclosed `[` is a literal
    /// unless `strict`.
    pub fn new<'a>(
        lines: impl IntoIterator<Item = (Option<&'a str>, &'a str)>,
        strict: bool,
    ) -> Result<Self, BadLine> {
        let mut builder = GlobSetBuilder::new();
        let mut rules = Vec::new();
        for (from, line) in lines {
            let Some((rule, glob)) = parse(from, line) else {
                continue;
            };
            let built = GlobBuilder::new(&glob)
                .literal_separator(true)
                .backslash_escape(true)
                .allow_unclosed_class(!strict)
                .build();
            match built {
                Ok(glob) => {
                    builder.add(glob);
                    rules.push(rule);
                }
                Err(err) if strict => {
                    return Err(BadLine(format!(
                        "error parsing glob '{}': {}",
                        rule.original,
                        err.kind()
                    )));
                }
                Err(_) => {}
            }
        }
        let set = builder.build().map_err(|err| BadLine(err.to_string()))?;
        Ok(Self {
            set,
            rules,
            hits: RefCell::default(),
        })
    }

    /// Whether no line is a rule.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Rules that are not negations.
    #[must_use]
    pub fn ignores(&self) -> usize {
        self.rules.iter().filter(|rule| !rule.keep).count()
    }

    /// The rule that decides for `rel` (relative to the lines' directory; a
    /// directory when `is_dir`): the last that matches it.
    #[must_use]
    pub fn matched(&self, rel: &str, is_dir: bool) -> Option<&Rule> {
        if self.rules.is_empty() {
            return None;
        }
        let mut hits = self.hits.borrow_mut();
        self.set
            .matches_candidate_into(&Candidate::from_bytes(rel.as_bytes()), &mut hits);
        hits.iter()
            .rev()
            .map(|&at| &self.rules[at])
            .find(|rule| is_dir || !rule.dir_only)
    }
}

/// The rule a line makes and the glob it matches by; none for a blank
/// line, a comment, or a marker with nothing after it.
fn parse(from: Option<&str>, line: &str) -> Option<(Rule, String)> {
    if line.starts_with('#') {
        return None;
    }
    let line = without_trailing_spaces(line);
    if line.is_empty() {
        return None;
    }
    let mut rule = Rule {
        original: line.to_owned(),
        from: from.map(str::to_owned),
        keep: false,
        dir_only: false,
    };
    let mut rest = line;
    let mut anchored = false;
    if rest.starts_with("\\!") || rest.starts_with("\\#") {
        // The escaped character starts the pattern.
        rest = &rest[1..];
    } else {
        if let Some(negated) = rest.strip_prefix('!') {
            rule.keep = true;
            rest = negated;
        }
        if let Some(below) = rest.strip_prefix('/') {
            rest = below;
            anchored = true;
        }
    }
    if rest.is_empty() {
        return None;
    }
    if let Some(dir) = rest.strip_suffix('/') {
        rule.dir_only = true;
        rest = dir.strip_suffix('\\').unwrap_or(dir);
    }
    let mut glob = if anchored || rest.contains('/') || rest.starts_with("**/") {
        rest.to_owned()
    } else {
        format!("**/{rest}")
    };
    if glob.ends_with("/**") {
        glob.push_str("/*");
    }
    Some((rule, glob))
}

/// `line` without its trailing spaces, but for one a backslash escapes.
fn without_trailing_spaces(line: &str) -> &str {
    let mut end = line.len();
    while line[..end].ends_with(' ') {
        if line[..end - 1].ends_with('\\') {
            break;
        }
        end -= 1;
    }
    &line[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(lines: &[&str]) -> Patterns {
        Patterns::new(lines.iter().map(|line| (Some(".gitignore"), *line)), false).unwrap()
    }

    fn says(patterns: &Patterns, rel: &str, is_dir: bool) -> Option<bool> {
        patterns.matched(rel, is_dir).map(|rule| !rule.keep)
    }

    #[test]
    fn a_name_matches_at_any_depth_and_a_slash_anchors() {
        let p = patterns(&["*.o", "/root.txt", "docs/*.md", "**/gen", "out/**"]);
        assert_eq!(says(&p, "a/b/c.o", false), Some(true));
        assert_eq!(says(&p, "root.txt", false), Some(true));
        assert_eq!(says(&p, "a/root.txt", false), None);
        assert_eq!(says(&p, "docs/x.md", false), Some(true));
        assert_eq!(says(&p, "docs/sub/x.md", false), None);
        assert_eq!(says(&p, "a/docs/x.md", false), None);
        assert_eq!(says(&p, "x/y/gen", true), Some(true));
        assert_eq!(says(&p, "out", true), None);
        assert_eq!(says(&p, "out/a/b", false), Some(true));
    }

    #[test]
    fn the_last_matching_line_decides_and_a_directory_rule_skips_files() {
        let p = patterns(&["*.log", "!keep.log", "build/", "!build"]);
        assert_eq!(says(&p, "x.log", false), Some(true));
        assert_eq!(says(&p, "keep.log", false), Some(false));
        assert_eq!(says(&p, "build", true), Some(false));
        let p = patterns(&["!build", "build/"]);
        assert_eq!(says(&p, "build", true), Some(true));
        assert_eq!(says(&p, "build", false), Some(false));
    }

    #[test]
    fn comments_blanks_escapes_and_trailing_spaces_read_as_git_reads_them() {
        let p = patterns(&[
            "# note", "", "\\#hash", "\\!bang", "space\\ ", "trail   ", "!", "/",
        ]);
        assert_eq!(p.rules.len(), 4);
        assert_eq!(says(&p, "#hash", false), Some(true));
        assert_eq!(says(&p, "!bang", false), Some(true));
        assert_eq!(says(&p, "space ", false), Some(true));
        assert_eq!(says(&p, "trail", false), Some(true));
        assert_eq!(p.rules[3].original, "trail");
    }

    #[test]
    fn a_bad_line_is_left_out_unless_strict() {
        let lenient = patterns(&["{", "[abc", "*.rs"]);
        assert_eq!(says(&lenient, "[abc", false), Some(true));
        assert_eq!(says(&lenient, "a.rs", false), Some(true));
        let strict = Patterns::new([(None, "{")], true).unwrap_err();
        assert!(
            strict
                .0
                .starts_with("error parsing glob '{': unclosed alternate group"),
            "{strict:?}"
        );
    }
}
