//! The spellings of a root and of the paths under it, through one-shot
//! commands: a root given through a symlink, the file system's root, roots
//! and paths with `/./` and `//`, absolute symlinks that stay inside the
//! root — all must work — and `/proc` under a root of `/`, or a link to it,
//! or a link out of the root — all must be refused.

use std::fmt;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use anyhow::Result;

/// What the cases came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Cases tried.
    pub tried: u64,
    /// The cases that did not behave, by name.
    pub failed: Vec<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} spellings tried, {} wrong",
            self.tried,
            self.failed.len()
        )?;
        if !self.failed.is_empty() {
            write!(f, ": {}", self.failed.join("; "))?;
        }
        Ok(())
    }
}

/// One case: a command's arguments, and whether it must succeed (printing
/// `shows`) or be refused (never printing it).
struct Case {
    name: &'static str,
    args: Vec<String>,
    works: bool,
    shows: &'static str,
}

/// Runs every case with `bin` under `base` (an empty directory).
pub fn cli(bin: &Path, base: &Path) -> Result<Report> {
    let base = base.canonicalize()?;
    let b = base.to_string_lossy().into_owned();
    let actual = base.join("actual");
    fs::create_dir_all(actual.join("sub"))?;
    fs::create_dir_all(base.join("project/src"))?;
    fs::write(actual.join("file.txt"), "file\n")?;
    fs::write(actual.join("target.txt"), "target\n")?;
    fs::write(base.join("project/src/x.txt"), "x\n")?;
    symlink(&actual, base.join("link"))?;
    symlink(actual.join("target.txt"), actual.join("abs-link"))?;
    symlink(
        format!("{b}/link/target.txt"),
        actual.join("sub/abs-link-other-spelling"),
    )?;
    symlink("/proc/self/maps", actual.join("maps-link"))?;
    symlink("/etc/hostname", actual.join("out-link"))?;
    let mut report = Report::default();
    for case in cases(&b) {
        report.tried += 1;
        let out = Command::new(bin).args(&case.args).output()?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let right = if case.works {
            out.status.success() && stdout.starts_with(case.shows)
        } else {
            out.status.code() == Some(1) && !stdout.contains(case.shows)
        };
        if !right {
            report.failed.push(case.name.to_owned());
        }
    }
    Ok(report)
}

/// The cases, for the layout made under `b`.
fn cases(b: &str) -> Vec<Case> {
    let read =
        |path: String, root: String| vec!["read".to_owned(), path, "--root".to_owned(), root];
    vec![
        Case {
            name: "a root given through a symlink, a path under that spelling",
            args: read(format!("{b}/link/file.txt"), format!("{b}/link")),
            works: true,
            shows: "1\tfile",
        },
        Case {
            name: "a root given through a symlink, a path under its real spelling",
            args: read(format!("{b}/actual/file.txt"), format!("{b}/link")),
            works: true,
            shows: "1\tfile",
        },
        Case {
            name: "--root /, an absolute path",
            args: read(format!("{b}/actual/file.txt"), "/".into()),
            works: true,
            shows: "1\tfile",
        },
        Case {
            name: "--root /, the root itself",
            args: read("/".into(), "/".into()),
            works: true,
            shows: "[directory .",
        },
        Case {
            name: "an absolute symlink inside the root",
            args: read("abs-link".into(), format!("{b}/actual")),
            works: true,
            shows: "1\ttarget",
        },
        Case {
            name: "an absolute symlink through the root's other spelling",
            args: read("sub/abs-link-other-spelling".into(), format!("{b}/link")),
            works: true,
            shows: "1\ttarget",
        },
        Case {
            name: "a root and a path spelled with /./",
            args: read(
                format!("{b}/./project/src/x.txt"),
                format!("{b}/./project/src"),
            ),
            works: true,
            shows: "1\tx",
        },
        Case {
            name: "a root and a path spelled with //",
            args: read(
                format!("{b}//project//src/x.txt"),
                format!("{b}//project//src"),
            ),
            works: true,
            shows: "1\tx",
        },
        Case {
            name: "/proc/self/maps under --root /",
            args: read("/proc/self/maps".into(), "/".into()),
            works: false,
            shows: "r-xp",
        },
        Case {
            name: "a symlink to /proc/self/maps under --root /",
            args: read(format!("{b}/actual/maps-link"), "/".into()),
            works: false,
            shows: "r-xp",
        },
        Case {
            name: "a symlink leading out of the root",
            args: read("out-link".into(), format!("{b}/actual")),
            works: false,
            shows: "1\t",
        },
    ]
}
