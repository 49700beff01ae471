//! Client-side pacing, back-off and retry decisions (external-apis §1.3).

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use reqwest::header::HeaderMap;
use tokio::time::Instant;

/// Spaces requests evenly: at most `per_second` request starts per second, shared by every
/// clone of the client (the pacer lives behind the client's `Arc`).
///
/// A next-slot scheduler rather than a bursty token bucket: Brevo counts `/contacts/...`
/// requests per second per account, and evenly spaced requests stay inside any one-second
/// window Brevo may use.
#[derive(Debug)]
pub(crate) struct Pacer {
    interval: Option<Duration>,
    next_slot: Mutex<Option<Instant>>,
}

impl Pacer {
    /// `per_second == 0` switches pacing off.
    pub(crate) fn new(per_second: u32) -> Self {
        Self {
            interval: (per_second > 0).then(|| Duration::from_secs(1) / per_second),
            next_slot: Mutex::new(None),
        }
    }

    /// Waits for this caller's slot. A caller dropped while waiting leaves its slot unused.
    pub(crate) async fn wait(&self) {
        let Some(interval) = self.interval else {
            return;
        };
        let slot = {
            let mut next = self
                .next_slot
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            let slot = next.map_or(now, |n| n.max(now));
            *next = Some(slot + interval);
            slot
        };
        tokio::time::sleep_until(slot).await;
    }
}

/// Exponential back-off before retry number `attempt + 1` (`attempt` starts at 0):
/// base, 2·base, 4·base, … capped at `cap`.
pub(crate) fn backoff_delay(attempt: u32, base: Duration, cap: Duration) -> Duration {
    let factor = 1u32.checked_shl(attempt.min(31)).unwrap_or(u32::MAX);
    base.saturating_mul(factor).min(cap)
}

/// Seconds until Brevo's rate-limit window resets (`x-sib-ratelimit-reset`), if the header is
/// present and a non-negative number.
pub(crate) fn reset_after(headers: &HeaderMap) -> Option<Duration> {
    let raw = headers.get("x-sib-ratelimit-reset")?.to_str().ok()?.trim();
    let secs: f64 = raw.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

/// What to do after a 429.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RateLimitWait {
    /// Sleep this long, then retry.
    Retry(Duration),
    /// The window resets later than we are willing to wait: give up now instead of sleeping
    /// in vain (e.g. the 100 requests/hour bucket).
    GiveUp,
}

/// The wait after a 429: the reset header when present (a reset of 0 falls back to the
/// back-off so we do not hammer), otherwise the back-off.
pub(crate) fn rate_limit_wait(
    reset: Option<Duration>,
    backoff: Duration,
    max_wait: Duration,
) -> RateLimitWait {
    match reset {
        Some(reset) if reset > max_wait => RateLimitWait::GiveUp,
        Some(reset) if !reset.is_zero() => RateLimitWait::Retry(reset),
        _ => RateLimitWait::Retry(backoff.min(max_wait)),
    }
}

/// Why an attempt failed without a usable answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Brevo answered with this status (>= 500 or 429).
    Status(u16),
    /// The per-request timeout fired; the request may have reached Brevo.
    Timeout,
    /// No connection could be made; the request was not sent.
    Connect,
    /// Anything else on the wire (reset connection, broken body); the request may have arrived.
    Transport,
}

/// Whether a failed attempt may be repeated.
///
/// Idempotent requests (GET, PUT, DELETE) are repeated on 429, 5xx, timeouts and transport
/// errors. A POST creates something, so it is repeated only when Brevo certainly did not act
/// on it: 429, 502/503/504 (a gateway answered, or Brevo refused) or a failed connect.
pub(crate) fn may_retry(idempotent: bool, failure: Failure) -> bool {
    match failure {
        Failure::Status(429 | 502 | 503 | 504) | Failure::Connect => true,
        Failure::Status(status) => idempotent && status >= 500,
        Failure::Timeout | Failure::Transport => idempotent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn backoff_doubles_and_caps() {
        let base = 200 * MS;
        let cap = Duration::from_secs(5);
        let delays: Vec<_> = (0..6).map(|a| backoff_delay(a, base, cap)).collect();
        assert_eq!(
            delays,
            vec![200 * MS, 400 * MS, 800 * MS, 1600 * MS, 3200 * MS, cap]
        );
        assert_eq!(backoff_delay(200, base, cap), cap);
    }

    #[test]
    fn reset_header_parsing() {
        let mut headers = HeaderMap::new();
        assert_eq!(reset_after(&headers), None);
        headers.insert("x-sib-ratelimit-reset", HeaderValue::from_static("3"));
        assert_eq!(reset_after(&headers), Some(Duration::from_secs(3)));
        headers.insert("x-sib-ratelimit-reset", HeaderValue::from_static(" 0.5 "));
        assert_eq!(reset_after(&headers), Some(500 * MS));
        headers.insert("x-sib-ratelimit-reset", HeaderValue::from_static("-1"));
        assert_eq!(reset_after(&headers), None);
        headers.insert("x-sib-ratelimit-reset", HeaderValue::from_static("soon"));
        assert_eq!(reset_after(&headers), None);
    }

    #[test]
    fn rate_limit_wait_rules() {
        let backoff = 200 * MS;
        let max = Duration::from_secs(10);
        assert_eq!(
            rate_limit_wait(Some(Duration::from_secs(2)), backoff, max),
            RateLimitWait::Retry(Duration::from_secs(2))
        );
        assert_eq!(
            rate_limit_wait(None, backoff, max),
            RateLimitWait::Retry(backoff)
        );
        assert_eq!(
            rate_limit_wait(Some(Duration::ZERO), backoff, max),
            RateLimitWait::Retry(backoff)
        );
        assert_eq!(
            rate_limit_wait(Some(Duration::from_secs(3600)), backoff, max),
            RateLimitWait::GiveUp
        );
    }

    #[test]
    fn retry_table() {
        for idempotent in [true, false] {
            assert!(may_retry(idempotent, Failure::Status(429)));
            assert!(may_retry(idempotent, Failure::Status(502)));
            assert!(may_retry(idempotent, Failure::Status(503)));
            assert!(may_retry(idempotent, Failure::Status(504)));
            assert!(may_retry(idempotent, Failure::Connect));
            assert_eq!(may_retry(idempotent, Failure::Status(500)), idempotent);
            assert_eq!(may_retry(idempotent, Failure::Timeout), idempotent);
            assert_eq!(may_retry(idempotent, Failure::Transport), idempotent);
        }
    }

    #[tokio::test]
    async fn pacer_spaces_requests() {
        // 100 per second: one slot every 10 ms; the first is immediate.
        let pacer = Pacer::new(100);
        let start = Instant::now();
        for _ in 0..11 {
            pacer.wait().await;
        }
        assert!(start.elapsed() >= Duration::from_millis(100));
        let off = Pacer::new(0);
        let start = Instant::now();
        for _ in 0..100 {
            off.wait().await;
        }
        assert!(start.elapsed() < Duration::from_millis(50));
    }
}
