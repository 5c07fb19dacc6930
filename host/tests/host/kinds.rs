//! R8, R9, R12–R14, S1 through the `filetools` binary: a screenshot name
//! typed with a plain space opens; a FIFO and `/dev/zero` are refused at
//! once; a 4000x3000 PNG comes back within the image limits with its scale
//! factor; a notebook with a 50 KB output stays small; a PDF's page text is
//! shown; no escape attempt reads outside the root.

use std::fs;
use std::time::{Duration, Instant};

use filetools_tests::images::ImageSpec;
use filetools_tests::pdfs::PdfSpec;
use serde_json::{Value, json};

use crate::{SessionProcess, root_and_outside};

fn read(session: &mut SessionProcess, path: &str) -> Value {
    session.call("read", &json!({ "file_path": path }))
}

fn text(answer: &Value) -> String {
    answer["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A 4000x3000 PNG, drawn as the conformance cases draw their images.
fn big_png() -> Vec<u8> {
    ImageSpec {
        format: "png".into(),
        width: 4000,
        height: 3000,
        orientation: None,
    }
    .draw()
    .unwrap()
}

/// A one-page PDF saying `words`, written as the conformance cases write theirs.
fn pdf(words: &str) -> Vec<u8> {
    PdfSpec {
        pages: vec![words.to_owned()],
        count: 0,
        text: String::new(),
    }
    .write()
}

#[test]
fn every_kind_answers_in_a_form_the_model_can_use() {
    let (root, outside) = root_and_outside("kinds");
    fs::write(
        root.join("Screenshot 2026-11-29 at 9.41.07\u{202F}PM.txt"),
        "seen\n",
    )
    .unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(root.join("pipe"))
            .status()
            .unwrap()
            .success()
    );
    fs::write(root.join("photo.png"), big_png()).unwrap();
    let notebook = json!({
        "cells": [{"cell_type": "code", "id": "x", "execution_count": 1, "source": "print(big)",
                   "outputs": [{"output_type": "stream", "name": "stdout", "text": "y".repeat(50_000)}], "metadata": {}}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5
    });
    fs::write(root.join("big.ipynb"), notebook.to_string()).unwrap();
    fs::write(
        root.join("report.pdf"),
        pdf("Revenue grew by twelve percent"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("leak.txt")).unwrap();

    let mut session = SessionProcess::start(&root);
    let shot = read(&mut session, "Screenshot 2026-11-29 at 9.41.07 PM.txt");
    assert!(
        text(&shot).contains("narrow no-break space") && text(&shot).contains("1\tseen"),
        "{shot}"
    );

    for path in ["pipe", "/dev/zero"] {
        let started = Instant::now();
        let refused = read(&mut session, path);
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{path} took {:?}",
            started.elapsed()
        );
        assert_eq!(refused["isError"], true, "{refused}");
    }

    let photo = read(&mut session, "photo.png");
    let image = &photo["content"][1];
    assert_eq!(image["type"], "image");
    let (width, height) = (
        &photo["structuredContent"]["shown_width"],
        &photo["structuredContent"]["shown_height"],
    );
    assert!(
        width.as_u64().unwrap() <= 1568 && height.as_u64().unwrap() <= 1568,
        "{width}x{height}"
    );
    assert!(
        text(&photo).contains("multiply coordinates in it by"),
        "{}",
        text(&photo)
    );

    let nb = read(&mut session, "big.ipynb");
    assert!(text(&nb).len() < 2_000, "{} bytes", text(&nb).len());
    assert!(
        text(&nb).contains("50000 characters not shown"),
        "{}",
        text(&nb)
    );

    let report = read(&mut session, "report.pdf");
    assert!(
        text(&report).contains("Revenue grew by twelve percent"),
        "{}",
        text(&report)
    );

    for escape in [
        "../outside/secret.txt",
        "/etc/passwd",
        "leak.txt",
        "sub/../../outside/secret.txt",
    ] {
        let answer = read(&mut session, escape);
        assert_eq!(answer["isError"], true, "{escape}: {answer}");
        assert!(!text(&answer).contains("secret\n"), "{escape}: {answer}");
    }
    session.finish();
}
