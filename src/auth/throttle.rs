//! Slows down password guessing: too many failed logins for one account or from one address
//! within a window refuse further attempts until the window has passed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed attempts allowed per account within `WINDOW`.
pub const MAX_FAILURES_PER_ACCOUNT: u32 = 5;
/// Failed attempts allowed per client address within `WINDOW` (several users may share one).
pub const MAX_FAILURES_PER_ADDRESS: u32 = 20;
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThrottleKey {
    Account(String),
    Address(std::net::IpAddr),
}

impl ThrottleKey {
    fn limit(&self) -> u32 {
        match self {
            ThrottleKey::Account(_) => MAX_FAILURES_PER_ACCOUNT,
            ThrottleKey::Address(_) => MAX_FAILURES_PER_ADDRESS,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    window_start: Instant,
}

#[derive(Default)]
pub struct LoginThrottle {
    failures: Mutex<HashMap<ThrottleKey, Failures>>,
}

impl LoginThrottle {
    /// `Err(wait)` when any of the keys has used up its attempts.
    pub fn check(&self, keys: &[ThrottleKey], now: Instant) -> Result<(), Duration> {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let wait = keys
            .iter()
            .filter_map(|key| {
                let entry = failures.get(key)?;
                let ends = entry.window_start + WINDOW;
                (entry.count >= key.limit() && ends > now).then(|| ends - now)
            })
            .max();
        wait.map_or(Ok(()), Err)
    }

    pub fn record_failure(&self, keys: &[ThrottleKey], now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        // Forget old windows so the map cannot grow without bound.
        failures.retain(|_, f| f.window_start + WINDOW > now);
        for key in keys {
            let entry = failures.entry(key.clone()).or_insert(Failures {
                count: 0,
                window_start: now,
            });
            entry.count += 1;
        }
    }

    /// A successful login clears the account's failures (not the address's).
    pub fn record_success(&self, account: &ThrottleKey) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.remove(account);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(login: &str, ip: [u8; 4]) -> [ThrottleKey; 2] {
        [
            ThrottleKey::Account(login.into()),
            ThrottleKey::Address(ip.into()),
        ]
    }

    #[test]
    fn the_sixth_attempt_on_an_account_waits_for_the_window() {
        let throttle = LoginThrottle::default();
        let start = Instant::now();
        for _ in 0..MAX_FAILURES_PER_ACCOUNT {
            assert!(throttle.check(&keys("erika", [10, 0, 0, 1]), start).is_ok());
            throttle.record_failure(&keys("erika", [10, 0, 0, 1]), start);
        }
        let wait = throttle
            .check(&keys("erika", [10, 0, 0, 2]), start)
            .unwrap_err();
        assert_eq!(wait, WINDOW);
        assert!(
            throttle.check(&keys("max", [10, 0, 0, 2]), start).is_ok(),
            "other accounts are not affected"
        );
        assert!(
            throttle
                .check(&keys("erika", [10, 0, 0, 2]), start + WINDOW)
                .is_ok(),
            "the window passes"
        );
    }

    #[test]
    fn one_address_guessing_many_accounts_is_stopped() {
        let throttle = LoginThrottle::default();
        let now = Instant::now();
        for i in 0..MAX_FAILURES_PER_ADDRESS {
            throttle.record_failure(&keys(&format!("user{i}"), [192, 0, 2, 7]), now);
        }
        assert!(throttle.check(&keys("neu", [192, 0, 2, 7]), now).is_err());
        assert!(throttle.check(&keys("neu", [192, 0, 2, 8]), now).is_ok());
    }

    #[test]
    fn success_clears_the_account() {
        let throttle = LoginThrottle::default();
        let now = Instant::now();
        for _ in 0..MAX_FAILURES_PER_ACCOUNT {
            throttle.record_failure(&keys("erika", [10, 0, 0, 1]), now);
        }
        throttle.record_success(&ThrottleKey::Account("erika".into()));
        assert!(throttle.check(&keys("erika", [10, 0, 0, 3]), now).is_ok());
    }
}
