//! The portal's own binary, started as an operator starts it, for the tests that need a
//! process of their own (two instances, SIGKILL, the CLI).
// tests/cli.rs includes this file alone and starts the binary its own way.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_aktionsportal");

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
        .env("RUST_LOG", "info,sqlx=warn")
        .env("NO_COLOR", "1")
        .current_dir(work);
    command
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
