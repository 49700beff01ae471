//! The portal's own binary, started as an operator starts it, for the tests that need a
//! process of their own (two instances, SIGKILL, the CLI).
// tests/cli.rs includes this file alone and starts the binary its own way.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_aktionsportal");

/// The name the binary's PostgreSQL sessions carry (`PGAPPNAME`), so that a test tells them
/// from its own.
const CHILD_SESSIONS: &str = "aktionsportal-under-test";

/// The binary in `work` on `database_url`, with a clean environment of ours: nothing from the
/// caller's `AP_*` settings or a config file in the working folder leaks in.
pub fn portal(work: &Path, database_url: &str) -> Command {
    let mut command = Command::new(BIN);
    for (key, _) in std::env::vars() {
        if key.starts_with("AP_") {
            command.env_remove(key);
        }
    }
    command
        .env("DATABASE_URL", database_url)
        .env("PGAPPNAME", CHILD_SESSIONS)
        .env("RUST_LOG", "info,sqlx=warn")
        .env("NO_COLOR", "1")
        .current_dir(work);
    command
}

/// Waits until the PostgreSQL sessions of a binary that was killed have ended. What the
/// binary sent before it died (a `COMMIT`, say) still runs on the server after the kill, so a
/// test that reads sooner can see a transaction's rows in one statement and not in the one
/// before. SQLite's writes end with the process.
pub async fn until_killed_sessions_end(db: &aktionsportal::db::Db) {
    let aktionsportal::db::Db::Postgres(pool, _) = db else {
        return;
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let left: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity \
             where datname = current_database() and application_name = $1",
        )
        .bind(CHILD_SESSIONS)
        .fetch_one(pool)
        .await
        .unwrap();
        if left == 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{left} sessions of the killed binary still run"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A port of 127.0.0.1 nobody listens on just now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs `command` to its end with `stdin` on its standard input; fails the test, showing what
/// it printed, unless it succeeds.
pub fn run(command: &mut Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start binary");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().expect("binary output");
    assert!(
        output.status.success(),
        "{command:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}
