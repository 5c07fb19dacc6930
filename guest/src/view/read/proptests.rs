//! Invariants of `read`, as properties (SPEC §8): following the hints pages
//! any text back exactly; no answer exceeds the budget; every cut falls on a
//! grapheme boundary.

use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation as _;

use super::testutil::{range, window};
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::memory::MemFs;

/// Text with short and long lines, multi-byte and combining characters, and
/// CRLF; no `[` so that notices cannot be confused with content.
fn text_strategy() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-z ]{0,12}",
        1 => "[é€😀\u{301}\t]{1,4}",
        1 => Just("x".repeat(70)),
        2 => Just("\n".to_owned()),
        1 => Just("\r\n".to_owned()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

fn config_strategy() -> impl Strategy<Value = Config> {
    (
        1u64..6,
        3u64..40,
        130u64..400,
        prop::sample::select(vec![1u32, 3, 7, 64, 4096]),
    )
        .prop_map(
            |(max_lines, max_line_chars, max_output_tokens, chunk_bytes)| Config {
                max_lines,
                max_line_chars,
                max_output_tokens,
                chunk_bytes,
                ..Config::default()
            },
        )
}

/// Splits a shown line `N\ttext[ marker]` into its number and text.
fn parse_line(line: &str) -> (u64, &str) {
    let (number, rest) = line.split_once('\t').expect("gutter");
    let rest = match rest.rfind(" [… ") {
        Some(at) if rest.ends_with(']') => &rest[..at],
        _ => rest,
    };
    (number.trim().parse().expect("line number"), rest)
}

fn shown_lines(result: &ToolResult) -> Vec<(u64, String)> {
    result
        .text()
        .lines()
        .filter(|l| !l.starts_with('['))
        .map(|l| {
            let (n, t) = parse_line(l);
            (n, t.to_owned())
        })
        .collect()
}

/// Pages through `content` following only the hints in results' metadata.
fn page_back(content: &str, config: &Config) -> Result<String, TestCaseError> {
    let fs = MemFs::new();
    fs.add_file("f.txt", content.as_bytes());
    let mut lines: Vec<String> = Vec::new();
    let mut offset = 1;
    for _ in 0..10_000 {
        let mut args = range(Some(offset), None);
        args.file_path = "f.txt".into();
        let result = crate::view::by_kind::read(config, &fs, &args);
        prop_assert!(!result.is_error);
        prop_assert!(result.text().len() as u64 <= config.budget_bytes());
        for (number, text) in shown_lines(&result) {
            prop_assert_eq!(number, lines.len() as u64 + 1);
            let mut full = text;
            // A cut line: follow its windows to the end of the line.
            let mut char_offset = full.chars().count() as u64 + 1;
            let cut = result.metadata["lines_cut"].as_u64().unwrap_or(0) > 0;
            while cut && char_offset > 0 {
                let mut w = window(number, char_offset);
                w.file_path = "f.txt".into();
                let part = crate::view::by_kind::read(config, &fs, &w);
                prop_assert!(part.text().len() as u64 <= config.budget_bytes());
                if part.metadata["lines_shown"] == 0 {
                    break;
                }
                let shown = shown_lines(&part);
                prop_assert_eq!(shown.len(), 1);
                full.push_str(&shown[0].1);
                char_offset = part.metadata["next_char_offset"].as_u64().unwrap_or(0);
                if part.metadata["next_char_offset"].is_null()
                    || part.metadata["next_offset"].as_u64() != Some(number)
                {
                    break;
                }
            }
            lines.push(full);
        }
        match result.metadata["next_offset"].as_u64() {
            Some(next) if result.metadata["lines_shown"] != 0 => offset = next,
            _ => return Ok(lines.iter().flat_map(|l| [l.as_str(), "\n"]).collect()),
        }
    }
    Err(TestCaseError::fail("paging did not end"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn following_the_hints_pages_any_text_back_exactly(
        content in text_strategy(),
        config in config_strategy(),
    ) {
        let paged = page_back(&content, &config)?;
        let mut expected: String = content.replace("\r\n", "\n");
        if !expected.is_empty() && !expected.ends_with('\n') {
            expected.push('\n');
        }
        prop_assert_eq!(paged, expected);
    }

    #[test]
    fn skipping_and_counting_agree_with_the_text_at_any_chunk_size(
        content in text_strategy(),
        config in config_strategy(),
        offset in 1u64..30,
    ) {
        let fs = MemFs::new();
        fs.add_file("f.txt", content.as_bytes());
        let mut args = range(Some(offset), Some(1));
        args.file_path = "f.txt".into();
        let result = crate::view::by_kind::read(&config, &fs, &args);
        let lines = content.split_inclusive('\n').count() as u64;
        let total = result.metadata["total_lines"].as_u64();
        prop_assert!(total.is_none() || total == Some(lines), "{:?} lines, {}", total, result.text());
        if offset <= lines {
            let expected = crate::text::textfile::LineEnding::of(&content);
            prop_assert_eq!(&result.metadata["line_ending"], &serde_json::to_value(expected).expect("json"));
        }
    }

    #[test]
    fn cuts_never_split_a_grapheme(
        content in text_strategy(),
        config in config_strategy(),
    ) {
        let fs = MemFs::new();
        fs.add_file("f.txt", content.as_bytes());
        let mut args = range(None, None);
        args.file_path = "f.txt".into();
        let result = crate::view::by_kind::read(&config, &fs, &args);
        let normalized = content.replace("\r\n", "\n");
        let originals: Vec<&str> = normalized.split('\n').collect();
        for (number, shown) in shown_lines(&result) {
            let original = originals[(number - 1) as usize];
            prop_assert!(original.starts_with(&shown));
            let boundaries: Vec<usize> = original.grapheme_indices(true).map(|(i, _)| i).chain([original.len()]).collect();
            // Only a first cluster longer than the whole cap is cut inside
            // (at a char boundary), so that paging still moves forward.
            let inside_first = boundaries.len() > 1 && shown.len() < boundaries[1];
            prop_assert!(boundaries.contains(&shown.len()) || inside_first, "cut inside a grapheme: {:?} of {:?}", shown, original);
        }
    }
}
