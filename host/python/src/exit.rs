//! Interpreter exit: once `closing` ran (from `atexit`), no file system's
//! method is called again. A thread still running a call then gets file
//! errors, and the methods being called are given a moment to return, so
//! no thread enters Python while the interpreter is being finalised (a
//! daemon thread that did would be ended inside the host's frames).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

/// Set once the interpreter exits.
static CLOSING: AtomicBool = AtomicBool::new(false);
/// Methods being called now, on any thread.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// How long exit waits for the methods being called to return.
const EXIT_WAIT: Duration = Duration::from_secs(2);

/// Runs `method` unless the interpreter is exiting (then gives `refused`),
/// counted among the methods being called.
pub fn unless_closing<T>(refused: impl FnOnce() -> T, method: impl FnOnce() -> T) -> T {
    IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
    let done = if CLOSING.load(Ordering::SeqCst) {
        refused()
    } else {
        method()
    };
    IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    done
}

/// Stops calling file systems' methods, then waits (GIL released, at most
/// two seconds) for those being called to return.
#[pyfunction]
pub fn closing(py: Python<'_>) {
    CLOSING.store(true, Ordering::SeqCst);
    py.detach(|| {
        let started = Instant::now();
        while IN_FLIGHT.load(Ordering::SeqCst) > 0 && started.elapsed() < EXIT_WAIT {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}
