//! What a session remembers between calls: the [`ledger`] of what was read
//! (with each file's [`fingerprint`] and [`version`]), the [`history`] of
//! replaced versions for undo, the texts the model last saw (`seen`), and
//! the turn [`marks`] a rewind goes back to, and their saved and
//! checkpointed form ([`state`]), checkpointed by what changed (`stamps`).

pub mod fingerprint;
pub mod history;
pub mod ledger;
pub mod marks;
pub(crate) mod seen;
pub(crate) mod stamps;
pub mod state;
pub mod version;
