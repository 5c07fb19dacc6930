//! The `grep` tool (SPEC G1–G4): a walk under the ignore rules, each file
//! scanned, and one answer under one output budget. In `content` mode
//! every line shown is a view of its file, as a `read` of it would be:
//! the answer gives each file's version and hands the views back for the
//! session's ledger. Entries — output lines in `content` mode, files
//! otherwise — come in a stable order, so `offset` continues exactly.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::rc::Rc;

use serde_json::{Value, json};

use crate::answers::error::ToolError;
use crate::answers::notice::Notice;
use crate::answers::result::ToolResult;
use crate::answers::search::{Cut, End, Footer, LongLine, NoMatch, Skipped, Unit};
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::fs::host::{FileKind, FsError, HostFs, Metadata, ScanFile, ScanOutcome, ScanRequest};
use crate::memory::ledger::Ledger;
use crate::memory::version::Version;
use crate::paths::repair::{self, Target};
use crate::paths::walk::rules::Rules;
use crate::paths::walk::{Found, Walk};
use crate::text::encoding::Encoding;
use crate::view::read::cut::cut_point;
use crate::view::search::args::{GrepArgs, OutputMode};
use crate::view::search::batch;
use crate::view::search::matcher::Matcher;
use crate::view::search::scan::{Event, Scanned, Want, scan};

/// Bytes of the budget kept for the footer and the list of what was
/// skipped, at most a quarter of the budget.
pub const FOOTER_RESERVE_BYTES: u64 = 2048;

/// Files named as changed since an earlier page at most.
pub const MAX_CHANGED_NAMED: usize = 5;

/// What a `grep` showed of one file, for the ledger.
#[derive(Debug, Clone)]
pub struct Viewed {
    /// Root-relative path.
    pub rel: String,
    /// Metadata when searched.
    pub meta: Metadata,
    /// The scan that showed it.
    pub scanned: Scanned,
    /// The line ranges shown.
    pub ranges: Vec<(u64, u64)>,
}

/// A `grep`'s answer and the views it gave.
#[derive(Debug)]
pub(crate) struct Grepped {
    /// The answer.
    pub result: ToolResult,
    /// The files whose lines it showed.
    pub views: Vec<Viewed>,
    /// Where the search started.
    pub target: Target,
}

/// The answer being built.
struct Page<'a> {
    config: &'a Config,
    args: &'a GrepArgs,
    budget: u64,
    text: String,
    /// Entries passed, shown or skipped by `offset`.
    entries: u64,
    shown: u64,
    cut: Option<Cut>,
    matches: u64,
    files_matched: u64,
    versions: BTreeMap<String, String>,
    /// Files an earlier page showed that changed since.
    changed: Vec<String>,
}

impl Page<'_> {
    /// Whether entry number `self.entries + 1` is past the call's `offset`
    /// and fits; counts it either way. A cut stops the search.
    fn admit(&mut self, bytes: usize) -> ControlFlow<(), bool> {
        if self.cut.is_some() {
            return ControlFlow::Break(());
        }
        self.entries += 1;
        if self.entries <= self.args.offset {
            return ControlFlow::Continue(false);
        }
        if let Some(limit) = self.args.head_limit
            && self.shown >= limit
        {
            self.entries -= 1;
            self.cut = Some(Cut::HeadLimit(limit));
            return ControlFlow::Break(());
        }
        if self.shown > 0 && (self.text.len() + bytes) as u64 > self.budget {
            self.entries -= 1;
            self.cut = Some(Cut::Budget(self.config.max_output_tokens));
            return ControlFlow::Break(());
        }
        self.shown += 1;
        ControlFlow::Continue(true)
    }
}

/// Runs `args` over `fs`. `ledger` says what the model saw before, so
/// that a continuation names the files that changed since.
pub(crate) fn grep<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &GrepArgs,
    remembered: &BTreeMap<String, String>,
    ledger: &Ledger,
) -> Result<Grepped, ToolError> {
    let matcher = Matcher::new(&args.pattern, args.case_insensitive, args.multiline)?;
    let path = args.path.as_deref().unwrap_or(".");
    let (target, meta) = repair::existing(config, fs, path, remembered)?;
    let rules = Rules::new(fs, args.narrowing(), &config.search_exclude, &target.rel)
        .map_err(|err| err.for_tool(Tool::Grep, "glob"))?;
    let budget = config.budget_bytes();
    let mut page = Page {
        config,
        args,
        budget: budget - FOOTER_RESERVE_BYTES.min(budget / 4),
        text: String::new(),
        entries: 0,
        shown: 0,
        cut: None,
        matches: 0,
        files_matched: 0,
        versions: BTreeMap::new(),
        changed: Vec::new(),
    };
    let mut views = Vec::new();
    // Sizes matter only to the lines shown and to a multiline search: a
    // count or a list of files walks by names and kinds alone.
    let names_only = args.output_mode != OutputMode::Content && !args.multiline;
    let mut walk = Walk::new(fs, rules).names_only(names_only);
    let mut failed: Option<ToolError> = None;
    let mut skipped = Skipped::default();
    let mut one = |found: &Found, known: Option<Known>| -> ControlFlow<()> {
        match file(
            config,
            fs,
            found,
            (&matcher, args),
            &mut page,
            ledger,
            known.as_ref(),
        ) {
            Ok(Some(FileOutcome::Binary)) => skipped.binary += 1,
            Ok(Some(FileOutcome::TooLarge)) => skipped.too_large += 1,
            Ok(Some(FileOutcome::Unreadable)) => skipped.unreadable_files += 1,
            Ok(Some(FileOutcome::Viewed(view))) => views.push(view),
            Ok(None) => {}
            Err(err) => {
                failed = Some(err);
                return ControlFlow::Break(());
            }
        }
        if page.cut.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let (searched, left_out) = if meta.kind == FileKind::Directory {
        // Content mode asks the host only which files match: it scans
        // those for their lines itself.
        let first_only = args.output_mode != OutputMode::Count;
        let request = batch::request(
            config,
            &args.pattern,
            (args.case_insensitive, args.multiline, first_only),
        );
        let mut queue = Queue::default();
        let flow = walk.run(&target.rel, &mut |found, so_far| {
            queue.push(found, so_far);
            if queue.full() {
                queue.flush(fs, &request, &mut one)
            } else {
                ControlFlow::Continue(())
            }
        });
        if flow.is_continue() {
            queue.finish(fs, &request, &mut one);
        }
        let left_out = queue
            .cut_at
            .map_or_else(|| walk.skipped.clone(), |at| (*at).clone());
        (queue.processed, left_out)
    } else {
        let found = Found {
            rel: target.rel.clone(),
            size: meta.size,
            kind: meta.kind,
            mtime_ns: meta.mtime_ns,
        };
        let _ = one(&found, None);
        (1, Skipped::default())
    };
    let mut all = left_out;
    all.binary += skipped.binary;
    all.too_large += skipped.too_large;
    all.unreadable_files += skipped.unreadable_files;
    let skipped = all;
    if let Some(err) = failed {
        return Err(err);
    }
    let result = finish(page, &skipped, searched, &target.rel);
    Ok(Grepped {
        result,
        views,
        target,
    })
}

/// Files a host scans in one call at most, when it scans many at once.
pub const SCAN_BATCH_FILES: usize = 256;

/// Bytes of files a host scans in one call at most (a larger file alone
/// makes a call of its own).
pub const SCAN_BATCH_BYTES: u64 = 32 << 20;

/// What the host's scan of a file found, when the host scanned it.
type Known = Result<ScanOutcome, FsError>;

/// A file the walk reached, waiting for its batch, with what the walk had
/// left out when it reached it.
struct Pending {
    found: Found,
    left_out: Rc<Skipped>,
}

/// The files waiting to be scanned. A host that scans many at once gets
/// them by the batch, one batch scanning while the walk fills the next,
/// and the answer is made from the results in the walk's order exactly as
/// if each file had been scanned when reached: a cut at a file leaves out
/// what the walk had left out there, not what it went on to leave out
/// while filling batches.
#[derive(Default)]
struct Queue {
    files: Vec<Pending>,
    bytes: u64,
    /// The batch the host is scanning: its ticket and its files.
    in_flight: Option<(u64, Vec<Pending>)>,
    /// The last tally kept, by its weight: shared until the walk leaves more out.
    last: Option<(u64, Rc<Skipped>)>,
    /// Whether the host scans many at once: unknown until it is asked.
    fast: Option<bool>,
    /// Files taken onto the answer.
    processed: u64,
    /// What the walk had left out at the file where the answer was cut.
    cut_at: Option<Rc<Skipped>>,
}

impl Queue {
    fn push(&mut self, found: &Found, so_far: &Skipped) {
        let weight = so_far.weight();
        let left_out = match &self.last {
            Some((kept, tally)) if *kept == weight => Rc::clone(tally),
            _ => {
                let tally = Rc::new(so_far.clone());
                self.last = Some((weight, Rc::clone(&tally)));
                tally
            }
        };
        self.bytes += found.size;
        self.files.push(Pending {
            found: found.clone(),
            left_out,
        });
    }

    fn full(&self) -> bool {
        self.fast == Some(false)
            || self.files.len() >= SCAN_BATCH_FILES
            || self.bytes >= SCAN_BATCH_BYTES
    }

    /// The batch filled: the one in flight is taken onto the answer, and
    /// this one starts scanning (or, on a host that cannot, is scanned
    /// here and taken) — until `each` breaks.
    fn flush<F: HostFs + ?Sized>(
        &mut self,
        fs: &F,
        request: &ScanRequest,
        each: &mut dyn FnMut(&Found, Option<Known>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some((ticket, files)) = self.in_flight.take() {
            self.take(files, Some(fs.scan_results(ticket)), each)?;
        }
        let files = std::mem::take(&mut self.files);
        self.bytes = 0;
        if self.fast != Some(false) && !files.is_empty() {
            let list: Vec<ScanFile> = files
                .iter()
                .map(|pending| ScanFile {
                    path: pending.found.rel.clone(),
                    size: pending.found.size,
                })
                .collect();
            if let Some(ticket) = fs.scan_start(&list, request) {
                self.fast = Some(true);
                self.in_flight = Some((ticket, files));
                return ControlFlow::Continue(());
            }
            self.fast = Some(false);
        }
        self.take(files, None, each)
    }

    /// The walk is over: every file left is taken onto the answer.
    fn finish<F: HostFs + ?Sized>(
        &mut self,
        fs: &F,
        request: &ScanRequest,
        each: &mut dyn FnMut(&Found, Option<Known>) -> ControlFlow<()>,
    ) {
        if self.flush(fs, request, each).is_continue()
            && let Some((ticket, files)) = self.in_flight.take()
        {
            let _ = self.take(files, Some(fs.scan_results(ticket)), each);
        }
    }

    /// `files` onto the answer in order, with what the host found of each
    /// (all or none: a host's answer of another length is not used).
    fn take(
        &mut self,
        files: Vec<Pending>,
        outcomes: Option<Vec<Known>>,
        each: &mut dyn FnMut(&Found, Option<Known>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut outcomes = outcomes
            .filter(|outcomes| outcomes.len() == files.len())
            .map(Vec::into_iter);
        for pending in files {
            self.processed += 1;
            let outcome = outcomes.as_mut().and_then(Iterator::next);
            if each(&pending.found, outcome).is_break() {
                self.cut_at = Some(pending.left_out);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

/// What searching one file came to, besides its lines on the page.
enum FileOutcome {
    Binary,
    Unreadable,
    TooLarge,
    Viewed(Viewed),
}

/// The lines of one file on the page.
#[derive(Debug, Default)]
struct FileLines {
    /// As rendered.
    text: String,
    /// The line ranges shown.
    ranges: Vec<(u64, u64)>,
    /// Whether the call's `offset` passed over some.
    skipped: bool,
}

impl FileLines {
    /// Takes `event` of the file `rel` onto the page, as far as it fits.
    fn take(
        &mut self,
        config: &Config,
        rel: &str,
        page: &mut Page<'_>,
        event: Event<'_>,
    ) -> ControlFlow<()> {
        let Event::Line {
            number,
            text,
            matched,
            chars_before,
        } = event
        else {
            if !self.text.is_empty() {
                self.text.push_str("--\n");
            }
            return ControlFlow::Continue(());
        };
        let rendered = render_line(config, number, text, matched, chars_before);
        // Room for the file's header, written once its version is known.
        let header = rel.len() + 40;
        if !page.admit(self.text.len() + rendered.len() + header)? {
            self.skipped = true;
            return ControlFlow::Continue(());
        }
        self.text.push_str(&rendered);
        match self.ranges.last_mut() {
            Some(last) if last.1 + 1 == number => last.1 = number,
            Some(last) if last.1 == number => {}
            _ => self.ranges.push((number, number)),
        }
        ControlFlow::Continue(())
    }
}

/// Searches one file onto `page`, or takes what the host's scan of it
/// found (`known`): then only a file with lines to show is read here.
fn file<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    found: &Found,
    (matcher, args): (&Matcher, &GrepArgs),
    page: &mut Page<'_>,
    ledger: &Ledger,
    known: Option<&Known>,
) -> Result<Option<FileOutcome>, ToolError> {
    match known {
        Some(Err(_)) => return Ok(Some(FileOutcome::Unreadable)),
        Some(Ok(ScanOutcome::Binary)) => return Ok(Some(FileOutcome::Binary)),
        Some(Ok(ScanOutcome::TooLarge)) => return Ok(Some(FileOutcome::TooLarge)),
        Some(Ok(ScanOutcome::Matches(0))) => return Ok(None),
        Some(Ok(ScanOutcome::Matches(matches))) if args.output_mode != OutputMode::Content => {
            tally(page, args.output_mode, &found.rel, *matches);
            return Ok(None);
        }
        None | Some(Ok(ScanOutcome::Matches(_))) => {}
    }
    let want = match args.output_mode {
        OutputMode::Content => {
            let (before, after) = args.context_lines();
            Want::Lines { before, after }
        }
        OutputMode::Count => Want::Count,
        OutputMode::FilesWithMatches => Want::Any,
    };
    let mut shown = FileLines::default();
    let scanned = scan(
        config,
        fs,
        (&found.rel, found.size),
        (matcher, args.multiline),
        want,
        &mut |event| shown.take(config, &found.rel, page, event),
    );
    // Gone or refused since it was listed: counted, not fatal. Lines it
    // showed before the failure stay on the page (they were counted as
    // entries), without a version: they are no view of a known content.
    let Ok(scanned) = scanned else {
        if !shown.text.is_empty() {
            let _ = writeln!(page.text, "{}", found.rel);
            page.text
                .push_str(shown.text.strip_suffix("--\n").unwrap_or(&shown.text));
        }
        return Ok(Some(FileOutcome::Unreadable));
    };
    let FileLines {
        text: lines,
        ranges,
        skipped: skipped_lines,
    } = shown;
    let Some(scanned) = scanned else {
        return Ok(Some(FileOutcome::TooLarge));
    };
    if scanned.binary {
        return Ok(Some(FileOutcome::Binary));
    }
    if scanned.matches == 0 {
        return Ok(None);
    }
    if args.output_mode != OutputMode::Content {
        tally(page, args.output_mode, &found.rel, scanned.matches);
        return Ok(None);
    }
    page.files_matched += 1;
    page.matches += scanned.matches;
    let version = scanned.fingerprint.map(|hash| Version {
        hash,
        size: scanned.bytes,
    });
    if skipped_lines
        && let Some(record) = ledger.get(&found.rel)
        && let (Some(seen), Some(now)) = (record.fingerprint, scanned.fingerprint)
        && seen != now
    {
        page.changed.push(found.rel.clone());
    }
    if ranges.is_empty() {
        return Ok(None);
    }
    let _ = writeln!(page.text, "{}", header(&found.rel, &scanned, version));
    // A break before lines the page had no room for is no break.
    page.text
        .push_str(lines.strip_suffix("--\n").unwrap_or(&lines));
    if let Some(version) = version {
        page.versions.insert(found.rel.clone(), version.to_string());
    }
    let meta = fs
        .stat(&found.rel)
        .map_err(|err| ToolError::from_fs(&found.rel, err))?;
    Ok(Some(FileOutcome::Viewed(Viewed {
        rel: found.rel.clone(),
        meta,
        scanned,
        ranges,
    })))
}

/// A file with `matches` matching lines onto the page of a `count` or
/// `files_with_matches` search.
fn tally(page: &mut Page<'_>, mode: OutputMode, rel: &str, matches: u64) {
    page.files_matched += 1;
    page.matches += matches;
    let line = if mode == OutputMode::Count {
        format!("{rel}:{matches}\n")
    } else {
        format!("{rel}\n")
    };
    if page.admit(line.len()) == ControlFlow::Continue(true) {
        page.text.push_str(&line);
    }
}

/// The line that opens a file's lines: its path, its encoding when not
/// UTF-8, and its version.
fn header(rel: &str, scanned: &Scanned, version: Option<Version>) -> String {
    let mut line = rel.to_owned();
    if scanned.style.encoding != Encoding::Utf8 {
        let _ = write!(line, " [decoded from {}]", scanned.style.encoding.name());
    }
    if let Some(version) = version {
        let _ = write!(line, " {}", Notice::Version(version));
    }
    line
}

/// One line as shown: `N:text` for a match, `N-text` for context; a line
/// over the cap shows a window around its first match (or its start),
/// followed by where it lies and how `read` goes on.
fn render_line(
    config: &Config,
    number: u64,
    text: &str,
    matched: Option<(usize, usize)>,
    chars_before: u64,
) -> String {
    let mark = if matched.is_some() { ':' } else { '-' };
    let max = config.max_line_chars;
    let budget = usize::try_from(config.budget_bytes() / 2).unwrap_or(usize::MAX);
    if (text.len() as u64) <= max && text.len() <= budget && chars_before == 0 {
        return format!("{number}{mark}{text}\n");
    }
    let chars = text.chars().count() as u64;
    if chars <= max && text.len() <= budget && chars_before == 0 {
        return format!("{number}{mark}{text}\n");
    }
    // A window of the cap's size with the match a quarter of the way in.
    let match_char = matched.map_or(0, |(start, _)| text[..start].chars().count() as u64);
    let lead = (max / 4).min(match_char);
    let mut from = match_char - lead;
    if chars.saturating_sub(from) < max {
        from = chars.saturating_sub(max);
    }
    let start = text
        .char_indices()
        .nth(usize::try_from(from).unwrap_or(usize::MAX))
        .map_or(text.len(), |(i, _)| i);
    let rest = &text[start..];
    let end = start + cut_point(rest, max, budget);
    let shown = &text[start..end];
    let shown_chars = shown.chars().count() as u64;
    let long = LongLine {
        line: number,
        from: chars_before + from + 1,
        to: chars_before + from + shown_chars,
        chars: chars_before + chars,
    };
    format!("{number}{mark}{shown}\n{long}\n")
}

/// The answer: the page, the footer, what was skipped.
fn finish(page: Page<'_>, skipped: &Skipped, searched: u64, rel: &str) -> ToolResult {
    let Page {
        config,
        args,
        mut text,
        entries,
        shown,
        cut,
        matches,
        files_matched,
        versions,
        changed,
        ..
    } = page;
    let unit = match args.output_mode {
        OutputMode::Content => Unit::Lines,
        _ => Unit::Files,
    };
    if shown == 0 && cut.is_none() {
        let past = (files_matched > 0).then_some((args.offset, entries));
        let no = NoMatch {
            pattern: &args.pattern,
            searched,
            offset: past,
            skipped: !skipped.is_empty(),
            by_name: false,
        };
        text = no.to_string();
    } else {
        let end = match cut {
            Some(why) => End::Cut {
                why,
                offset: args.offset + shown,
            },
            None => End::Complete {
                total: entries,
                matches: if args.output_mode == OutputMode::FilesWithMatches {
                    0
                } else {
                    matches
                },
                files: files_matched,
            },
        };
        let footer = Footer {
            unit,
            first: args.offset + 1,
            shown,
            searched,
            end,
        };
        let _ = write!(text, "{footer}");
    }
    if !changed.is_empty() {
        let mut names: Vec<&str> = changed
            .iter()
            .map(String::as_str)
            .take(MAX_CHANGED_NAMED)
            .collect();
        let more = changed.len().saturating_sub(MAX_CHANGED_NAMED);
        let etc = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        names.sort_unstable();
        let _ = write!(
            text,
            "\n[changed since you last saw them: {}{etc}; offset={} counts the lines as they are now]",
            names.join(", "),
            args.offset
        );
    }
    if !skipped.is_empty() {
        let _ = write!(text, "\n{skipped}");
    }
    let mode = match args.output_mode {
        OutputMode::Content => "content",
        OutputMode::FilesWithMatches => "files_with_matches",
        OutputMode::Count => "count",
    };
    let next_offset = cut.map(|_| args.offset + shown);
    let mut metadata = json!({
        "kind": "search",
        "path": rel,
        "output_mode": mode,
        "files_searched": searched,
        "files_matched": files_matched,
        "shown": shown,
        "truncated": cut.is_some(),
        "skipped": !skipped.is_empty(),
        "versions": versions,
    });
    if args.output_mode != OutputMode::FilesWithMatches {
        metadata["matching_lines"] = Value::from(matches);
    }
    if let Some(next) = next_offset {
        metadata["next_offset"] = Value::from(next);
    }
    metadata["estimated_tokens"] = Value::from(config.estimate_tokens(text.len() as u64));
    ToolResult::from_text(text, metadata)
}
