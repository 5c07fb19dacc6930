//! A small flag parser: `--name value` pairs, `--switch`es and positionals.

use anyhow::{Context as _, Result, bail};

/// Parsed command-line words.
#[derive(Debug, Default)]
pub struct Args {
    values: Vec<(String, String)>,
    switches: Vec<String>,
    pub positionals: Vec<String>,
}

impl Args {
    /// Splits `argv`; `value_flags` take a value, `switches` do not.
    pub fn parse(argv: Vec<String>, value_flags: &[&str], switches: &[&str]) -> Result<Self> {
        let mut args = Args::default();
        let mut words = argv.into_iter();
        while let Some(word) = words.next() {
            if let Some(name) = word.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                    None => (name.to_owned(), None),
                };
                if value_flags.contains(&name.as_str()) {
                    let value = match inline {
                        Some(v) => v,
                        None => words
                            .next()
                            .with_context(|| format!("--{name} needs a value"))?,
                    };
                    args.values.push((name, value));
                } else if switches.contains(&name.as_str()) && inline.is_none() {
                    args.switches.push(name);
                } else {
                    bail!("unknown flag --{name}");
                }
            } else {
                args.positionals.push(word);
            }
        }
        Ok(args)
    }

    /// The last value of `--name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `--name` as a number.
    pub fn number(&self, name: &str) -> Result<Option<u64>> {
        self.value(name)
            .map(|v| {
                v.parse::<u64>()
                    .with_context(|| format!("--{name} must be a whole number, got {v:?}"))
            })
            .transpose()
    }

    /// Whether `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}
