//! A trapped call (SPEC S2): why the instance stopped, a fresh instance
//! resumed from the last checkpoint, and the answer the instance gives for
//! the call that trapped — naming the file and the limit — or, when no
//! instance can answer, the host's own.

use filetools_core::ToolResult;
use serde_json::json;
use wasmtime::Trap;

use super::memory::Memory;
use super::{Live, Session};
use crate::bindings::wit;

impl Session {
    /// Why `trap` stopped the live instance.
    pub(super) fn cause(&self, trap: &wasmtime::Error) -> wit::TrapCause {
        if self.live.store.data().limits.refused() {
            return wit::TrapCause::Memory(self.live.store.data().limits.limit() as u64);
        }
        match trap.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => wit::TrapCause::Time(
                u64::try_from(self.shared.call_timeout.as_millis()).unwrap_or(u64::MAX),
            ),
            Some(Trap::StackOverflow) => wit::TrapCause::Stack,
            Some(code) => wit::TrapCause::Fault(code.to_string()),
            None => wit::TrapCause::Fault(format!("{trap:#}")),
        }
    }

    /// Replaces the live instance with a fresh one resumed from the last
    /// checkpoint. When that fails, the session goes on with empty memory
    /// and [`Session::save`] refuses from then on; when no instance can be
    /// made, the dead one stays and the next call tries again.
    pub(super) fn restart(&mut self) {
        let Ok(mut live) = Live::new(&self.shared) else {
            self.memory.lost = true;
            return;
        };
        if let Some(core) = &self.memory.core {
            let kept = self.memory.kept(core);
            let resumed = live.bindings.filetools_core_tools().session().call_resume(
                &mut live.store,
                live.handle,
                &kept,
            );
            if let Ok(Ok(held)) = resumed {
                self.memory.held = held;
            } else {
                self.memory = Memory {
                    lost: true,
                    ..Memory::default()
                };
                // A failed resume may have left the instance dead too.
                if let Ok(fresh) = Live::new(&self.shared) {
                    live = fresh;
                }
            }
        }
        self.live = live;
    }

    /// The answer to the call `tool` that trapped for `cause`, from the
    /// live instance (restarted after the trap).
    pub(super) fn trapped(
        &mut self,
        tool: &str,
        arguments: &str,
        cause: &wit::TrapCause,
    ) -> ToolResult {
        self.arm();
        let kept = !self.memory.lost;
        let live = &mut self.live;
        let answer = live.bindings.filetools_core_tools().call_trapped(
            &mut live.store,
            tool,
            arguments,
            cause,
            kept,
        );
        match answer {
            Ok(result) => result.into(),
            Err(err) => {
                // The instance that could not answer may be dead too: the
                // next call gets a fresh one.
                self.restart();
                let again = err
                    .downcast_ref::<Trap>()
                    .map_or_else(|| "a fault".to_owned(), ToString::to_string);
                ToolResult::failure(
                    format!(
                        "Error: the {tool} call stopped ({}), and no new instance could answer for it ({again}); start a new session.",
                        cause_words(cause)
                    ),
                    "guest_trap",
                )
            }
        }
    }
}

/// What stopped a call, in words for the model.
fn cause_words(cause: &wit::TrapCause) -> String {
    match cause {
        wit::TrapCause::Memory(limit) => {
            format!("it needed more than its {} MiB of memory", limit >> 20)
        }
        wit::TrapCause::Time(ms) => format!("it ran past its {ms} ms"),
        wit::TrapCause::Stack => "it ran out of stack".to_owned(),
        wit::TrapCause::Fault(what) => {
            let first = what.lines().next().unwrap_or_default();
            let shown: String = first.chars().take(FAULT_CHARS).collect();
            format!("a fault: {shown}")
        }
    }
}

/// Characters of a fault's description a fallback answer shows.
const FAULT_CHARS: usize = 200;

/// Arguments longer than this reach a trapped call's answer as the file
/// they name only: the whole may be what did not fit.
const TRAPPED_ARGUMENTS_CAP: usize = 64 * 1024;

/// A raw call's arguments as far as its trapped answer needs them.
pub(super) fn trapped_arguments(arguments: &str) -> String {
    if arguments.len() <= TRAPPED_ARGUMENTS_CAP {
        return arguments.to_owned();
    }
    let value: Option<serde_json::Value> = serde_json::from_str(arguments).ok();
    let path = value.as_ref().and_then(|v| {
        ["file_path", "path", "notebook_path"]
            .iter()
            .find_map(|key| v.get(key)?.as_str())
    });
    path.map_or_else(|| "{}".to_owned(), naming)
}

/// A call's JSON arguments as far as a trapped call's answer needs them.
pub(super) fn naming(file_path: &str) -> String {
    json!({ "file_path": file_path }).to_string()
}
