//! `grep` and `find` through a session: hits as views, disclosure,
//! continuation.

use crate::Config;
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

fn session(files: &[(&str, &[u8])]) -> Session<MemFs> {
    let fs = MemFs::new();
    for (path, bytes) in files {
        fs.add_file(path, bytes);
    }
    Session::new(Config::default(), fs)
}

#[test]
fn smoke() {
    let mut s = session(&[
        (".gitignore", b"target/\n*.log\n"),
        (
            "src/a.rs",
            b"fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
        ),
        ("src/b.rs", b"fn other() {}\n"),
        ("target/out.rs", b"fn main() {}\n"),
        ("debug.log", b"fn main\n"),
        (".env", b"SECRET=fn\n"),
    ]);
    let r = s.call(
        "grep",
        r#"{"pattern":"fn \\w+","output_mode":"content","-A":1}"#,
    );
    println!("{}\n{}", r.text(), r.metadata);
    let r = s.call(
        "edit",
        r#"{"file_path":"src/b.rs","old_string":"fn other() {}","new_string":"fn other() { 1 }"}"#,
    );
    println!("{}\n{}", r.text(), r.metadata);
    let r = s.call("grep", r#"{"pattern":"zzz"}"#);
    println!("{}", r.text());
    let r = s.call("grep", r#"{"pattern":"fn","output_mode":"count"}"#);
    println!("{}", r.text());
    let r = s.call("find", r#"{"pattern":"*.rs"}"#);
    println!("{}", r.text());
    let r = s.call("grep", r#"{"pattern":"fn (","output_mode":"count"}"#);
    println!("{}", r.text());
}
