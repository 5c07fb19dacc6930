//! The cores this process may run on, asked once: the answer costs system
//! calls (the affinity mask, the control group's quota), and the threads
//! that list and scan ahead ask at every directory and batch.

use std::sync::OnceLock;

/// The cores this process may run on (at least one).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}
