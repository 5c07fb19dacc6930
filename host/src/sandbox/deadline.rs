//! [`Deadline`]: when host work inside one call must stop. The epoch
//! deadline interrupts guest code only; a host that hashes, writes or lists
//! on the guest's behalf checks this between pieces of that work, so a call
//! never outlives its deadline by more than one piece (64 KiB read, 1 MiB
//! written, one directory entry).

use std::time::Instant;

use filetools_core::FsError;

/// The instant host work must stop by, or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub const NEVER: Self = Self(None);

    /// Host work must stop at `instant`.
    pub fn at(instant: Instant) -> Self {
        Self(Some(instant))
    }

    /// Whether the deadline has passed.
    pub fn passed(self) -> bool {
        self.0.is_some_and(|at| Instant::now() >= at)
    }

    /// An error once the deadline has passed.
    pub fn check(self) -> Result<(), FsError> {
        if self.passed() {
            return Err(FsError::Io(
                "the call's time limit passed during host work; nothing was changed".to_owned(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_passed_deadline_is_an_error_and_never_is_not() {
        assert!(Deadline::NEVER.check().is_ok());
        assert!(
            Deadline::at(Instant::now() + Duration::from_mins(1))
                .check()
                .is_ok()
        );
        assert!(matches!(
            Deadline::at(Instant::now()).check(),
            Err(FsError::Io(_))
        ));
    }
}
