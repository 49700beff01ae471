//! A small SMTP server on 127.0.0.1 for tests (RFC 5321 without extensions beyond what a
//! client needs: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no AUTH).
//!
//! A mail counts as received only once the server has answered its DATA with 250, as with a
//! real server. Faults for tests: refuse the next mails with 451, refuse a recipient with 550
//! at RCPT, or hold the reply to a
//! mail (the sender waits, as if the server were slow) so a test can kill the sender at that
//! moment.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// One mail as the server accepted it.
#[derive(Clone, Debug)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    /// The message as sent (headers and body, CRLF line ends, dot-stuffing removed).
    pub data: String,
}

impl ReceivedMail {
    /// The message with quoted-printable soft breaks and `=XX` escapes undone: enough to
    /// find a link or a phrase in either part of the mail.
    pub fn decoded(&self) -> String {
        let joined = self.data.replace("=\r\n", "");
        let bytes = joined.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'='
                && i + 2 < bytes.len()
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit()
            {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The token of the first double opt-in link in the mail.
    /// The token of a package mail's one-click unsubscribe link (of the portal at
    /// `https://portal.example.de`, see `spawn_app_with_smtp`), checked against the visible
    /// link.
    pub fn unsubscribe_token(&self) -> String {
        let header = self.header("List-Unsubscribe").expect("List-Unsubscribe");
        let url = header
            .strip_prefix('<')
            .and_then(|h| h.strip_suffix('>'))
            .unwrap_or_else(|| panic!("one URL in angle brackets: {header}"));
        let token = url
            .strip_prefix("https://portal.example.de/api/unsubscribe/")
            .unwrap_or_else(|| panic!("the portal's one-click address: {url}"));
        let page = format!("https://portal.example.de/abmelden/{token}");
        assert!(self.decoded().contains(&page), "the visible link's page");
        token.to_string()
    }

    pub fn double_opt_in_token(&self) -> Option<String> {
        double_opt_in_token(&self.decoded())
    }

    /// A header's value (first occurrence, unfolded not needed for the headers we read).
    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.data
            .split("\r\n\r\n")
            .next()?
            .lines()
            .find(|line| line.to_ascii_lowercase().starts_with(&prefix))
            .map(|line| line[prefix.len()..].trim().to_string())
    }
}

#[derive(Default)]
struct State {
    mails: Vec<ReceivedMail>,
    /// Answer 451 to this many more mails.
    refuse: usize,
    /// Recipients refused for good at RCPT (550), lower-case.
    unknown_recipients: Vec<String>,
    /// Hold the reply to the mail that arrives when this many have been accepted.
    hold_at: Option<usize>,
    /// A mail's reply is being held.
    holding: bool,
    /// The held mail counts as received (the server took it; only its answer is lost).
    deliver_held: bool,
}

#[derive(Clone)]
pub struct FakeSmtp {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

impl FakeSmtp {
    pub async fn start() -> FakeSmtp {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind smtp");
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, shared.clone()));
            }
        });
        FakeSmtp { addr, state }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn mails(&self) -> Vec<ReceivedMail> {
        self.lock().mails.clone()
    }

    /// The mails received once there are `n` (the portal's workers look every few seconds),
    /// or those received after 30 seconds.
    pub async fn wait_for(&self, n: usize) -> Vec<ReceivedMail> {
        for _ in 0..300 {
            if self.mails().len() >= n {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        self.mails()
    }

    /// The accepted mails to this address.
    pub fn mails_to(&self, address: &str) -> Vec<ReceivedMail> {
        self.mails()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
            .collect()
    }

    pub fn refuse_next(&self, n: usize) {
        self.lock().refuse = n;
    }

    /// Refuses mails to `address` for good at RCPT (550 5.1.1), as for a mailbox that does
    /// not exist.
    pub fn refuse_recipient(&self, address: &str) {
        self.lock().unknown_recipients.push(address.to_lowercase());
    }

    /// Holds the reply to the mail that arrives after `accepted` mails were accepted.
    pub fn hold_after(&self, accepted: usize) {
        self.lock().hold_at = Some(accepted);
    }

    /// Holds the reply to the next mail, which is kept as received: the server took it and
    /// only the sender never learns so, as when a sender dies between the DATA and the
    /// answer. Sending it again must not make it a second, different mail.
    pub fn hold_next_delivering(&self) {
        let mut state = self.lock();
        state.hold_at = Some(state.mails.len());
        state.deliver_held = true;
    }

    pub fn is_holding(&self) -> bool {
        self.lock().holding
    }

    /// Stops holding for mails to come (a held connection stays silent until closed).
    pub fn release(&self) {
        let mut state = self.lock();
        state.hold_at = None;
        state.holding = false;
    }
}

fn address_of(argument: &str) -> String {
    let start = argument.find('<').map_or(0, |i| i + 1);
    let end = argument[start..]
        .find('>')
        .map_or(argument.len(), |i| start + i);
    argument[start..end].to_string()
}

async fn session(stream: TcpStream, state: Arc<Mutex<State>>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let lock = || state.lock().unwrap_or_else(PoisonError::into_inner);
    if write.write_all(b"220 fake-smtp ESMTP\r\n").await.is_err() {
        return;
    }
    let (mut from, mut to) = (String::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        match lines.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let command = line.trim_end().to_string();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: String = match verb.as_str() {
            "EHLO" => "250-fake-smtp\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n".into(),
            "HELO" => "250 fake-smtp\r\n".into(),
            "MAIL" => {
                from = address_of(&command);
                to.clear();
                "250 OK\r\n".into()
            }
            "RCPT" => {
                let address = address_of(&command);
                let unknown = lock().unknown_recipients.contains(&address.to_lowercase());
                if unknown {
                    "550 5.1.1 No such user\r\n".into()
                } else {
                    to.push(address);
                    "250 OK\r\n".into()
                }
            }
            "RSET" => {
                from.clear();
                to.clear();
                "250 OK\r\n".into()
            }
            "NOOP" => "250 OK\r\n".into(),
            "QUIT" => {
                let _ = write.write_all(b"221 Bye\r\n").await;
                return;
            }
            "DATA" => {
                if write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await
                    .is_err()
                {
                    return;
                }
                let mut data = String::new();
                loop {
                    line.clear();
                    match lines.read_line(&mut line).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    let unstuffed = line.strip_prefix('.').unwrap_or(&line);
                    data.push_str(unstuffed);
                }
                let hold = {
                    let mut s = lock();
                    if s.hold_at == Some(s.mails.len()) {
                        s.holding = true;
                        if s.deliver_held {
                            s.mails.push(ReceivedMail {
                                from: from.clone(),
                                to: to.clone(),
                                data: data.clone(),
                            });
                        }
                        true
                    } else {
                        false
                    }
                };
                if hold {
                    // Never answer: the sender is killed meanwhile, or gives up.
                    std::future::pending::<()>().await;
                }
                let refused = {
                    let mut s = lock();
                    if s.refuse > 0 {
                        s.refuse -= 1;
                        true
                    } else {
                        s.mails.push(ReceivedMail {
                            from: from.clone(),
                            to: to.clone(),
                            data,
                        });
                        false
                    }
                };
                if refused {
                    "451 4.3.0 Try again later\r\n".into()
                } else {
                    "250 OK: queued\r\n".into()
                }
            }
            _ => "502 Command not implemented\r\n".into(),
        };
        if write.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The token of the first double opt-in link in a mail's text or HTML.
pub fn double_opt_in_token(text: &str) -> Option<String> {
    const LINK: &str = "/user/verify-double-opt-in/";
    let start = text.find(LINK)? + LINK.len();
    let token: String = text[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (!token.is_empty()).then_some(token)
}
