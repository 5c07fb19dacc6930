//! Behaviour of `read` on text, one small case per rule (SPEC R1–R4, R6,
//! R10, R11). Every case runs at all chunk sizes of [`testutil::CHUNK_SIZES`].

use super::testutil::{range, read_all_chunks, window};
use crate::config::Config;
use crate::fs::host::FileKind;
use crate::fs::memory::MemFs;
use crate::view::read::args::ReadArgs;

fn text(content: &str, args: &ReadArgs) -> String {
    read_all_chunks(content.as_bytes(), args, &Config::default()).text()
}

/// One line per `n`, each made by `line` and ended with `\n`.
fn numbered_lines(range: impl Iterator<Item = u64>, line: impl Fn(u64) -> String) -> String {
    let mut out = String::new();
    for n in range {
        out.push_str(&line(n));
        out.push('\n');
    }
    out
}

fn small(max_lines: u64, max_line_chars: u64, max_output_tokens: u64) -> Config {
    Config {
        max_lines,
        max_line_chars,
        max_output_tokens,
        ..Config::default()
    }
}

#[test]
fn whole_small_file_is_numbered_and_ends_with_the_total() {
    assert_eq!(
        text("a\nb\n", &range(None, None)),
        "1\ta\n2\tb\n[lines 1-2 of 2; end of file]"
    );
}

#[test]
fn a_missing_final_newline_still_counts_the_line() {
    assert_eq!(
        text("a\nb", &range(None, None)),
        "1\ta\n2\tb\n[lines 1-2 of 2; end of file]"
    );
}

#[test]
fn gutter_numbers_are_not_padded() {
    let content = numbered_lines(1..=12, |n| format!("l{n}"));
    let out = text(&content, &range(Some(8), Some(3)));
    assert_eq!(
        out,
        "8\tl8\n9\tl9\n10\tl10\n[lines 8-10 of 12; continue with offset=11]"
    );
}

#[test]
fn empty_file_is_a_fact_not_an_error() {
    let result = read_all_chunks(b"", &range(None, None), &Config::default());
    assert!(!result.is_error);
    assert_eq!(result.text(), "[the file is empty]");
    assert_eq!(text("\u{FEFF}", &range(None, None)), "[the file is empty]");
}

#[test]
fn a_single_newline_is_one_empty_line() {
    assert_eq!(
        text("\n", &range(None, None)),
        "1\t\n[lines 1-1 of 1; end of file]"
    );
}

#[test]
fn offset_past_the_end_names_the_total() {
    let result = read_all_chunks(b"a\nb\nc\n", &range(Some(500), None), &Config::default());
    assert!(!result.is_error);
    assert_eq!(
        result.text(),
        "[the file has 3 lines; offset 500 is past the end; use an offset from 1 to 3]"
    );
    assert_eq!(
        text("a\nb\nc\n", &range(Some(4), None)),
        "[the file has 3 lines; offset 4 is past the end; use an offset from 1 to 3]"
    );
}

#[test]
fn line_limit_gives_the_exact_next_offset() {
    let content = numbered_lines(1..=10, |n| n.to_string());
    let config = small(4, 2000, 25_000);
    let result = read_all_chunks(content.as_bytes(), &range(None, None), &config);
    assert!(
        result
            .text()
            .ends_with("[lines 1-4 of 10; continue with offset=5]")
    );
    assert_eq!(result.metadata["next_offset"], 5);
    assert_eq!(result.metadata["total_lines"], 10);
}

#[test]
fn a_page_ending_exactly_at_the_end_of_the_file_says_so() {
    // The last shown line ends exactly where the file does: no "continue".
    let out = text("a\nb\n", &range(Some(1), Some(2)));
    assert_eq!(out, "1\ta\n2\tb\n[lines 1-2 of 2; end of file]");
}

#[test]
fn crlf_is_shown_as_lf_and_remembered() {
    let result = read_all_chunks(b"a\r\nb\r\n", &range(None, None), &Config::default());
    assert_eq!(result.text(), "1\ta\n2\tb\n[lines 1-2 of 2; end of file]");
    assert_eq!(result.metadata["line_ending"], "crlf");
    let mixed = read_all_chunks(b"a\r\nb\n", &range(None, None), &Config::default());
    assert_eq!(mixed.metadata["line_ending"], "mixed");
}

#[test]
fn a_lone_carriage_return_is_kept() {
    assert_eq!(
        text("a\rb\n", &range(None, None)),
        "1\ta\rb\n[lines 1-1 of 1; end of file]"
    );
}

#[test]
fn utf8_bom_is_dropped_and_remembered() {
    let result = read_all_chunks(
        "\u{FEFF}a\n".as_bytes(),
        &range(None, None),
        &Config::default(),
    );
    assert_eq!(result.text(), "1\ta\n[lines 1-1 of 1; end of file]");
    assert_eq!(result.metadata["bom"], true);
}

#[test]
fn utf16_with_bom_is_decoded_and_named() {
    let mut bytes = vec![0xFF, 0xFE];
    for unit in "héllo\r\nwörld\r\n".encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let result = read_all_chunks(&bytes, &range(None, None), &Config::default());
    assert_eq!(
        result.text(),
        "1\théllo\n2\twörld\n[lines 1-2 of 2; end of file]\n[decoded from UTF-16LE]"
    );
    assert_eq!(result.metadata["encoding"], "utf-16le");
    assert_eq!(result.metadata["line_ending"], "crlf");
}

#[test]
fn invalid_utf8_is_shown_lossily_and_marked() {
    // Mostly UTF-8: a bad byte in it is damage, not another encoding.
    let mut bytes = "naïve".as_bytes().to_vec();
    bytes.push(0xFF);
    bytes.extend_from_slice("café\n".as_bytes());
    let result = read_all_chunks(&bytes, &range(None, None), &Config::default());
    assert_eq!(
        result.text(),
        "1\tnaïve\u{FFFD}café\n[lines 1-1 of 1; end of file]\n[invalid UTF-8 bytes are shown as U+FFFD; if the file is in another encoding, read it with encoding=\"…\"]"
    );
    assert_eq!(result.metadata["lossy"], true);
}

#[test]
fn a_legacy_encoding_is_detected_and_said() {
    let result = read_all_chunks(
        b"caf\xe9 cr\xe8me\nline two\n",
        &range(None, None),
        &Config::default(),
    );
    assert_eq!(
        result.text(),
        "1\tcafé crème\n2\tline two\n[lines 1-2 of 2; end of file]\n[decoded from windows-1252, detected: the file is not UTF-8; edits and writes keep windows-1252]"
    );
    assert_eq!(result.metadata["encoding"], "windows-1252");
    assert_eq!(result.metadata["encoding_confidence"], "high");
}

#[test]
fn one_odd_byte_is_shown_as_a_guess_with_the_way_to_choose() {
    let result = read_all_chunks(b"a\xFFb\n", &range(None, None), &Config::default());
    assert!(
        result.text().starts_with("1\ta\u{FF}b\n"),
        "{}",
        result.text()
    );
    assert!(result.text().contains("a guess"), "{}", result.text());
    assert!(result.text().contains("encoding=\""), "{}", result.text());
    assert_eq!(result.metadata["encoding_confidence"], "low");
}

#[test]
fn tabs_are_kept_as_they_are() {
    assert_eq!(
        text("\tx\t\n", &range(None, None)),
        "1\t\tx\t\n[lines 1-1 of 1; end of file]"
    );
}

#[test]
fn a_long_line_is_cut_with_the_call_that_shows_the_rest() {
    let content = format!("short\n{}\nend\n", "x".repeat(30));
    let result = read_all_chunks(
        content.as_bytes(),
        &range(None, None),
        &small(2000, 10, 25_000),
    );
    assert_eq!(
        result.text(),
        "1\tshort\n2\txxxxxxxxxx [… 10 of 30 chars; rest: offset=2, char_offset=11]\n3\tend\n\
         [lines 1-3 of 3; end of file]\n\
         [1 line was cut at 10 chars; each marker gives the offset and char_offset that show the rest]"
    );
    assert_eq!(result.metadata["lines_cut"], 1);
    assert_eq!(result.metadata["truncated"], true);
}

#[test]
fn cuts_fall_on_grapheme_boundaries() {
    // "e" + combining acute is one grapheme: the cut moves before it.
    let content = "abcde\u{301}fgh\n";
    let result = read_all_chunks(
        content.as_bytes(),
        &range(None, None),
        &small(2000, 5, 25_000),
    );
    assert!(
        result
            .text()
            .starts_with("1\tabcd [… 4 of 9 chars; rest: offset=1, char_offset=5]"),
        "{}",
        result.text()
    );
}

#[test]
fn a_window_shows_part_of_a_long_line_and_continues_it() {
    let content = format!("{}\nnext\n", "0123456789".repeat(3));
    assert_eq!(
        text(&content, &window(1, 11)),
        "1\t01234567890123456789\n[line 1, chars 11-30 of 30; continue with offset=2]"
    );
    let last = text("abc", &window(1, 2));
    assert_eq!(last, "1\tbc\n[line 1, chars 2-3 of 3; end of file]");
}

#[test]
fn a_window_is_bounded_by_the_output_budget() {
    let content = "y".repeat(10_000);
    let config = small(2000, 100, 1000);
    let result = read_all_chunks(content.as_bytes(), &window(1, 1), &config);
    let out = result.text();
    let budget = config.budget_bytes() as usize;
    assert!(out.len() <= budget, "{} > {budget}", out.len());
    let next = result.metadata["next_char_offset"].as_u64().unwrap();
    assert!(next > 1000, "window too small: next {next}");
    assert!(out.ends_with(&format!(
        "of 10000; continue with offset=1, char_offset={next}]"
    )));
}

#[test]
fn a_window_past_the_end_of_its_line_says_so() {
    assert_eq!(
        text("abc\ndef\n", &window(1, 9)),
        "[line 1 has 3 chars; char_offset 9 is past its end; continue with offset=2]"
    );
    assert_eq!(
        text("abc\ndef\n", &window(9, 1)),
        "[the file has 2 lines; offset 9 is past the end; use an offset from 1 to 2]"
    );
}

#[test]
fn the_budget_stops_at_a_whole_line_with_the_next_offset() {
    let content = numbered_lines(0..400, |n| format!("{n:04} {}", "z".repeat(40)));
    let config = small(2000, 2000, 1000);
    let result = read_all_chunks(content.as_bytes(), &range(None, None), &config);
    let out = result.text();
    assert!(out.len() as u64 <= config.budget_bytes());
    let next = result.metadata["next_offset"].as_u64().unwrap();
    assert!(out.contains(&format!(
        "output budget of 1000 tokens reached; continue with offset={next}]"
    )));
    // Every shown line is whole.
    for line in out.lines().filter(|l| !l.starts_with('[')) {
        assert!(line.ends_with(&"z".repeat(40)), "{line}");
    }
}

#[test]
fn the_first_line_is_always_shown_even_when_huge() {
    let content = format!("{}\nb\n", "w".repeat(50_000));
    let config = small(2000, 100_000, 1000);
    let result = read_all_chunks(content.as_bytes(), &range(None, None), &config);
    let out = result.text();
    assert!(out.len() as u64 <= config.budget_bytes());
    assert!(out.starts_with("1\twww"), "{out}");
    assert_eq!(result.metadata["first_line"], 1);
    assert_eq!(result.metadata["lines_cut"], 1);
}

#[test]
fn counting_stops_at_the_scan_cap_and_says_more_than() {
    let content = numbered_lines(0..1000, |n| n.to_string());
    let config = Config {
        max_lines: 5,
        count_limit_bytes: 100,
        ..Config::default()
    };
    let result = read_all_chunks(content.as_bytes(), &range(None, None), &config);
    let out = result.text();
    assert!(out.ends_with("; continue with offset=6]"), "{out}");
    assert!(out.contains("of more than "), "{out}");
    assert!(result.metadata["total_lines"].is_null());
    assert!(result.metadata["total_lines_at_least"].as_u64().unwrap() >= 5);
}

#[test]
fn a_huge_line_past_the_scan_cap_is_still_explorable() {
    let content = "q".repeat(5000);
    let config = Config {
        max_line_chars: 10,
        count_limit_bytes: 100,
        ..Config::default()
    };
    let first = read_all_chunks(content.as_bytes(), &range(None, None), &config);
    assert!(
        first.text().contains("[… 10 of more than"),
        "{}",
        first.text()
    );
    let deep = read_all_chunks(content.as_bytes(), &window(1, 4990), &config);
    assert_eq!(
        deep.text(),
        "1\tqqqqqqqqqqq\n[line 1, chars 4990-5000 of 5000; end of file]"
    );
}

#[test]
fn special_files_are_refused_before_reading() {
    let fs = MemFs::new();
    fs.add_dir("src");
    fs.add_special("pipe", FileKind::Fifo);
    fs.add_special("zero", FileKind::CharDevice);
    let config = Config::default();
    for (path, expected) in [
        (
            "pipe",
            "Error: pipe is a FIFO (named pipe); reading it could block forever, so it is refused.",
        ),
        (
            "zero",
            "Error: zero is a character device; reading it could block forever, so it is refused.",
        ),
        (
            "nope.txt",
            "Error: nope.txt does not exist. Check the spelling; relative paths start at the workspace root.",
        ),
    ] {
        let args = ReadArgs {
            file_path: path.into(),
            ..ReadArgs::default()
        };
        let result = crate::view::by_kind::read(&config, &fs, &args);
        assert!(result.is_error, "{path}");
        assert_eq!(result.text(), expected);
    }
}

#[test]
fn absolute_paths_inside_the_root_work() {
    let fs = MemFs::new();
    fs.add_file("src/a.txt", b"x\n");
    let config = Config {
        root: "/work/p".into(),
        ..Config::default()
    };
    let args = ReadArgs {
        file_path: "/work/p/src/a.txt".into(),
        ..ReadArgs::default()
    };
    let result = crate::view::by_kind::read(&config, &fs, &args);
    assert_eq!(
        result.text(),
        "1\tx\n[lines 1-1 of 1; end of file]\n[version 5c86dd76b239dbde-2]"
    );
    assert_eq!(result.metadata["path"], "src/a.txt");
}

#[test]
fn bom_and_crlf_variants_show_the_same_text() {
    let base = "fn main() {\n    println!(\"hé\");\n}\n";
    let crlf = base.replace('\n', "\r\n");
    let variants = [
        base.as_bytes().to_vec(),
        crlf.as_bytes().to_vec(),
        [b"\xEF\xBB\xBF".as_slice(), base.as_bytes()].concat(),
        [b"\xEF\xBB\xBF".as_slice(), crlf.as_bytes()].concat(),
    ];
    let config = small(2, 5, 25_000);
    for args in [range(None, None), range(Some(2), Some(1)), window(2, 3)] {
        let expected = read_all_chunks(&variants[0], &args, &config).text();
        for variant in &variants[1..] {
            assert_eq!(read_all_chunks(variant, &args, &config).text(), expected);
        }
    }
}

/// An in-memory file system that records the `(offset, len)` of every read.
struct CountingFs {
    files: MemFs,
    reads: std::cell::RefCell<Vec<(u64, u32)>>,
}

impl CountingFs {
    fn with_file(content: &[u8]) -> Self {
        let files = MemFs::new();
        files.add_file("f.txt", content);
        Self {
            files,
            reads: std::cell::RefCell::default(),
        }
    }
}

impl crate::fs::host::HostFs for CountingFs {
    fn stat(&self, path: &str) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
        self.files.stat(path)
    }
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, crate::fs::host::FsError> {
        self.reads.borrow_mut().push((offset, len));
        self.files.read(path, offset, len)
    }
    fn list_dir(
        &self,
        path: &str,
    ) -> Result<Vec<crate::fs::host::DirEntry>, crate::fs::host::FsError> {
        self.files.list_dir(path)
    }
    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        pre: &crate::fs::host::Precondition,
    ) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
        self.files.write_file(path, data, pre)
    }
    fn remove_file(
        &self,
        path: &str,
        pre: &crate::fs::host::Precondition,
    ) -> Result<(), crate::fs::host::FsError> {
        self.files.remove_file(path, pre)
    }
    fn create_dir(&self, path: &str) -> Result<(), crate::fs::host::FsError> {
        self.files.create_dir(path)
    }
    fn rename(
        &self,
        source: &str,
        destination: &str,
        pre: &crate::fs::host::Precondition,
    ) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
        self.files.rename(source, destination, pre)
    }
}

/// Pages only: a file past the outline threshold would otherwise be read
/// for its outline.
fn paging() -> Config {
    Config {
        outline: false,
        ..Config::default()
    }
}

fn reads_of(content: &[u8]) -> (String, Vec<(u64, u32)>) {
    let fs = CountingFs::with_file(content);
    let args = ReadArgs {
        file_path: "f.txt".into(),
        ..ReadArgs::default()
    };
    let text = crate::view::by_kind::read(&paging(), &fs, &args).text();
    (text, fs.reads.into_inner())
}

#[test]
fn a_file_within_one_chunk_costs_one_host_read_the_sniff_reused_as_its_text() {
    let chunk = Config::default().chunk_bytes;
    let (text, reads) = reads_of(b"a\nb\n");
    assert_eq!(
        text,
        "1\ta\n2\tb\n[lines 1-2 of 2; end of file]\n[version b02de41d3964aa4c-4]"
    );
    assert_eq!(reads, [(0, chunk)]);
    // About 30 KB, more than is sniffed, less than a chunk.
    let content = numbered_lines(1..=1500, |n| format!("line {n:>12}"));
    assert!(
        content.len() > crate::view::sniff::SNIFF_BYTES as usize && content.len() < chunk as usize
    );
    let (text, reads) = reads_of(content.as_bytes());
    let version = crate::memory::version::Version::of(content.as_bytes());
    assert_eq!(
        text,
        read_all_chunks(content.as_bytes(), &range(None, None), &paging()).text()
            + &format!("\n[version {version}]")
    );
    assert_eq!(reads, [(0, chunk)]);
}

#[test]
fn a_larger_file_is_fetched_from_where_the_first_chunk_ended() {
    let chunk = Config::default().chunk_bytes;
    let content = numbered_lines(1..=1500, |n| format!("line {n:>60}"));
    assert!(content.len() > chunk as usize && content.len() < 2 * chunk as usize);
    let (text, reads) = reads_of(content.as_bytes());
    let version = crate::memory::version::Version::of(content.as_bytes());
    assert_eq!(
        text,
        read_all_chunks(content.as_bytes(), &range(None, None), &paging()).text()
            + &format!("\n[version {version}]")
    );
    assert_eq!(reads, [(0, chunk), (u64::from(chunk), chunk)]);
    // A file exactly one chunk long needs one more read to learn that it
    // ends there; what is only counted is asked for in bigger pieces.
    let exact = "x\n".repeat(chunk as usize / 2);
    let (_, reads) = reads_of(exact.as_bytes());
    assert_eq!(
        reads,
        [
            (0, chunk),
            (u64::from(chunk), chunk * super::cursor::SCAN_CHUNKS)
        ]
    );
}
