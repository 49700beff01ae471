//! The stateful fake Brevo of the Rust tests as a stand-alone process, for the browser tests
//! (scripts/e2e.sh) that run a second portal in Brevo mode against it.
//!
//! Prints one line `FAKE_BREVO <base_url> <api_key>` to stdout and serves until it is killed
//! (SIGTERM / SIGINT).
use std::io::Write;

#[path = "../tests/common/fake_brevo.rs"]
mod fake_brevo;

#[tokio::main]
async fn main() {
    let fake = fake_brevo::FakeBrevo::start().await;
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "FAKE_BREVO {} {}", fake.base_url, fake.api_key()).expect("write stdout");
        out.flush().expect("flush stdout");
    }
    wait_for_shutdown().await;
    drop(fake);
}

#[cfg(unix)]
async fn wait_for_shutdown() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

#[cfg(not(unix))]
async fn wait_for_shutdown() {
    let _ = tokio::signal::ctrl_c().await;
}
