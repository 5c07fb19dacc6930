//! Loading a case folder and laying out its files in a fresh directory.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Deserialize;

/// A change made behind the tools' back between two calls, to test that
/// writes notice it (SPEC W2). In `calls.jsonl`:
/// `{"external": "write" | "touch" | "same_size_same_mtime", "path": .., "text": ..}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct External {
    /// What to do: `write` (new content, mtime moved on), `touch` (mtime
    /// moved on, content kept), `same_size_same_mtime` (new content of the
    /// same size, mtime restored).
    pub external: String,
    /// Path inside the case's file system.
    pub path: String,
    /// The new content for `write` and `same_size_same_mtime`.
    #[serde(default)]
    pub text: String,
}

/// One line of `calls.jsonl`.
#[derive(Debug, Clone)]
pub enum Step {
    /// A tool call.
    Call(Call),
    /// An outside change.
    External(External),
    /// Something the harness does to the session, `{"session": ..}`:
    /// `new` (a new session over the same files, with no memory: another
    /// process or agent) or `forget_outputs` (the model's context was
    /// compacted, SPEC V5).
    Session(String),
}

/// What a session step may ask.
pub const SESSION_STEPS: [&str; 2] = ["new", "forget_outputs"];

/// One call of a case.
#[derive(Debug, Clone)]
pub struct Call {
    /// The protocol line as written in `calls.jsonl`.
    pub line: String,
    /// The tool name.
    pub tool: String,
    /// The arguments as JSON text.
    pub arguments: String,
}

/// A generated input: `hex_prefix` bytes, then `prefix + repeat * times +
/// suffix` as UTF-8, or in `encoding` when it is set.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generated {
    /// Path inside the case's file system.
    pub path: String,
    /// Raw bytes written first, as hex (for binary magic numbers).
    #[serde(default)]
    pub hex_prefix: String,
    /// Instead of text: an image drawn at test time.
    #[serde(default)]
    pub image: Option<crate::images::ImageSpec>,
    /// Instead of text: a PDF written at test time.
    #[serde(default)]
    pub pdf: Option<crate::pdfs::PdfSpec>,
    /// Text written before the repeated part.
    #[serde(default)]
    pub prefix: String,
    /// The repeated text; `{n}` is replaced by the 0-based repetition.
    #[serde(default)]
    pub repeat: String,
    /// How many repetitions.
    #[serde(default)]
    pub times: u64,
    /// Text written after the repeated part.
    #[serde(default)]
    pub suffix: String,
    /// The encoding the text is written in (a WHATWG label such as
    /// `"shift_jis"`); UTF-8 when absent.
    #[serde(default)]
    pub encoding: Option<String>,
}

/// A conformance case.
#[derive(Debug, Clone)]
pub struct Case {
    /// `<area>/<name>`.
    pub name: String,
    /// The case folder.
    pub dir: PathBuf,
    /// Session config JSON (`{}` when absent).
    pub config: String,
    /// The calls and outside changes, in order.
    pub steps: Vec<Step>,
    /// Inputs made at test time.
    pub generated: Vec<Generated>,
}

/// The folder holding every case.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

/// Every case under `root`, sorted by name.
pub fn load_all(root: &Path) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for area in sorted_dirs(root)? {
        for dir in sorted_dirs(&area)? {
            cases.push(Case::load(root, &dir)?);
        }
    }
    Ok(cases)
}

fn sorted_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    Ok(dirs)
}

impl Case {
    /// Loads the case in `dir`.
    pub fn load(root: &Path, dir: &Path) -> Result<Self> {
        let name = dir
            .strip_prefix(root)
            .unwrap_or(dir)
            .to_string_lossy()
            .replace('\\', "/");
        let config = match fs::read_to_string(dir.join("config.json")) {
            Ok(text) => text,
            Err(_) => "{}".to_owned(),
        };
        let calls_text = fs::read_to_string(dir.join("calls.jsonl"))
            .with_context(|| format!("{name}: calls.jsonl is missing"))?;
        let mut steps = Vec::new();
        for line in calls_text.lines().filter(|l| !l.trim().is_empty()) {
            let value: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{name}: bad call line {line}"))?;
            if let Some(what) = value.get("session") {
                let what = what.as_str().unwrap_or_default();
                if !SESSION_STEPS.contains(&what) {
                    bail!("{name}: unknown session step {line}");
                }
                steps.push(Step::Session(what.to_owned()));
                continue;
            }
            if value.get("external").is_some() {
                let external = serde_json::from_value(value)
                    .with_context(|| format!("{name}: bad external step {line}"))?;
                steps.push(Step::External(external));
                continue;
            }
            let Some(tool) = value.get("tool").and_then(|t| t.as_str()) else {
                bail!("{name}: call without a tool: {line}");
            };
            let arguments = value
                .get("args")
                .map_or_else(|| "{}".to_owned(), ToString::to_string);
            steps.push(Step::Call(Call {
                line: line.to_owned(),
                tool: tool.to_owned(),
                arguments,
            }));
        }
        let generated = match fs::read_to_string(dir.join("generate.json")) {
            Ok(text) => {
                serde_json::from_str(&text).with_context(|| format!("{name}: bad generate.json"))?
            }
            Err(_) => Vec::new(),
        };
        Ok(Self {
            name,
            dir: dir.to_path_buf(),
            config,
            steps,
            generated,
        })
    }

    /// The tool calls, in order.
    pub fn calls(&self) -> impl Iterator<Item = &Call> {
        self.steps.iter().filter_map(|step| match step {
            Step::Call(call) => Some(call),
            Step::External(_) | Step::Session(_) => None,
        })
    }

    /// Where the files must stand after the calls: `fs.after/`.
    pub fn after_dir(&self) -> PathBuf {
        self.dir.join("fs.after")
    }

    /// Path of the expected transcript.
    pub fn expected_path(&self) -> PathBuf {
        self.dir.join("expected.txt")
    }

    /// Copies `fs/` and writes the generated inputs into a fresh `target`.
    pub fn lay_out(&self, target: &Path) -> Result<()> {
        if target.exists() {
            fs::remove_dir_all(target)?;
        }
        fs::create_dir_all(target)?;
        let source = self.dir.join("fs");
        if source.is_dir() {
            copy_tree(&source, target)?;
        }
        for generated in &self.generated {
            let path = target.join(&generated.path);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            if let Some(image) = &generated.image {
                fs::write(&path, image.draw()?)?;
                continue;
            }
            if let Some(pdf) = &generated.pdf {
                fs::write(&path, pdf.write())?;
                continue;
            }
            let mut data = hex(&generated.hex_prefix)
                .with_context(|| format!("{}: bad hex_prefix", self.name))?;
            let mut text = generated.prefix.clone();
            for n in 0..generated.times {
                text.push_str(&generated.repeat.replace("{n}", &n.to_string()));
            }
            text.push_str(&generated.suffix);
            data.extend_from_slice(&self.encoded(generated.encoding.as_deref(), &text)?);
            fs::write(&path, data)?;
        }
        Ok(())
    }
}

impl Case {
    /// `text` in the encoding `label` names (UTF-8 when `None`); text the
    /// encoding cannot hold is a broken case.
    fn encoded(&self, label: Option<&str>, text: &str) -> Result<Vec<u8>> {
        let Some(label) = label else {
            return Ok(text.as_bytes().to_vec());
        };
        let Some(encoding) = encoding_rs::Encoding::for_label(label.as_bytes()) else {
            bail!("{}: unknown encoding {label:?}", self.name);
        };
        let (bytes, _, unmappable) = encoding.encode(text);
        if unmappable {
            bail!("{}: text not representable in {label}", self.name);
        }
        Ok(bytes.into_owned())
    }
}

/// The bytes of a hex string.
fn hex(text: &str) -> Result<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        bail!("odd length");
    }
    (0..text.len())
        .step_by(2)
        .map(|i| Ok(u8::from_str_radix(&text[i..i + 2], 16)?))
        .collect()
}

/// Every file under `dir` with its bytes, by `/`-separated relative path.
pub fn snapshot(dir: &Path) -> Result<Tree> {
    let mut tree = Tree::new();
    if dir.is_dir() {
        collect(dir, "", &mut tree)?;
    }
    Ok(tree)
}

/// Files by relative path.
pub type Tree = std::collections::BTreeMap<String, Vec<u8>>;

fn collect(dir: &Path, prefix: &str, tree: &mut Tree) -> Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type()?.is_dir() {
            collect(&entry.path(), &path, tree)?;
        } else {
            tree.insert(path, fs::read(entry.path())?);
        }
    }
    Ok(())
}

/// Writes `tree` into a fresh `dir`.
pub fn write_tree(dir: &Path, tree: &Tree) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir)?;
    }
    for (path, data) in tree {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(target, data)?;
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            fs::create_dir_all(&dest)?;
            copy_tree(&entry.path(), &dest)?;
        } else {
            fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

/// A scratch directory under the workspace's `target/`, fresh per use.
pub fn scratch(label: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("conformance-scratch")
        .join(format!("{label}-{}", std::process::id()))
}
