//! Test helpers: run `read` over an in-memory file at every interesting chunk
//! size and insist that the output never depends on where chunks end (STYLE
//! 9, SPEC R10).

use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::memory::MemFs;
use crate::view::read::args::ReadArgs;

/// Chunk sizes that put boundaries everywhere: inside UTF-8 sequences, inside
/// CRLF pairs, inside the BOM, and at page ends.
pub(crate) const CHUNK_SIZES: [u32; 6] = [1, 2, 3, 7, 4096, 64 * 1024];

/// Reads `content` (stored as `f.txt`) with `args` under `config`, checks that
/// every chunk size gives the same result, and that a text read ends with
/// the content's version (SPEC V1), and returns it without that last line,
/// so each case speaks of its own rule.
pub(crate) fn read_all_chunks(content: &[u8], args: &ReadArgs, config: &Config) -> ToolResult {
    let mut result = read_each_chunk(content, args, config);
    if result.metadata["kind"] == "text" && content.len() as u64 <= config.max_edit_bytes {
        let version = crate::memory::version::Version::of(content).to_string();
        assert_eq!(result.metadata["version"], version.as_str());
        if let Some(crate::answers::result::Block::Text(text)) = result.content.first_mut() {
            let line = format!("[version {version}]");
            let bare = text
                .strip_suffix(line.as_str())
                .expect("the version ends the answer");
            *text = bare.strip_suffix('\n').unwrap_or(bare).to_owned();
        }
    }
    result
}

/// [`read_all_chunks`] as the read answers.
fn read_each_chunk(content: &[u8], args: &ReadArgs, config: &Config) -> ToolResult {
    let fs = MemFs::new();
    fs.add_file("f.txt", content);
    let mut args = args.clone();
    if args.file_path.is_empty() {
        args.file_path = "f.txt".into();
    }
    let mut first: Option<ToolResult> = None;
    for chunk in CHUNK_SIZES {
        let config = Config {
            chunk_bytes: chunk,
            ..config.clone()
        };
        let result = crate::view::by_kind::read(&config, &fs, &args);
        match &first {
            None => first = Some(result),
            Some(expected) => assert_eq!(&result, expected, "chunk size {chunk} differs"),
        }
    }
    first.expect("at least one chunk size")
}

/// Arguments for `offset`/`limit`.
pub(crate) fn range(offset: Option<u64>, limit: Option<u64>) -> ReadArgs {
    ReadArgs {
        offset,
        limit,
        ..ReadArgs::default()
    }
}

/// Arguments for a window into line `offset` at `char_offset`.
pub(crate) fn window(offset: u64, char_offset: u64) -> ReadArgs {
    ReadArgs {
        offset: Some(offset),
        char_offset: Some(char_offset),
        ..ReadArgs::default()
    }
}
