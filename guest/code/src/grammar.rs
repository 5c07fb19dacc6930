//! Which grammars this build holds: each can be left out by its `lang-*`
//! feature, and a language without its grammar gets a head-and-tail view.

use filetools_code_types::Grammar;

/// Whether this build has the grammar of `grammar`.
pub fn built(grammar: Grammar) -> bool {
    match grammar {
        Grammar::Rust => cfg!(feature = "lang-rust"),
        Grammar::Python => cfg!(feature = "lang-python"),
        Grammar::JavaScript => cfg!(feature = "lang-javascript"),
        Grammar::TypeScript | Grammar::Tsx => cfg!(feature = "lang-typescript"),
        Grammar::Go => cfg!(feature = "lang-go"),
        Grammar::Java => cfg!(feature = "lang-java"),
        Grammar::C => cfg!(feature = "lang-c"),
        Grammar::Cpp => cfg!(feature = "lang-cpp"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_grammar_parses() {
        for grammar in Grammar::ALL {
            assert_eq!(
                crate::grammar(grammar).is_some(),
                built(grammar),
                "{grammar:?}"
            );
        }
    }
}
