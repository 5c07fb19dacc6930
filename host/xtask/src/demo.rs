//! `cargo xtask demo`: builds the CLI and shows it paging real files — a
//! 200,000-line log and a 600 KB one-line JSON file — the way a model would,
//! each step following the continuation the previous answer gave; the
//! outline of Python's `_pydecimal.py` and a read of one of its methods; then an
//! edit refused before a read, made after it (the file's CRLF endings and
//! curly quotes kept), and undone, one command each with `--state`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, Result, bail};

use crate::run;

/// Lines in the demo log.
const LOG_LINES: u64 = 200_000;
/// Bytes of output shown per step before the demo elides the middle.
const SHOW_BYTES: usize = 1200;

pub fn run() -> Result<()> {
    let bin = run::release_cli()?;
    let root = run::root();
    let dir = root.join("target/demo");
    std::fs::create_dir_all(&dir)?;
    write_files(&dir)?;
    println!("\nfiletools demo in {}\n", dir.display());
    let mut steps: Vec<&[&str]> = vec![
        &["read", "app.log"],
        &["read", "app.log", "--limit", "5"],
        &["read", "app.log", "--offset", "6", "--limit", "3"],
        &["read", "app.log", "--offset", "199998"],
        &["read", "app.log", "--offset", "250000"],
        &["read", "bundle.min.json"],
        &[
            "read",
            "bundle.min.json",
            "--offset",
            "1",
            "--char-offset",
            "2001",
        ],
    ];
    if copy_pydecimal(&dir)? {
        steps.push(&["read", "_pydecimal.py"]);
        steps.push(&["read", "_pydecimal.py", "--offset", "683", "--limit", "43"]);
    }
    for args in steps {
        show(&bin, &dir, args)?;
    }
    std::fs::write(
        dir.join("notes.md"),
        "# Notes\r\nStatus: \u{201c}draft\u{201d}\r\nOwner: ann\r\n",
    )?;
    let _ = std::fs::remove_file(dir.join("session.json"));
    let edit = [
        "edit",
        "notes.md",
        "--old",
        "Status: \"draft\"",
        "--new",
        "Status: \"final\"",
        "--state",
        "session.json",
    ];
    let changes: [&[&str]; 4] = [
        &edit,
        &["read", "notes.md", "--state", "session.json"],
        &edit,
        &["undo", "notes.md", "--state", "session.json"],
    ];
    for args in changes {
        show(&bin, &dir, args)?;
    }
    println!(
        "$ echo '{{\"tool\":\"read\",\"args\":{{\"file_path\":\"app.log\",\"offset\":2,\"limit\":1}}}}' | filetools session --root ."
    );
    let mut child = Command::new(&bin)
        .args(["session", "--root", "."])
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().context("no stdin")?;
        writeln!(
            stdin,
            r#"{{"tool":"read","args":{{"file_path":"app.log","offset":2,"limit":1}}}}"#
        )?;
    }
    let output = child.wait_with_output()?;
    println!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(())
}

/// Copies `_pydecimal.py` from python3's standard library, when there is one.
fn copy_pydecimal(dir: &Path) -> Result<bool> {
    let Ok(output) = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
    else {
        return Ok(false);
    };
    let source = Path::new(String::from_utf8_lossy(&output.stdout).trim()).join("_pydecimal.py");
    if !source.is_file() {
        return Ok(false);
    }
    std::fs::copy(&source, dir.join("_pydecimal.py"))?;
    Ok(true)
}

fn write_files(dir: &Path) -> Result<()> {
    let log = dir.join("app.log");
    if !log.exists() {
        let mut text = String::new();
        for n in 1..=LOG_LINES {
            let _ = writeln!(
                text,
                "2026-11-29T10:{:02}:{:02}Z worker-{} request {n} served in {}ms",
                (n / 60) % 60,
                n % 60,
                n % 8,
                n % 97
            );
        }
        std::fs::write(&log, text)?;
    }
    let json = dir.join("bundle.min.json");
    if !json.exists() {
        let mut text = String::from("{\"items\":[");
        for n in 0..9400 {
            let _ = write!(
                text,
                "{{\"id\":{n},\"name\":\"item-{n}\",\"tags\":[\"alpha\",\"beta\"],\"ok\":true}},"
            );
        }
        text.push_str("{\"id\":-1}]}");
        std::fs::write(&json, text)?;
    }
    Ok(())
}

fn show(bin: &Path, dir: &Path, args: &[&str]) -> Result<()> {
    let shown: Vec<String> = args
        .iter()
        .map(|arg| {
            if arg.contains([' ', '"']) {
                format!("'{arg}'")
            } else {
                (*arg).to_owned()
            }
        })
        .collect();
    println!("$ filetools {}", shown.join(" "));
    let output = Command::new(bin).args(args).current_dir(dir).output()?;
    if !output.status.success() && output.status.code() != Some(1) {
        bail!(
            "filetools failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let text = String::from_utf8_lossy(&output.stdout);
    if text.len() <= SHOW_BYTES {
        println!("{text}");
    } else {
        let mut head = SHOW_BYTES / 2;
        while !text.is_char_boundary(head) {
            head -= 1;
        }
        let mut tail = text.len() - SHOW_BYTES / 3;
        while !text.is_char_boundary(tail) {
            tail += 1;
        }
        println!(
            "{}\n    … ({} bytes of output in all; the demo elides the middle) …\n{}",
            &text[..head],
            text.len(),
            &text[tail..]
        );
    }
    Ok(())
}
