//! Limits for clients that are slow on purpose or by accident: request bodies must arrive in
//! time (uploads instead keep up a minimum rate, so a slow but moving 2 GB upload is fine and
//! a stalled one is cut), and API calls have a time limit.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use super::refusal::Refusal;

/// How a request body must arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRule {
    /// All of it within this time, counted from when the handler starts reading.
    Deadline(Duration),
    /// At least `min_bytes` in every `window` (uploads).
    MinRate { window: Duration, min_bytes: u64 },
}

impl BodyRule {
    /// How an ordinary request body must arrive.
    pub fn for_body(config: &crate::config::Config) -> BodyRule {
        BodyRule::Deadline(Duration::from_secs(config.body_timeout_secs))
    }

    /// How an upload body must arrive.
    pub fn for_upload(config: &crate::config::Config) -> BodyRule {
        BodyRule::MinRate {
            window: Duration::from_secs(config.upload_rate_window_secs),
            min_bytes: config.upload_min_bytes_per_window,
        }
    }

    fn first_timer(&self) -> Duration {
        match *self {
            BodyRule::Deadline(limit) => limit,
            BodyRule::MinRate { window, .. } => window,
        }
    }
}

/// The error a too-slow body ends with; handlers answer it with 408.
#[derive(Debug, thiserror::Error)]
#[error("request body too slow")]
pub struct SlowBody;

/// True when `err` or one of its sources is [`SlowBody`].
pub fn is_slow_body(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if e.is::<SlowBody>() {
            return true;
        }
        current = e.source();
    }
    false
}

/// A request body that fails with [`SlowBody`] when it breaks its rule.
pub struct LimitedBody {
    inner: Body,
    rule: BodyRule,
    timer: Pin<Box<Sleep>>,
    bytes_in_window: u64,
}

impl LimitedBody {
    pub fn new(inner: Body, rule: BodyRule) -> LimitedBody {
        LimitedBody {
            inner,
            rule,
            timer: Box::pin(tokio::time::sleep(rule.first_timer())),
            bytes_in_window: 0,
        }
    }
}

impl http_body::Body for LimitedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        while this.timer.as_mut().poll(cx).is_ready() {
            match this.rule {
                BodyRule::Deadline(_) => return Poll::Ready(Some(Err(axum::Error::new(SlowBody)))),
                BodyRule::MinRate { window, min_bytes } => {
                    if this.bytes_in_window < min_bytes {
                        return Poll::Ready(Some(Err(axum::Error::new(SlowBody))));
                    }
                    this.bytes_in_window = 0;
                    this.timer.as_mut().reset(Instant::now() + window);
                }
            }
        }
        let frame = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &frame
            && let Some(data) = frame.data_ref()
        {
            this.bytes_in_window += data.len() as u64;
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware: the request body follows `rule`.
pub async fn limit_body(State(rule): State<BodyRule>, request: Request, next: Next) -> Response {
    next.run(request.map(|body| Body::new(LimitedBody::new(body, rule))))
        .await
}

/// Middleware: the handler must answer within the limit, else 503 with a German message.
pub async fn time_limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => Refusal::Timeout.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    fn trickle(chunks: Vec<(u64, &'static [u8])>) -> Body {
        let stream = futures_util::stream::unfold(chunks.into_iter(), |mut rest| async move {
            let (wait_ms, bytes) = rest.next()?;
            tokio::time::sleep(Duration::from_millis(wait_ms)).await;
            Some((Ok::<_, std::io::Error>(Bytes::from_static(bytes)), rest))
        });
        Body::from_stream(stream)
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_arrives_in_time_passes() {
        let body = LimitedBody::new(
            trickle(vec![(100, b"ab"), (100, b"cd")]),
            BodyRule::Deadline(Duration::from_secs(1)),
        );
        let bytes = Body::new(body).collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"abcd");
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_past_its_deadline_fails() {
        let body = LimitedBody::new(
            trickle(vec![(500, b"ab"), (800, b"cd")]),
            BodyRule::Deadline(Duration::from_secs(1)),
        );
        let err = Body::new(body).collect().await.unwrap_err();
        assert!(is_slow_body(&err), "{err:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_but_moving_upload_passes_and_a_stalled_one_is_cut() {
        let rule = BodyRule::MinRate {
            window: Duration::from_secs(1),
            min_bytes: 2,
        };
        // Two bytes every 600 ms: slow, but at least two in every second.
        let moving = trickle((0..8).map(|_| (600, &b"xy"[..])).collect());
        let bytes = Body::new(LimitedBody::new(moving, rule))
            .collect()
            .await
            .unwrap()
            .to_bytes();
        assert_eq!(bytes.len(), 16);

        let stalled = trickle(vec![(100, b"xy"), (100, b"xy"), (5_000, b"xy")]);
        let err = Body::new(LimitedBody::new(stalled, rule))
            .collect()
            .await
            .unwrap_err();
        assert!(is_slow_body(&err));
    }
}
