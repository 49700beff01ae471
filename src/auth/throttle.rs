//! Slows down password guessing, and keeps a burst of logins from exhausting the server.
//!
//! - Every attempt is counted in the database *before* its password is hashed: at most
//!   [`MAX_ATTEMPTS_PER_ACCOUNT`] per account and [`MAX_ATTEMPTS_PER_ADDRESS`] per client
//!   address reach the hash within [`WINDOW`]; the rest are refused without hashing. The
//!   count lives in the database, so several instances share it, and the lock ends by itself
//!   when the window has passed (or earlier with `aktionsportal user unlock`).
//! - Hashes are computed in a bounded pool: a few at a time on the blocking threads (argon2
//!   takes about 19 MiB each); a login that waits too long for its turn is refused politely.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Semaphore;

use crate::db::{self, Db};

/// Attempts per account that reach the password check within `WINDOW`.
pub const MAX_ATTEMPTS_PER_ACCOUNT: i64 = 5;
/// Attempts per client address within `WINDOW` (several users may share one address).
pub const MAX_ATTEMPTS_PER_ADDRESS: i64 = 20;
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThrottleKey {
    Account(String),
    Address(IpAddr),
    /// OpenID logins started from a client address: each start writes a row, so a flood of
    /// starts is refused like a flood of password guesses. A finished login gives its start
    /// back.
    LoginStart(IpAddr),
}

impl ThrottleKey {
    fn limit(&self) -> i64 {
        match self {
            ThrottleKey::Account(_) => MAX_ATTEMPTS_PER_ACCOUNT,
            ThrottleKey::Address(_) | ThrottleKey::LoginStart(_) => MAX_ATTEMPTS_PER_ADDRESS,
        }
    }

    /// The key as stored. IPv6 clients count per /64 network: one subscriber gets a whole
    /// /64 and could otherwise change addresses at will.
    pub fn stored(&self) -> String {
        match self {
            ThrottleKey::Account(login) => format!("account:{}", login.trim().to_lowercase()),
            ThrottleKey::Address(ip) => format!("address:{}", network_of(*ip)),
            ThrottleKey::LoginStart(ip) => format!("start:{}", network_of(*ip)),
        }
    }
}

/// An IPv4 address, or the /64 network of an IPv6 one.
fn network_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = ip.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Why an attempt may not go on.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// Too many attempts in the window; try again after the duration.
    #[error("throttled")]
    Throttled(Duration),
    /// No hashing place became free in time.
    #[error("busy")]
    Busy,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// Attempts counted for one login; settle them with [`Reservation::succeeded`] or
/// [`Reservation::give_back`], or leave them counted (a failed guess).
pub struct Reservation {
    keys: Vec<String>,
}

impl Reservation {
    /// A successful login: the account starts afresh and the address gets its attempt back.
    pub async fn succeeded(self, db: &Db) -> Result<(), sqlx::Error> {
        let now = db::now();
        for key in &self.keys {
            if key.starts_with("account:") {
                db::accounts::login_attempts::clear(db, key).await?;
            } else {
                db::accounts::login_attempts::release(db, key, now).await?;
            }
        }
        Ok(())
    }

    /// The password was never checked (the server was busy): nothing counts.
    pub async fn give_back(self, db: &Db) -> Result<(), sqlx::Error> {
        let now = db::now();
        for key in &self.keys {
            db::accounts::login_attempts::release(db, key, now).await?;
        }
        Ok(())
    }
}

/// Counts an attempt for every key, in order; refuses at the first key over its limit and
/// gives the attempt back to the keys before it. So an attempt the account's limit refuses
/// never uses up the address's budget (else a burst on one account, refused by the account,
/// could crowd its own allowed guesses out of the address limit).
pub async fn reserve(db: &Db, keys: &[ThrottleKey]) -> Result<Reservation, GateError> {
    let now = db::now();
    let window = chrono::Duration::from_std(WINDOW).expect("window fits");
    for (n, key) in keys.iter().enumerate() {
        let (attempts, window_start) =
            db::accounts::login_attempts::reserve(db, &key.stored(), now, now - window).await?;
        if attempts > key.limit() {
            for counted in &keys[..n] {
                db::accounts::login_attempts::release(db, &counted.stored(), now).await?;
            }
            crate::metrics::login_throttled();
            return Err(GateError::Throttled(remaining(window_start + window, now)));
        }
    }
    Ok(Reservation {
        keys: keys.iter().map(ThrottleKey::stored).collect(),
    })
}

/// Counts an OpenID login start from `ip`; `Throttled` when too many were started within the
/// window without being finished.
pub async fn reserve_login_start(db: &Db, ip: IpAddr) -> Result<(), GateError> {
    reserve(db, &[ThrottleKey::LoginStart(ip)]).await.map(drop)
}

/// A finished OpenID login gives the start of its address back.
pub async fn login_finished(db: &Db, ip: IpAddr) -> Result<(), sqlx::Error> {
    db::accounts::login_attempts::release(db, &ThrottleKey::LoginStart(ip).stored(), db::now())
        .await
}

fn remaining(ends: DateTime<Utc>, now: DateTime<Utc>) -> Duration {
    (ends - now).to_std().unwrap_or(Duration::ZERO)
}

/// The bounded pool that password hashes run in.
#[derive(Clone)]
pub struct HashPool {
    places: Arc<Semaphore>,
    wait: Duration,
}

impl HashPool {
    pub fn new(places: usize, wait: Duration) -> HashPool {
        HashPool {
            places: Arc::new(Semaphore::new(places.max(1))),
            wait,
        }
    }

    /// Runs `work` on a blocking thread once a place is free; `Busy` after waiting too long.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, GateError> {
        let place = tokio::time::timeout(self.wait, self.places.clone().acquire_owned())
            .await
            .map_err(|_| GateError::Busy)?
            .map_err(|_| GateError::Busy)?;
        let result = tokio::task::spawn_blocking(move || {
            let result = work();
            drop(place);
            result
        })
        .await
        .map_err(anyhow::Error::from)?;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TestDb;

    fn keys(login: &str, ip: [u8; 4]) -> [ThrottleKey; 2] {
        [
            ThrottleKey::Account(login.into()),
            ThrottleKey::Address(ip.into()),
        ]
    }

    #[test]
    fn keys_are_stored_by_account_and_network() {
        assert_eq!(
            ThrottleKey::Account(" Erika ".into()).stored(),
            "account:erika"
        );
        assert_eq!(
            ThrottleKey::Address("192.0.2.7".parse().unwrap()).stored(),
            "address:192.0.2.7"
        );
        let a = ThrottleKey::Address("2001:db8:1:2:aaaa::1".parse().unwrap()).stored();
        let b = ThrottleKey::Address("2001:db8:1:2:bbbb::9".parse().unwrap()).stored();
        assert_eq!(a, b, "one /64 is one client");
        assert_eq!(
            ThrottleKey::Address("::ffff:192.0.2.7".parse().unwrap()).stored(),
            "address:192.0.2.7"
        );
    }

    #[tokio::test]
    async fn the_sixth_attempt_on_an_account_is_refused_until_the_window_ends() {
        let test = TestDb::new().await;
        for _ in 0..MAX_ATTEMPTS_PER_ACCOUNT {
            reserve(&test.db, &keys("erika", [10, 0, 0, 1]))
                .await
                .unwrap();
        }
        let Err(GateError::Throttled(wait)) =
            reserve(&test.db, &keys("erika", [10, 0, 0, 2])).await
        else {
            panic!("the sixth attempt must be refused");
        };
        assert!(
            wait > Duration::from_secs(14 * 60) && wait <= WINDOW,
            "{wait:?}"
        );
        assert!(
            reserve(&test.db, &keys("max", [10, 0, 0, 2])).await.is_ok(),
            "other accounts are not affected"
        );
    }

    #[tokio::test]
    async fn attempts_the_account_refuses_leave_the_address_budget_alone() {
        let test = TestDb::new().await;
        let mut allowed = 0;
        for _ in 0..(MAX_ATTEMPTS_PER_ADDRESS * 3) {
            if reserve(&test.db, &keys("erika", [192, 0, 2, 9]))
                .await
                .is_ok()
            {
                allowed += 1;
            }
        }
        assert_eq!(allowed, MAX_ATTEMPTS_PER_ACCOUNT);
        assert!(
            reserve(&test.db, &keys("max", [192, 0, 2, 9]))
                .await
                .is_ok(),
            "the address used only the account's five attempts"
        );
    }

    #[tokio::test]
    async fn one_address_guessing_many_accounts_is_stopped() {
        let test = TestDb::new().await;
        for i in 0..MAX_ATTEMPTS_PER_ADDRESS {
            reserve(&test.db, &keys(&format!("user{i}"), [192, 0, 2, 7]))
                .await
                .unwrap();
        }
        assert!(
            reserve(&test.db, &keys("neu", [192, 0, 2, 7]))
                .await
                .is_err()
        );
        assert!(
            reserve(&test.db, &keys("neu2", [192, 0, 2, 8]))
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn success_clears_the_account_and_gives_the_address_its_attempt_back() {
        let test = TestDb::new().await;
        for _ in 0..MAX_ATTEMPTS_PER_ACCOUNT - 1 {
            reserve(&test.db, &keys("erika", [10, 0, 0, 1]))
                .await
                .unwrap();
        }
        let last = reserve(&test.db, &keys("erika", [10, 0, 0, 1]))
            .await
            .unwrap();
        last.succeeded(&test.db).await.unwrap();
        for _ in 0..MAX_ATTEMPTS_PER_ACCOUNT {
            reserve(&test.db, &keys("erika", [10, 0, 0, 3]))
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn the_hash_pool_runs_a_bounded_number_at_once() {
        let pool = HashPool::new(2, Duration::from_millis(200));
        let running = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let peak = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    pool.run(move || {
                        use std::sync::atomic::Ordering::SeqCst;
                        let now = running.fetch_add(1, SeqCst) + 1;
                        peak.fetch_max(now, SeqCst);
                        std::thread::sleep(Duration::from_millis(150));
                        running.fetch_sub(1, SeqCst);
                    })
                    .await
                })
            })
            .collect();
        let mut busy = 0;
        for job in jobs {
            if matches!(job.await.unwrap(), Err(GateError::Busy)) {
                busy += 1;
            }
        }
        assert!(peak.load(std::sync::atomic::Ordering::SeqCst) <= 2);
        assert!(busy >= 1, "waiting longer than allowed ends in Busy");
    }
}
