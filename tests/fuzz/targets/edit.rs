//! The edit matcher: any file and any `old_string`/`new_string` pair, after
//! a full read, either edit the file or leave it byte for byte as it was;
//! an edit made is undone back to the exact original bytes.

#![no_main]

use filetools_core::{Config, EditArgs, EditOp, MemFs, ReadArgs, Session, UndoArgs};
use libfuzzer_sys::fuzz_target;

/// Separates the file, `old_string` and `new_string` in the input.
const SEPARATOR: u8 = 0xff;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.splitn(3, |&b| b == SEPARATOR);
    let (Some(content), Some(old), Some(new)) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    let (Ok(old), Ok(new)) = (std::str::from_utf8(old), std::str::from_utf8(new)) else {
        return;
    };
    let fs = MemFs::new();
    fs.add_file("edit.txt", content);
    let config = Config::from_json(r#"{"max_output_tokens": 1000000, "max_line_chars": 1000000}"#)
        .expect("a valid config");
    let mut session = Session::new(config, &fs);
    let read = session.read(&ReadArgs {
        file_path: "edit.txt".into(),
        offset: None,
        limit: None,
        char_offset: None,
        ..ReadArgs::default()
    });
    if read.is_error {
        return;
    }
    let edited = session.edit(&EditArgs {
        file_path: "edit.txt".into(),
        edits: vec![EditOp {
            old_string: old.to_owned(),
            new_string: new.to_owned(),
            replace_all: flags & 1 == 1,
        }],
        ..EditArgs::default()
    });
    let after = fs.contents("edit.txt").expect("the file is still there");
    if edited.is_error || after == content {
        assert_eq!(
            after,
            content,
            "a refused edit changed the file: {}",
            edited.text()
        );
        return;
    }
    let undone = session.undo(&UndoArgs {
        file_path: "edit.txt".into(),
        ..UndoArgs::default()
    });
    assert!(!undone.is_error, "{}", undone.text());
    assert_eq!(
        fs.contents("edit.txt").as_deref(),
        Some(content),
        "undo lost bytes"
    );
});
