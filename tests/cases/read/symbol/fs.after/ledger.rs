//! An account ledger.

use std::collections::BTreeMap;
use std::fmt;

/// Largest amount one entry may carry.
pub const MAX_AMOUNT: i64 = 1_000_000;

static GREETING: &str = "ledger";

/// One booked movement.
#[derive(Debug, Clone)]
pub struct Entry {
    pub account: String,
    pub amount: i64,
}

/// Why a booking failed.
pub enum Refusal {
    TooLarge(i64),
    Unknown(String),
}

pub trait Book {
    fn book(&mut self, entry: Entry) -> Result<(), Refusal>;
    fn balance(&self, account: &str) -> i64;
}

pub struct Ledger {
    balances: BTreeMap<String, i64>,
}

impl Ledger {
    pub fn new() -> Self {
        Self {
            balances: BTreeMap::new(),
        }
    }

    pub(crate) fn accounts(&self) -> usize {
        self.balances.len()
    }
}

impl Book for Ledger {
    fn book(&mut self, entry: Entry) -> Result<(), Refusal> {
        if entry.amount.abs() > MAX_AMOUNT {
            return Err(Refusal::TooLarge(entry.amount));
        }
        *self.balances.entry(entry.account).or_default() += entry.amount;
        Ok(())
    }

    fn balance(&self, account: &str) -> i64 {
        self.balances.get(account).copied().unwrap_or(0)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::TooLarge(amount) => write!(f, "{amount} is too large"),
            Refusal::Unknown(account) => write!(f, "no account {account}"),
        }
    }
}

type Balances = BTreeMap<String, i64>;

macro_rules! entry {
    ($account:expr, $amount:expr) => {
        Entry { account: $account.to_string(), amount: $amount }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_an_entry() {
        let mut ledger = Ledger::new();
        ledger.book(entry!("cash", 5)).ok();
        assert_eq!(ledger.balance("cash"), 5);
    }
}
