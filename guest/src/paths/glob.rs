//! Glob patterns over `/`-separated relative paths, as the MCP filesystem
//! tools take them: `*` and `?` within one name, `**` for any number of
//! directories, `[abc]`, `[a-z]` and `[!x]` for one character, `{a,b}` for
//! alternatives. Dot files match like any other.
//!
//! ```
//! use filetools_core::paths::glob::Glob;
//! let glob = Glob::new("**/*.{rs,toml}");
//! assert!(glob.matches("Cargo.toml"));
//! assert!(glob.matches("src/deep/lib.rs"));
//! assert!(!Glob::new("*.rs").matches("src/lib.rs"));
//! ```

/// Alternatives a pattern's braces may expand to.
const MAX_EXPANSIONS: usize = 64;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Glob {
    /// Each alternative, split into names.
    alternatives: Vec<Vec<String>>,
}

impl Glob {
    /// The pattern `pattern`.
    pub fn new(pattern: &str) -> Self {
        let alternatives = expand(pattern)
            .into_iter()
            .map(|alt| {
                alt.split('/')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .collect();
        Self { alternatives }
    }

    /// A pattern that also matches `pattern` at any depth and everything
    /// under what it matches: how exclusions are read (`node_modules`
    /// excludes every such directory and its content).
    pub fn excluding(pattern: &str) -> Self {
        let mut glob = Self::new(pattern);
        let deep = Self::new(&format!("**/{pattern}/**"));
        glob.alternatives.extend(deep.alternatives);
        let anywhere = Self::new(&format!("**/{pattern}"));
        glob.alternatives.extend(anywhere.alternatives);
        glob
    }

    /// Whether the relative path `path` matches.
    pub fn matches(&self, path: &str) -> bool {
        let names: Vec<&str> = path
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        self.alternatives
            .iter()
            .any(|parts| match_parts(parts, &names))
    }
}

/// `pattern` with its braces expanded.
fn expand(pattern: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut pending = vec![pattern.to_owned()];
    while let Some(next) = pending.pop() {
        if done.len() + pending.len() >= MAX_EXPANSIONS {
            done.push(next);
            continue;
        }
        let Some(open) = next.find('{') else {
            done.push(next);
            continue;
        };
        let mut depth = 0;
        let mut close = None;
        let mut commas = Vec::new();
        for (at, c) in next[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + at);
                        break;
                    }
                }
                ',' if depth == 1 => commas.push(open + at),
                _ => {}
            }
        }
        let Some(close) = close.filter(|_| !commas.is_empty()) else {
            done.push(next);
            continue;
        };
        let mut cuts = vec![open];
        cuts.extend(commas);
        cuts.push(close);
        for pair in cuts.windows(2) {
            pending.push(format!(
                "{}{}{}",
                &next[..open],
                &next[pair[0] + 1..pair[1]],
                &next[close + 1..]
            ));
        }
    }
    done.reverse();
    done
}

/// Whether `names` match `parts`, by a table over (part, name) positions,
/// so a pattern of many `**` costs parts × names², never exponential time.
fn match_parts(parts: &[String], names: &[&str]) -> bool {
    // `fits[n]`: the parts from `p` on match the names from `n` on.
    let mut fits = vec![false; names.len() + 1];
    fits[names.len()] = true;
    for part in parts.iter().rev() {
        let mut next = vec![false; names.len() + 1];
        for n in (0..=names.len()).rev() {
            next[n] = if part == "**" {
                // Zero names, or one more name under the same `**`.
                fits[n] || (n < names.len() && next[n + 1])
            } else {
                n < names.len() && match_name(part, names[n]) && fits[n + 1]
            };
        }
        fits = next;
    }
    fits[0]
}

/// Whether one name matches one pattern part.
fn match_name(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_chars(&p, &n)
}

fn match_chars(p: &[char], n: &[char]) -> bool {
    // Iterative matching with one backtrack point for the last `*`.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ni));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                '[' => {
                    if let Some((matched, len)) = class(&p[pi..], n[ni])
                        && matched
                    {
                        pi += len;
                        ni += 1;
                        continue;
                    }
                }
                c if c == n[ni] => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, sn)) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Whether `c` is in the class at the start of `p` (`[...]`), and the
/// class's length; `None` when `p` holds no closed class.
fn class(p: &[char], c: char) -> Option<(bool, usize)> {
    let close = p.iter().skip(2).position(|&x| x == ']')? + 2;
    let body = &p[1..close];
    let (negated, body) = match body.first() {
        Some('!' | '^') => (true, &body[1..]),
        _ => (false, body),
    };
    let mut hit = false;
    let mut i = 0;
    while i < body.len() {
        if i + 2 < body.len() && body[i + 1] == '-' {
            hit |= (body[i]..=body[i + 2]).contains(&c);
            i += 3;
        } else {
            hit |= body[i] == c;
            i += 1;
        }
    }
    Some((hit != negated, close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_stay_within_one_name_and_double_stars_cross_directories() {
        assert!(Glob::new("*.js").matches("a.js"));
        assert!(!Glob::new("*.js").matches("src/a.js"));
        assert!(Glob::new("src/**").matches("src/a/b.js"));
        assert!(Glob::new("**/b.js").matches("b.js"));
        assert!(Glob::new("a?c").matches("abc"));
        assert!(Glob::new("[a-c]x").matches("bx"));
        assert!(!Glob::new("[!a-c]x").matches("bx"));
        assert!(Glob::new(".*").matches(".env"));
    }

    #[test]
    fn exclusions_match_at_any_depth_with_everything_under_them() {
        let glob = Glob::excluding("node_modules");
        assert!(glob.matches("node_modules"));
        assert!(glob.matches("web/node_modules/x/y.js"));
        assert!(!glob.matches("src/main.js"));
    }

    #[test]
    fn many_double_stars_take_no_exponential_time() {
        let pattern = format!("{}x", "**/a/".repeat(12));
        let path = vec!["a"; 60].join("/");
        assert!(!Glob::new(&pattern).matches(&path));
        assert!(Glob::new(&pattern).matches(&format!("{path}/x")));
    }

    #[test]
    fn braces_give_alternatives() {
        let glob = Glob::new("*.{md,txt}");
        assert!(glob.matches("a.md") && glob.matches("b.txt") && !glob.matches("c.rs"));
    }
}
