//! [`Session::grep`] and [`Session::find`]: the searches, with what a
//! `grep` showed recorded in the ledger as views of each file (SPEC G2),
//! so that an `edit` of a line it showed needs no `read`, and a file that
//! changed after the search is handled as any stale view.

use crate::answers::error::ToolError;
use crate::answers::result::ToolResult;
use crate::fs::host::HostFs;
use crate::memory::ledger::{Observation, ReadKey};
use crate::tools::session::{Session, noted};
use crate::view::search::args::{FindArgs, GrepArgs};
use crate::view::search::{find, grep};

impl<F: HostFs> Session<F> {
    /// `grep` with typed arguments.
    pub fn grep(&mut self, args: &GrepArgs) -> ToolResult {
        self.entered(|session| {
            session.run(|ctx| {
                let args = args.clone().checked()?;
                let grepped = grep::grep(
                    ctx.config,
                    ctx.fs,
                    &args,
                    &ctx.state.repairs,
                    &ctx.state.ledger,
                )?;
                let target = grepped.target;
                if target.respelled() {
                    ctx.state
                        .repairs
                        .insert(target.asked.clone(), target.rel.clone());
                }
                for view in grepped.views {
                    let scanned = &view.scanned;
                    for &(first, last) in &view.ranges {
                        let shown = Observation {
                            // What was read, when read whole.
                            size: scanned
                                .fingerprint
                                .map_or(view.meta.size, |_| scanned.bytes),
                            mtime_ns: view.meta.mtime_ns,
                            fingerprint: scanned.fingerprint,
                            lines: Some((first, last)),
                            total: scanned.total_lines,
                            style: scanned.style,
                            content: false,
                            text: None,
                        };
                        let key = ReadKey::lines(first, last);
                        let call = ctx.state.calls;
                        ctx.state.ledger.observe(&view.rel, &shown, call, key);
                    }
                    if let Some(text) = &scanned.copy {
                        ctx.state.keep_view(&view.rel, text, ctx.config);
                    }
                }
                Ok::<_, ToolError>(noted(grepped.result, &target))
            })
        })
    }

    /// `find` with typed arguments.
    pub fn find(&mut self, args: &FindArgs) -> ToolResult {
        self.entered(|session| {
            session.run(|ctx| {
                let args = args.clone().checked()?;
                let (result, target) = find::find(ctx.config, ctx.fs, &args, &ctx.state.repairs)?;
                if target.respelled() {
                    ctx.state
                        .repairs
                        .insert(target.asked.clone(), target.rel.clone());
                }
                Ok(noted(result, &target))
            })
        })
    }
}
