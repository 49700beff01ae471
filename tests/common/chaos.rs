//! A TCP proxy that a test can break on purpose (as crates.io's chaos proxy does): put it
//! between the portal and a server (PostgreSQL, a fake Brevo, SMTP, the content site, the
//! planning system), then `cut` it (open connections are dropped and new ones refused),
//! `hang` it (connections are accepted but nothing passes either way) and `restore` it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Pass,
    Cut,
    Hang,
}

pub struct ChaosProxy {
    pub addr: SocketAddr,
    mode: watch::Sender<Mode>,
    connections: Arc<Mutex<usize>>,
}

impl ChaosProxy {
    /// Starts a proxy on 127.0.0.1 that forwards to `target`.
    pub async fn start(target: SocketAddr) -> ChaosProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let addr = listener.local_addr().expect("proxy address");
        let (mode, _) = watch::channel(Mode::Pass);
        let connections = Arc::new(Mutex::new(0));
        let (mode_tx, counter) = (mode.clone(), connections.clone());
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let mut watch = mode_tx.subscribe();
                let current = *watch.borrow();
                match current {
                    // Refused: closed at once.
                    Mode::Cut => drop(client),
                    Mode::Hang => {
                        // Held open without an answer until the proxy passes again.
                        tokio::spawn(async move {
                            let _client = client;
                            let _ = watch.wait_for(|m| *m != Mode::Hang).await;
                        });
                    }
                    Mode::Pass => {
                        let counter = counter.clone();
                        tokio::spawn(async move {
                            *counter.lock().unwrap_or_else(PoisonError::into_inner) += 1;
                            let mut client = client;
                            if let Ok(mut server) = TcpStream::connect(target).await {
                                // Runs until either side closes or the proxy is cut / hung.
                                tokio::select! {
                                    _ = copy_bidirectional(&mut client, &mut server) => {}
                                    _ = watch.wait_for(|m| *m != Mode::Pass) => {}
                                }
                            }
                        });
                    }
                }
            }
        });
        ChaosProxy {
            addr,
            mode,
            connections,
        }
    }

    /// Drops every open connection and refuses new ones.
    pub fn cut(&self) {
        self.mode.send_replace(Mode::Cut);
    }

    /// Drops every open connection; new ones are accepted and then get no answer.
    pub fn hang(&self) {
        self.mode.send_replace(Mode::Hang);
    }

    /// Lets connections through again.
    pub fn restore(&self) {
        self.mode.send_replace(Mode::Pass);
    }

    /// Connections passed through so far.
    pub fn connections(&self) -> usize {
        *self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
