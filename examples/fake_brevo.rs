//! The stateful fake Brevo of the Rust tests as a stand-alone process, for the browser tests
//! (scripts/e2e.sh) that run a second portal in Brevo mode against it.
//!
//! Prints one line `FAKE_BREVO <base_url> <api_key>` to stdout and serves until it is killed
//! (SIGTERM / SIGINT). With `FAKE_BREVO_CONTACTS=n` it starts with n contacts, each with a
//! customer number (5 per company), company, names and salutation (the sync benchmark).
use std::io::Write;

#[path = "../tests/common/fake_brevo.rs"]
mod fake_brevo;

#[tokio::main]
async fn main() {
    let fake = fake_brevo::FakeBrevo::start().await;
    let contacts: usize = std::env::var("FAKE_BREVO_CONTACTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    if contacts > 0 {
        fake.lock().add_generated_contacts(contacts, |i| {
            let mut attributes = serde_json::Map::new();
            let company = 800_000 + i / 5;
            attributes.insert("KUNDENNUMMER".into(), company.to_string().into());
            attributes.insert("FIRMA".into(), format!("Sync-Firma {company}").into());
            attributes.insert("FIRSTNAME".into(), format!("Vorname{i}").into());
            attributes.insert("LASTNAME".into(), "Synchron".into());
            attributes.insert("ANREDE".into(), "Herr".into());
            (format!("sync{i:06}@firma{company}.example"), attributes)
        });
    }
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
