//! Which outline a file gets, by its name (and a script's `#!` line).

use filetools_code_types::Grammar;

/// A language or format with an outline, or [`Language::Plain`] for text
/// without structure (logs, CSV, lockfiles), which gets its head and tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Rust.
    Rust,
    /// Python.
    Python,
    /// JavaScript (and JSX).
    JavaScript,
    /// TypeScript.
    TypeScript,
    /// TypeScript with JSX.
    Tsx,
    /// Go.
    Go,
    /// Java.
    Java,
    /// C.
    C,
    /// C++.
    Cpp,
    /// Markdown: headings.
    Markdown,
    /// JSON: keys.
    Json,
    /// YAML: keys.
    Yaml,
    /// TOML: tables and keys.
    Toml,
    /// No structure worth outlining.
    Plain,
}

/// Lockfiles are generated lists: head and tail say more than their keys.
const LOCKFILES: [&str; 7] = [
    "cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "composer.lock",
];

impl Language {
    /// The outline `path` gets; `head` (the file's first bytes) settles
    /// scripts without an extension.
    pub fn detect(path: &str, head: &[u8]) -> Self {
        let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
        let extension = name.rsplit_once('.').map_or("", |(_, ext)| ext);
        if LOCKFILES.contains(&name.as_str()) || extension == "lock" {
            return Self::Plain;
        }
        match extension {
            "rs" => Self::Rust,
            "py" | "pyi" | "pyw" => Self::Python,
            "js" | "mjs" | "cjs" | "jsx" => Self::JavaScript,
            "ts" | "mts" | "cts" => Self::TypeScript,
            "tsx" => Self::Tsx,
            "go" => Self::Go,
            "java" => Self::Java,
            "h" if looks_like_cpp(head) => Self::Cpp,
            "c" | "h" => Self::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" => {
                Self::Cpp
            }
            "md" | "markdown" | "mdx" => Self::Markdown,
            "json" | "jsonc" | "json5" | "geojson" | "webmanifest" => Self::Json,
            "yaml" | "yml" => Self::Yaml,
            "toml" => Self::Toml,
            "" => Self::of_shebang(head),
            _ => Self::Plain,
        }
    }

    fn of_shebang(head: &[u8]) -> Self {
        let Some(line) = head.strip_prefix(b"#!") else {
            return Self::Plain;
        };
        let end = memchr::memchr(b'\n', line).unwrap_or(line.len());
        let line = String::from_utf8_lossy(&line[..end]);
        if line.contains("python") {
            Self::Python
        } else if line.contains("node") || line.contains("deno") || line.contains("bun") {
            Self::JavaScript
        } else {
            Self::Plain
        }
    }

    /// The grammar of a language of code, whether or not this build has it.
    pub fn grammar(self) -> Option<Grammar> {
        Some(match self {
            Self::Rust => Grammar::Rust,
            Self::Python => Grammar::Python,
            Self::JavaScript => Grammar::JavaScript,
            Self::TypeScript => Grammar::TypeScript,
            Self::Tsx => Grammar::Tsx,
            Self::Go => Grammar::Go,
            Self::Java => Grammar::Java,
            Self::C => Grammar::C,
            Self::Cpp => Grammar::Cpp,
            Self::Markdown | Self::Json | Self::Yaml | Self::Toml | Self::Plain => return None,
        })
    }

    /// The language's name in answers and metadata: a language of code is
    /// named as its grammar is.
    pub fn name(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Json => "json",
            Self::Yaml => "yaml",
            Self::Toml => "toml",
            Self::Plain => "plain",
            code => code.grammar().map_or("plain", Grammar::name),
        }
    }
}

/// A `.h` header written in C++: a class, namespace or template near its top.
fn looks_like_cpp(head: &[u8]) -> bool {
    let head = String::from_utf8_lossy(head);
    head.lines().any(|line| {
        let line = line.trim_start();
        ["class ", "namespace ", "template <", "template<"]
            .iter()
            .any(|marker| line.starts_with(marker))
    })
}
