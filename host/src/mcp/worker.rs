//! The session's calls, run on one thread, one at a time, in the order the
//! client sent them: a model that sends a read and then an edit of what it
//! read, or twenty dependent edits at once, gets them run as sent, and a
//! thousand pipelined calls hold one thread, not a thousand.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use anyhow::{Context as _, Result};
use tokio::sync::oneshot;

use crate::{Session, ToolResult};

/// One queued call.
struct Job {
    tool: String,
    arguments: String,
    cancel: Arc<AtomicBool>,
    answer: oneshot::Sender<ToolResult>,
}

/// What runs after every call, e.g. saving the session.
pub type AfterCall = Box<dyn FnMut(&mut Session) + Send>;

/// The thread that owns the session and runs its calls.
#[derive(Debug)]
pub(super) struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    /// Starts the thread, which runs `after` after each call; it ends
    /// when the worker is dropped.
    pub(super) fn start(mut session: Session, mut after: AfterCall) -> Result<Self> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("filetools-calls".to_owned())
            .spawn(move || {
                for job in queue {
                    let result = session.call_cancellable(&job.tool, &job.arguments, &job.cancel);
                    after(&mut session);
                    // A caller that went away no longer needs the answer.
                    let _ = job.answer.send(result);
                }
            })
            .context("starting the thread that runs the calls")?;
        Ok(Self { jobs })
    }

    /// Queues a call behind every call queued before it; its answer comes
    /// when it has run. `cancel` stops a read (see
    /// [`Session::call_cancellable`]).
    pub(super) fn queue(
        &self,
        tool: String,
        arguments: String,
        cancel: Arc<AtomicBool>,
    ) -> oneshot::Receiver<ToolResult> {
        let (answer, answered) = oneshot::channel();
        let job = Job {
            tool,
            arguments,
            cancel,
            answer,
        };
        // A send fails only when the thread is gone; the dropped job then
        // closes `answered`, which the caller reports.
        let _ = self.jobs.send(job);
        answered
    }
}
