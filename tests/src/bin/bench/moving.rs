//! A moving world (`bench --moving`): files that change between an agent's
//! read and its edit, in the wasmtime host on disk.
//!
//! - (a) a formatter rewrites other lines of a real source file between the
//!   read and the edit, [`FORMATTED`] times over the repository's own files;
//! - (b) [`AGENTS`] agents, each its own session in its own thread (no
//!   shared state), make [`EDITS_EACH`] edits each to lines of the same
//!   [`SHARED_FILES`] files that no other agent edits;
//! - (c) the same, every agent editing the same lines.
//!
//! Each runs twice in one run: as filetools answers now (what changed is
//! shown, and an edit away from the other change is merged) and as it
//! answered before (`view_bytes: 0`: a stale file is refused and the agent
//! reads it again). The simulated agent never guesses: it learns a file's
//! lines only from what the answers show it. Reported: changes lost (must
//! be 0), changes landed without a re-read, and the bytes spent to recover
//! from a stale file against the refusal plus re-read of before.

use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use filetools::{Session, Tools};
use serde_json::json;

/// Edits in the formatter run.
pub const FORMATTED: usize = 1000;
/// Agents in the shared-file runs.
pub const AGENTS: usize = 4;
/// Edits each agent makes.
pub const EDITS_EACH: usize = 250;
/// Files the agents share.
pub const SHARED_FILES: usize = 3;
/// Lines of each shared file.
const SHARED_LINES: usize = 160;
/// Lines every agent edits in the overlapping run, per file.
const HOT_LINES: usize = 6;
/// Source files the formatter run takes from the repository.
const SOURCE_FILES: usize = 60;
/// Largest source file taken: one read shows it whole.
const MAX_SOURCE_BYTES: u64 = 60 * 1024;
/// Attempts one change may take before the run gives up on it.
const MAX_ATTEMPTS: usize = 200;

/// How the session answers a stale file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// What changed is shown; edits merge (the default config).
    Now,
    /// Refused; the agent reads the file again (`view_bytes: 0`).
    Before,
}

impl Mode {
    fn config(self) -> &'static str {
        match self {
            Mode::Now => "{}",
            Mode::Before => r#"{"view_bytes": 0}"#,
        }
    }
}

/// What one run counted.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    /// Changes made (landed).
    landed: usize,
    /// Of them, landed at their first attempt.
    first_try: usize,
    /// Of them, landed with no read between the change asked and landed.
    without_read: usize,
    /// Changes that landed and are not in the files at the end.
    lost: usize,
    /// Answers that were about a stale file (refusals and merge notes).
    stale_answers: usize,
    /// Bytes of those answers and of the reads they made necessary.
    recovery_bytes: usize,
    /// Refused changes found in the file afterwards, taken in by another
    /// writer that saw them while the host held them.
    taken_in: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Self) {
        self.landed += other.landed;
        self.first_try += other.first_try;
        self.without_read += other.without_read;
        self.lost += other.lost;
        self.stale_answers += other.stale_answers;
        self.recovery_bytes += other.recovery_bytes;
        self.taken_in += other.taken_in;
    }
}

/// `part` of `whole` in percent.
#[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} landed ({} refused, then found taken in), {} lost; at the first attempt {:.1}%, without a re-read {:.1}%; {} stale answers, {} bytes to recover",
            self.landed,
            self.taken_in,
            self.lost,
            percent(self.first_try, self.landed),
            percent(self.without_read, self.landed),
            self.stale_answers,
            self.recovery_bytes
        )
    }
}

/// An agent: its session, and the lines it knows of each file (only from
/// what answers showed it).
struct Agent {
    session: Session,
    known: BTreeMap<String, Vec<String>>,
    counts: Counts,
    mode: Mode,
}

impl Agent {
    fn new(root: &Path, mode: Mode) -> Result<Self> {
        let tools = Tools::builder()
            .root(root)
            .config_json(mode.config())?
            .build()?;
        Ok(Self {
            session: tools.session()?,
            known: BTreeMap::new(),
            counts: Counts::default(),
            mode,
        })
    }

    /// Reads `path` whole; its lines become what the agent knows. Gives
    /// the bytes of the answer.
    fn read(&mut self, path: &str) -> Result<usize> {
        // A range, so a large file is shown as lines, not outlined.
        let args = json!({"file_path": path, "offset": 1, "limit": 100_000});
        let answer = self.session.call("read", &args.to_string());
        let text = answer.text();
        if answer.is_error {
            bail!("read {path}: {text}");
        }
        if answer.metadata["kind"] == "unchanged" {
            // What it showed before still stands.
            return Ok(text.len());
        }
        let lines = text
            .lines()
            .map_while(|line| line.split_once('\t').map(|(_, body)| body.to_owned()))
            .collect();
        self.known.insert(path.to_owned(), lines);
        Ok(text.len())
    }

    /// Replaces line `at` of `path` by `make(the line as the agent knows
    /// it)` until it lands; gives the line written.
    fn change(&mut self, path: &str, at: usize, make: impl Fn(&str) -> String) -> Result<String> {
        let mut read_since = false;
        let make_once = make(&self.known[path][at]);
        for attempt in 0..MAX_ATTEMPTS {
            let old = self.known[path][at].clone();
            if attempt > 0 && old == make_once {
                // A refused write another agent's merge took in: the host
                // swaps a write in, then back out when the file it
                // displaced was not the one expected, and a reader in
                // between saw it.
                self.counts.taken_in += 1;
                self.counts.landed += 1;
                return Ok(old);
            }
            let new = make(&old);
            let args = json!({"file_path": path, "old_string": old, "new_string": new});
            let answer = self.session.call("edit", &args.to_string());
            let text = answer.text();
            if !answer.is_error {
                if let Some(note) = merge_note(&text) {
                    self.counts.stale_answers += 1;
                    self.counts.recovery_bytes += note.len();
                    apply_diff(self.known.get_mut(path).expect("read"), note);
                }
                self.known.get_mut(path).expect("read")[at].clone_from(&new);
                self.counts.landed += 1;
                self.counts.first_try += usize::from(attempt == 0);
                self.counts.without_read += usize::from(!read_since);
                return Ok(new);
            }
            let code = answer.metadata["error"].as_str().unwrap_or_default();
            if !matches!(code, "stale" | "conflict") {
                bail!("edit of {path} refused: {text}");
            }
            self.counts.stale_answers += 1;
            self.counts.recovery_bytes += text.len();
            if text.contains("as they are now") && !text.contains("not shown") {
                apply_diff(self.known.get_mut(path).expect("read"), &text);
            } else if self.mode == Mode::Before || !text.contains("while the edit was being saved")
            {
                // Nothing to go on but a read of the whole file.
                self.counts.recovery_bytes += self.read(path)?;
                read_since = true;
            }
        }
        bail!(
            "an edit of {path} line {} did not land in {MAX_ATTEMPTS} attempts",
            at + 1
        )
    }
}

/// The note before a merged change's own answer, if there is one.
fn merge_note(text: &str) -> Option<&str> {
    let at = text.find("\nEdited ")?;
    text.starts_with("Note: ").then(|| &text[..=at])
}

/// Applies what `text` shows of a file's changed lines to `lines`: its
/// numbered lines (`N<TAB>text`, numbered as the file is now), each place
/// after a note of where it was when that moved (`[your line(s) A(-B) are
/// now line(s) C(-D):]`, `[new line(s) C(-D), after your line A:]`,
/// `[your line(s) A(-B) removed]`), in order.
fn apply_diff(lines: &mut Vec<String>, text: &str) {
    // Lines earlier places added and removed.
    let (mut added, mut removed) = (0usize, 0usize);
    let mut rows = text.lines().peekable();
    while let Some(row) = rows.next() {
        let numbers: Vec<usize> = row
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        let (old_first, old_len) = if let Some(rest) = row.strip_prefix("[your line") {
            let gone = rest.ends_with(" removed]");
            let (a, b) = match numbers.as_slice() {
                [a, b, ..] if rest.starts_with("s ") => (*a, *b),
                [a, ..] => (*a, *a),
                [] => continue,
            };
            if gone {
                let at = (a - 1 + added).saturating_sub(removed);
                let end = (at + b + 1 - a).min(lines.len());
                lines.drain(at.min(end)..end);
                removed += b + 1 - a;
                continue;
            }
            (a, b + 1 - a)
        } else if row.starts_with("[new line") {
            match numbers.last() {
                Some(after) => (after + 1, 0),
                None => continue,
            }
        } else if let Some((number, body)) = row.split_once('\t')
            && let Ok(number) = number.parse::<usize>()
        {
            // A place that did not move: its lines replace the same ones.
            if let Some(line) = lines.get_mut(number - 1) {
                body.clone_into(line);
            }
            continue;
        } else {
            continue;
        };
        let mut now = Vec::new();
        while let Some(next) = rows.peek() {
            let Some((number, body)) = next.split_once('\t') else {
                break;
            };
            if number.parse::<usize>().is_err() {
                break;
            }
            now.push(body.to_owned());
            rows.next();
        }
        let at = (old_first - 1 + added).saturating_sub(removed);
        let end = (at + old_len).min(lines.len());
        added += now.len();
        removed += old_len;
        lines.splice(at.min(end)..end, now);
    }
}

/// A tiny deterministic generator (xorshift), so every run asks the same.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n.max(1) as u64).unwrap_or(0)
    }
}

/// Runs every scenario in both modes under `dir` and prints the table.
pub fn run(dir: &Path) -> Result<()> {
    println!("a moving world: lost changes, landed without a re-read, bytes to recover");
    let sources = source_files()?;
    let mut rows = Vec::new();
    for (name, scenario) in [
        ("(a) formatter between read and edit", Scenario::Formatter),
        ("(b) 4 agents, separate lines", Scenario::Apart),
        ("(c) 4 agents, the same lines", Scenario::Together),
    ] {
        let mut by_mode = Vec::new();
        for mode in [Mode::Now, Mode::Before] {
            let root = dir.join("moving");
            if root.exists() {
                fs::remove_dir_all(&root)?;
            }
            fs::create_dir_all(&root)?;
            let counts = match scenario {
                Scenario::Formatter => formatter(&root, &sources, mode)?,
                Scenario::Apart | Scenario::Together => agents(&root, scenario, mode)?,
            };
            println!(
                "  {name}, {}: {counts}",
                match mode {
                    Mode::Now => "now",
                    Mode::Before => "before (refused, read again)",
                }
            );
            by_mode.push(counts);
        }
        rows.push((name, by_mode[0], by_mode[1]));
    }
    println!();
    for (name, now, before) in rows {
        println!(
            "  {name}: lost {}; without a re-read {:.1}% (before {:.1}%); recovery {} B vs {} B = {:.1}% (target at most 10%)",
            now.lost,
            percent(now.without_read, now.landed),
            percent(before.without_read, before.landed),
            now.recovery_bytes,
            before.recovery_bytes,
            percent(now.recovery_bytes, before.recovery_bytes)
        );
    }
    println!();
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scenario {
    Formatter,
    Apart,
    Together,
}

/// The repository's own Rust sources that one read shows whole, up to
/// [`SOURCE_FILES`] of them.
fn source_files() -> Result<Vec<PathBuf>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../guest/src");
    let mut found = Vec::new();
    let mut dirs = vec![src];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).with_context(|| dir.display().to_string())? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && fs::metadata(&path)?.len() < MAX_SOURCE_BYTES
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found.truncate(SOURCE_FILES);
    Ok(found)
}

/// (a): read, a formatter rewrites lines away from the one the agent
/// edits, then the edit.
fn formatter(root: &Path, sources: &[PathBuf], mode: Mode) -> Result<Counts> {
    let names: Vec<String> = (0..sources.len())
        .map(|n| format!("src{n:02}.rs"))
        .collect();
    for (source, name) in sources.iter().zip(&names) {
        fs::copy(source, root.join(name))?;
    }
    let mut agent = Agent::new(root, mode)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in 0..FORMATTED {
        let name = &names[n % names.len()];
        agent.read(name)?;
        let known = agent.known[name].clone();
        let Some(target) = pick_target(&known, &mut rng) else {
            continue;
        };
        let rewritten = reformat(&root.join(name), target, &mut rng)?;
        let tag = format!(" // edited {n}");
        let written = agent.change(name, target, |line| format!("{line}{tag}"))?;
        let now = fs::read_to_string(root.join(name))?;
        let kept = now.lines().any(|l| l == written)
            && rewritten.iter().all(|line| now.lines().any(|l| l == line));
        agent.counts.lost += usize::from(!kept);
    }
    Ok(agent.counts)
}

/// A line worth editing: its text found once in the file, not blank.
fn pick_target(lines: &[String], rng: &mut Rng) -> Option<usize> {
    let text = lines.join("\n");
    for _ in 0..50 {
        let at = rng.below(lines.len());
        let line = &lines[at];
        if line.trim().len() >= 8 && text.matches(line.as_str()).count() == 1 {
            return Some(at);
        }
    }
    None
}

/// What a formatter does to up to two indented lines at least three lines
/// from `target`: its indentation turns from spaces to a tab, or back.
/// Gives the lines as rewritten.
fn reformat(path: &Path, target: usize, rng: &mut Rng) -> Result<Vec<String>> {
    let text = fs::read_to_string(path)?;
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut rewritten = Vec::new();
    let mut touched = Vec::new();
    for _ in 0..2 {
        let at = rng.below(lines.len());
        if at.abs_diff(target) < 3 || touched.contains(&at) {
            continue;
        }
        touched.push(at);
        let line = &lines[at];
        let new = if let Some(rest) = line.strip_prefix("    ") {
            format!("\t{rest}")
        } else if let Some(rest) = line.strip_prefix('\t') {
            format!("    {rest}")
        } else {
            continue;
        };
        // A formatter that made another line hold the edited one would
        // make the edit ambiguous, not a merge.
        if new.contains(lines[target].as_str()) {
            continue;
        }
        rewritten.push(new.clone());
        lines[at] = new;
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    fs::write(path, out)?;
    Ok(rewritten)
}

/// (b) and (c): the agents in their threads, then what the files hold
/// against what each saw land.
fn agents(root: &Path, scenario: Scenario, mode: Mode) -> Result<Counts> {
    let files: Vec<String> = (0..SHARED_FILES)
        .map(|n| format!("shared{n}.txt"))
        .collect();
    for name in &files {
        let mut text = String::new();
        for n in 0..SHARED_LINES {
            let _ = writeln!(text, "line {n}: start");
        }
        fs::write(root.join(name), text)?;
    }
    let results: Vec<Result<(Counts, Vec<Landed>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..AGENTS)
            .map(|k| {
                let files = &files;
                scope.spawn(move || agent_run(root, files, k, scenario, mode))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("an agent panicked")))
            .collect()
    });
    let mut counts = Counts::default();
    let mut landed = Vec::new();
    for result in results {
        let (agent_counts, agent_landed) = result?;
        counts += agent_counts;
        landed.extend(agent_landed);
    }
    let mut texts = BTreeMap::new();
    for name in &files {
        texts.insert(name.clone(), fs::read_to_string(root.join(name))?);
    }
    for (name, at, token) in landed {
        let line = texts[&name].lines().nth(at).unwrap_or_default();
        // (b): each line ends as its agent last wrote it; (c): every
        // token that landed is still in its line.
        let kept = match scenario {
            Scenario::Together => line.split(' ').any(|word| word == token),
            _ => line == token,
        };
        counts.lost += usize::from(!kept);
    }
    Ok(counts)
}

/// A change found in the end: `(file, line, what must be found there)`.
type Landed = (String, usize, String);

/// One agent's edits: `(file, line, what must be found there)` for each
/// change that landed ((b): only each line's last).
fn agent_run(
    root: &Path,
    files: &[String],
    k: usize,
    scenario: Scenario,
    mode: Mode,
) -> Result<(Counts, Vec<Landed>)> {
    let mut agent = Agent::new(root, mode)?;
    for name in files {
        agent.read(name)?;
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ ((k as u64 + 1) * 0x1000_0000_01B3));
    let mut last: BTreeMap<(String, usize), String> = BTreeMap::new();
    let mut tokens = Vec::new();
    for j in 0..EDITS_EACH {
        let name = files[rng.below(files.len())].clone();
        if scenario == Scenario::Together {
            let at = rng.below(HOT_LINES) * 4;
            let token = format!("a{k}e{j}");
            agent.change(&name, at, |line| format!("{line} {token}"))?;
            tokens.push((name, at, token));
        } else {
            // Agent k's lines: every eighth, from 2k; two lines apart
            // from the next agent's, so one unchanged line between.
            let at = rng.below(SHARED_LINES / 8) * 8 + 2 * k;
            let written = agent.change(&name, at, |_| format!("line {at}: agent {k} edit {j}"))?;
            last.insert((name, at), written);
        }
    }
    let landed = match scenario {
        Scenario::Together => tokens,
        _ => last
            .into_iter()
            .map(|((name, at), line)| (name, at, line))
            .collect(),
    };
    Ok((agent.counts, landed))
}
