//! The argument parser: any text, as any tool's arguments, is accepted or
//! refused with one short sentence; nothing panics, and an error never
//! echoes more than a bounded part of what it was sent.

#![no_main]

use filetools_core::answers::error::ToolError;
use filetools_core::{EditArgs, ReadArgs, UndoArgs, WriteArgs};
use libfuzzer_sys::fuzz_target;

/// The longest refusal of the argument parser: the schema it quotes and two
/// echoes cut to 80 characters each, with room to spare.
const MAX_ERROR_BYTES: usize = 2048;

fn check(outcome: Result<(), ToolError>) {
    if let Err(err) = outcome {
        let message = err.to_string();
        assert!(
            message.len() <= MAX_ERROR_BYTES,
            "a {}-byte error: {}",
            message.len(),
            &message[..message.floor_char_boundary(300)]
        );
        assert!(message.starts_with("Error: "), "{message}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&tool, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    check(match tool % 4 {
        0 => ReadArgs::from_json(text)
            .and_then(ReadArgs::checked)
            .map(drop),
        1 => WriteArgs::from_json(text).map(drop),
        2 => EditArgs::from_json(text).map(drop),
        _ => UndoArgs::from_json(text).map(drop),
    });
});
