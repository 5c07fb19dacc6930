//! Why a path sent by the model is refused before any file is touched:
//! it cannot be mapped into the workspace ([`PathError`]), or it names a
//! device, process or kernel file ([`Danger`]).

/// Why a path cannot be mapped into the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The path is empty or only whitespace.
    Empty,
    /// The path contains a NUL byte.
    Nul,
    /// The path is absolute outside the root, or `..` climbs above it.
    OutsideRoot,
    /// The path is longer than any path can be.
    TooLong,
}

/// Why a path is refused by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Danger {
    /// A device or process file: reading it can block or never end.
    Device,
    /// A file of the kernel's `/proc` or `/sys`.
    Kernel,
}
