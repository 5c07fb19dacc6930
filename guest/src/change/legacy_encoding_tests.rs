//! Changes of files in legacy encodings (SPEC W9): every byte outside the
//! changed span stays as it was, text the encoding cannot hold is refused
//! with nothing written, a guessed encoding is never written silently, and
//! undo restores the bytes.

use serde_json::json;

use crate::answers::result::ToolResult;
use crate::fs::memory::MemFs;
use crate::text::encoding::Encoding;
use crate::tools::session::Session;

fn session_with(path: &str, content: &[u8]) -> Session<MemFs> {
    let fs = MemFs::new();
    fs.add_file(path, content);
    Session::open("{}", fs).unwrap()
}

fn call(session: &mut Session<MemFs>, tool: &str, args: &serde_json::Value) -> ToolResult {
    session.call(tool, &args.to_string())
}

fn contents(session: &Session<MemFs>, path: &str) -> Vec<u8> {
    session.fs().contents(path).unwrap()
}

fn encoded(label: &str, text: &str) -> Vec<u8> {
    Encoding::from_label(label).unwrap().encode(text).unwrap()
}

#[test]
fn each_encoding_is_edited_byte_exact_outside_the_change() {
    let cases = [
        (
            "windows-1252",
            "Le café crème\r\nest très bon, déjà prêt.\r\n",
            "crème",
            "brûlée",
        ),
        (
            "windows-1251",
            "Привет, как дела?\nВсё хорошо, спасибо.\n",
            "хорошо",
            "отлично",
        ),
        (
            "shift_jis",
            "日本語のテキストです。\nこれはテストの文章です。",
            "テスト",
            "試験",
        ),
        (
            "gbk",
            "这是一个中文文本文件。\n用于测试编码检测。\n",
            "测试",
            "检查",
        ),
        (
            "euc-kr",
            "이것은 한국어 텍스트 파일입니다.\n인코딩을 시험합니다.\n",
            "시험",
            "검사",
        ),
    ];
    for (label, text, old, new) in cases {
        let before = encoded(label, text);
        let mut s = session_with("f.txt", &before);
        let read = call(&mut s, "read", &json!({"file_path": "f.txt"}));
        assert_eq!(
            read.metadata["encoding_confidence"],
            "high",
            "{label}: {}",
            read.text()
        );
        let result = call(
            &mut s,
            "edit",
            &json!({"file_path": "f.txt", "old_string": old, "new_string": new}),
        );
        assert!(!result.is_error, "{label}: {}", result.text());
        assert_eq!(
            contents(&s, "f.txt"),
            encoded(label, &text.replacen(old, new, 1)),
            "{label}"
        );
        let undone = call(&mut s, "undo", &json!({"file_path": "f.txt"}));
        assert!(!undone.is_error, "{label}: {}", undone.text());
        assert_eq!(contents(&s, "f.txt"), before, "{label}");
    }
}

#[test]
fn text_the_encoding_cannot_hold_is_refused_and_named() {
    let before = encoded("windows-1251", "Привет, как дела?\nВсё хорошо.\n");
    let mut s = session_with("ru.txt", &before);
    call(&mut s, "read", &json!({"file_path": "ru.txt"}));
    let result = call(
        &mut s,
        "edit",
        &json!({"file_path": "ru.txt", "old_string": "хорошо", "new_string": "хорошо 日本 ✓"}),
    );
    assert_eq!(result.metadata["error"], "unmappable");
    assert_eq!(
        result.text(),
        "Error: ru.txt is in windows-1251, which cannot represent U+65E5 '日', U+672C '本', U+2713 '✓' (first on line 2); nothing was written. Use other characters, or convert the file by writing it whole with encoding=\"utf-8\"."
    );
    assert_eq!(contents(&s, "ru.txt"), before);
}

#[test]
fn a_guessed_encoding_needs_the_encoding_argument() {
    let before = b"ok\n\xFF line\n".to_vec();
    let mut s = session_with("g.txt", &before);
    call(&mut s, "read", &json!({"file_path": "g.txt"}));
    let refused = call(
        &mut s,
        "edit",
        &json!({"file_path": "g.txt", "old_string": "ok", "new_string": "OK"}),
    );
    assert_eq!(refused.metadata["error"], "encoding_unsure");
    assert!(
        refused.text().contains("encoding=\"windows-1252\""),
        "{}",
        refused.text()
    );
    let refused = call(
        &mut s,
        "write",
        &json!({"file_path": "g.txt", "content": "new\n"}),
    );
    assert_eq!(refused.metadata["error"], "encoding_unsure");
    assert_eq!(contents(&s, "g.txt"), before);
    let done = call(
        &mut s,
        "edit",
        &json!({"file_path": "g.txt", "old_string": "ok", "new_string": "OK", "encoding": "latin1"}),
    );
    assert!(!done.is_error, "{}", done.text());
    assert_eq!(contents(&s, "g.txt"), b"OK\n\xFF line\n");
}

#[test]
fn write_keeps_the_encoding_or_converts_when_asked() {
    let mut s = session_with("w.txt", b"caf\xe9 cr\xe8me\n");
    call(&mut s, "read", &json!({"file_path": "w.txt"}));
    let kept = call(
        &mut s,
        "write",
        &json!({"file_path": "w.txt", "content": "thé glacé\n"}),
    );
    assert!(!kept.is_error, "{}", kept.text());
    assert_eq!(contents(&s, "w.txt"), b"th\xe9 glac\xe9\n");
    let converted = call(
        &mut s,
        "write",
        &json!({"file_path": "w.txt", "content": "thé glacé\n", "encoding": "utf-8"}),
    );
    assert!(!converted.is_error, "{}", converted.text());
    assert_eq!(contents(&s, "w.txt"), "thé glacé\n".as_bytes());
    let created = call(
        &mut s,
        "write",
        &json!({"file_path": "new.txt", "content": "日本\n", "encoding": "shift_jis"}),
    );
    assert!(!created.is_error, "{}", created.text());
    assert_eq!(contents(&s, "new.txt"), encoded("shift_jis", "日本\n"));
}

#[test]
fn an_unknown_encoding_name_is_refused_before_anything() {
    let mut s = session_with("a.txt", b"abc\n");
    let result = call(
        &mut s,
        "read",
        &json!({"file_path": "a.txt", "encoding": "klingon"}),
    );
    assert_eq!(result.metadata["error"], "invalid_arguments");
    assert!(result.text().contains("\"shift_jis\""), "{}", result.text());
}

#[test]
fn bytes_with_a_second_form_are_not_edited() {
    // Shift_JIS 0xED40 (an NEC-selected IBM extension) decodes to the same
    // character as 0xFA5C, which is what encoding back gives.
    let mut bytes = encoded("shift_jis", "日本語のテキストです。これは");
    bytes.extend_from_slice(b"\xED\x40\n");
    let mut s = session_with("dup.txt", &bytes);
    call(
        &mut s,
        "read",
        &json!({"file_path": "dup.txt", "encoding": "shift_jis"}),
    );
    let result = call(
        &mut s,
        "edit",
        &json!({"file_path": "dup.txt", "old_string": "これは", "new_string": "それは", "encoding": "shift_jis"}),
    );
    assert_eq!(result.metadata["error"], "not_text", "{}", result.text());
    assert_eq!(contents(&s, "dup.txt"), bytes);
}
