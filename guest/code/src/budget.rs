//! What one outline parse may spend (SPEC R5, S2). tree-sitter recovers
//! from errors by keeping many parse stacks alive; on megabytes of garbage
//! tokens that takes minutes and hundreds of megabytes, while 4 MB of real
//! code parses in about a third of a second. A parse is therefore stopped
//! after [`MAX_PARSE_TIME`] or at [`MAX_PARSE_BYTES`] of memory, and the
//! file is shown by its head and tail instead. (tree-sitter's own operation
//! count is no measure of time here: in error recovery a hundred operations
//! took over 100 ms.) Only files far from real code come near either limit,
//! so the answer is the same on every host in practice, though a host slow
//! enough could stop a huge parse that a fast one finishes.
//!
//! tree-sitter's memory is counted by routing its allocations through Rust's
//! allocator with a size header (`ts_set_allocator`), installed once before
//! the first parser exists.

use std::alloc::{Layout, alloc, alloc_zeroed, dealloc, handle_alloc_error, realloc};
use std::ffi::c_void;
use std::ops::ControlFlow;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use filetools_code_types::{MAX_PARSE_BYTES, MAX_PARSE_TIME, Stopped};

/// Bytes before each allocation, holding its size (and keeping the
/// alignment `malloc` gives).
const HEADER: usize = 16;

/// Bytes tree-sitter holds now.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The spending of one parse, checked at each progress report.
#[derive(Debug)]
pub struct Meter {
    started: Instant,
    /// Why it was stopped, once it was.
    pub stopped: Option<Stopped>,
}

impl Meter {
    /// A meter for a new parse; installs the counting allocator the first
    /// time.
    pub fn start() -> Self {
        install();
        Self {
            started: Instant::now(),
            stopped: None,
        }
    }

    /// Called at each progress report: whether the parse may go on.
    pub fn report(&mut self) -> ControlFlow<()> {
        if LIVE.load(Ordering::Relaxed) > MAX_PARSE_BYTES {
            self.stopped = Some(Stopped::Memory);
        } else if self.started.elapsed() > MAX_PARSE_TIME {
            self.stopped = Some(Stopped::Time);
        }
        if self.stopped.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// A parser that allocates through the metered allocator. Every parser is
/// made here, so the allocator is in place before the first one exists.
pub(crate) fn parser() -> tree_sitter::Parser {
    install();
    tree_sitter::Parser::new()
}

fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let allocator = tree_sitter::Allocator {
            malloc: ts_malloc,
            calloc: ts_calloc,
            realloc: ts_realloc,
            free: ts_free,
        };
        // SAFETY: called once, before any parser exists (every parser is
        // made by `parser`, after this); the four functions are one family
        // over Rust's allocator, never return null (an allocation failure
        // aborts, as libc's would in tree-sitter) and align as malloc does.
        unsafe { tree_sitter::set_allocator(Some(allocator)) };
    });
}

fn layout(size: usize) -> Layout {
    Layout::from_size_align(size + HEADER, HEADER).unwrap_or_else(|_| Layout::new::<u128>())
}

/// Allocates `size` bytes with a header, zeroed when asked.
///
/// # Safety
/// Called by tree-sitter as `malloc`.
unsafe fn allocate(size: usize, zeroed: bool) -> *mut c_void {
    let layout = layout(size);
    // SAFETY: the layout has a non-zero size (it includes the header).
    let base = unsafe {
        if zeroed {
            alloc_zeroed(layout)
        } else {
            alloc(layout)
        }
    };
    if base.is_null() {
        handle_alloc_error(layout);
    }
    LIVE.fetch_add(size, Ordering::Relaxed);
    // SAFETY: `base` has room for the header, which is aligned for a usize.
    unsafe {
        base.cast::<usize>().write_unaligned(size);
        base.add(HEADER).cast()
    }
}

unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    // SAFETY: as `malloc`.
    unsafe { allocate(size, false) }
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
    let Some(total) = count.checked_mul(size) else {
        handle_alloc_error(Layout::new::<u128>());
    };
    // SAFETY: as `calloc`.
    unsafe { allocate(total, true) }
}

unsafe extern "C" fn ts_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    if ptr.is_null() {
        // SAFETY: as `malloc`.
        return unsafe { allocate(size, false) };
    }
    // SAFETY: `ptr` came from `allocate`, so its header lies before it.
    unsafe {
        let base = ptr.cast::<u8>().sub(HEADER);
        let old = base.cast::<usize>().read_unaligned();
        let grown = realloc(base, layout(old), size + HEADER);
        if grown.is_null() {
            handle_alloc_error(layout(size));
        }
        grown.cast::<usize>().write_unaligned(size);
        LIVE.fetch_sub(old, Ordering::Relaxed);
        LIVE.fetch_add(size, Ordering::Relaxed);
        grown.add(HEADER).cast()
    }
}

unsafe extern "C" fn ts_free(ptr: *mut c_void) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: `ptr` came from `allocate`, so its header lies before it.
    unsafe {
        let base = ptr.cast::<u8>().sub(HEADER);
        let size = base.cast::<usize>().read_unaligned();
        LIVE.fetch_sub(size, Ordering::Relaxed);
        dealloc(base, layout(size));
    }
}
