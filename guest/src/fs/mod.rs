//! The host's files as the guest sees them: the [`host::HostFs`] trait (the
//! `host-fs` interface), [`memory::MemFs`] (a file system in memory),
//! [`recording::Recording`] (one that notes, or for a dry run holds back,
//! the writes of another) and the [`sha256`] of contents, which a host may
//! compute faster.

pub mod digests;
pub mod host;
pub mod memory;
pub mod recording;
pub mod sha256;
