//! The HTTP server around the router: our own accept loop (axum's `serve` has no timeouts),
//! so that slow clients are cut off and one address cannot hold every connection.
//!
//! - A request's headers must arrive within the header timeout; hyper starts the same timer
//!   when a kept-alive connection falls idle, so idle connections close after it too.
//! - At most `max_connections_per_address` open connections per client address (trusted
//!   proxies excepted: every user behind them shares their address).
//! - Bodies and API calls are limited in [`limits`]; the client's address in [`client`].
//! - What these layers answer when they refuse a request is in [`refusal`].

pub mod client;
pub mod limits;
pub mod refusal;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use std::convert::Infallible;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::{Service, ServiceExt};

use client::TrustedProxies;

/// Connection-level limits (see the module docs).
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    pub header_timeout: Duration,
    pub max_connections_per_address: usize,
    pub trusted_proxies: TrustedProxies,
}

impl ConnectionLimits {
    /// The server's limits for slow and greedy clients, from the configuration.
    pub fn from_config(config: &crate::config::Config) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(config.header_timeout_secs),
            max_connections_per_address: config.max_connections_per_address,
            trusted_proxies: TrustedProxies::from_config(config),
        }
    }
}

/// Open connections per client address.
#[derive(Clone, Default)]
struct ConnectionCounts(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One counted connection; dropping it frees the place.
struct ConnectionSlot {
    counts: ConnectionCounts,
    ip: IpAddr,
}

impl ConnectionCounts {
    fn take(&self, ip: IpAddr, max: usize) -> Option<ConnectionSlot> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(ConnectionSlot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// How long a shutdown waits for requests in flight (a long download is cut after this).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// Serves `app` on `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn run<S>(
    listener: TcpListener,
    app: S,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    S: Service<Request<Body>, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(limits.header_timeout))
        .keep_alive_timeout(limits.header_timeout);
    let graceful = GracefulShutdown::new();
    let counts = ConnectionCounts::default();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(error = %err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let slot = if limits.trusted_proxies.contains(peer.ip()) {
            None
        } else {
            match counts.take(peer.ip(), limits.max_connections_per_address) {
                Some(slot) => Some(slot),
                None => {
                    tracing::warn!(client = %peer.ip(), "too many connections from one address");
                    drop(stream);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = TowerToHyperService::new(tower::service_fn(
            move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(request.map(Body::new))
            },
        ));
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // Errors here are clients that went away or were cut off; nothing to report.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still running after the shutdown grace period were cut");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_per_address_are_capped_and_freed() {
        let counts = ConnectionCounts::default();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let first = counts.take(ip, 2).unwrap();
        let _second = counts.take(ip, 2).unwrap();
        assert!(counts.take(ip, 2).is_none());
        assert!(counts.take("192.0.2.2".parse().unwrap(), 2).is_some());
        drop(first);
        assert!(counts.take(ip, 2).is_some());
    }
}
