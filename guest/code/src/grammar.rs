//! [`Grammar`]: the languages parsed here, named as the component's
//! interface names them.

/// A language with a tree-sitter grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
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
}

impl Grammar {
    /// Every grammar.
    pub const ALL: [Self; 9] = [
        Self::Rust,
        Self::Python,
        Self::JavaScript,
        Self::TypeScript,
        Self::Tsx,
        Self::Go,
        Self::Java,
        Self::C,
        Self::Cpp,
    ];

    /// Its name in the interface: `rust`, `python`, `javascript`,
    /// `typescript`, `tsx`, `go`, `java`, `c` or `cpp`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Python => "python",
            Self::JavaScript => "javascript",
            Self::TypeScript => "typescript",
            Self::Tsx => "tsx",
            Self::Go => "go",
            Self::Java => "java",
            Self::C => "c",
            Self::Cpp => "cpp",
        }
    }

    /// The grammar named `name`.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|grammar| grammar.name() == name)
    }

    /// Whether this build has the grammar.
    pub fn built(self) -> bool {
        match self {
            Self::Rust => cfg!(feature = "lang-rust"),
            Self::Python => cfg!(feature = "lang-python"),
            Self::JavaScript => cfg!(feature = "lang-javascript"),
            Self::TypeScript | Self::Tsx => cfg!(feature = "lang-typescript"),
            Self::Go => cfg!(feature = "lang-go"),
            Self::Java => cfg!(feature = "lang-java"),
            Self::C => cfg!(feature = "lang-c"),
            Self::Cpp => cfg!(feature = "lang-cpp"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_go_both_ways_and_every_built_grammar_parses() {
        for grammar in Grammar::ALL {
            assert_eq!(Grammar::named(grammar.name()), Some(grammar));
            assert_eq!(crate::grammar(grammar).is_some(), grammar.built());
        }
        assert_eq!(Grammar::named("markdown"), None);
    }
}
