//! Answers that deliver stored bytes (files and package ZIPs) with the HTTP that download
//! managers and browsers rely on: Content-Length, a single Range (206, 416), If-Range,
//! ETag with If-None-Match (304), Last-Modified with If-Modified-Since, and a
//! Content-Disposition `attachment` whose `filename*` keeps UTF-8 names (RFC 6266).

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use futures_util::Stream;

use crate::domain::statistics::Span;
use crate::services::insight::statistics::Tally;
use crate::storage::serve::{self, Piece};

/// What to deliver.
pub struct Delivery {
    pub pieces: Vec<Piece>,
    pub len: u64,
    /// Strong validator, without quotes.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
    pub content_type: String,
    pub file_name: String,
    /// `Cache-Control`: files are private to the user; package files are checked every time.
    pub cache: &'static str,
    /// `Content-Disposition: inline` (shown in the browser) instead of `attachment`.
    pub inline: bool,
    /// What the statistics count of a body that goes out (not of HEAD, 304 or 416).
    pub tally: Option<Tally>,
    /// A file or a ZIP, for the metrics' bytes sent.
    pub sent: crate::metrics::Sent,
}

/// The byte range a request asks for, if it asks for one we serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    Everything,
    /// `start..=end`
    Part(u64, u64),
    Unsatisfiable,
}

/// A single `bytes=` range against a body of `len` bytes. Several ranges, other units and
/// malformed headers are answered with the whole body, as RFC 9110 allows.
pub fn wanted_range(value: &str, len: u64) -> Wanted {
    let Some(spec) = value.trim().strip_prefix("bytes=") else {
        return Wanted::Everything;
    };
    if spec.contains(',') {
        return Wanted::Everything;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return Wanted::Everything;
    };
    let (first, last) = (first.trim(), last.trim());
    let parse = |s: &str| s.parse::<u64>().ok();
    match (first.is_empty(), last.is_empty()) {
        // bytes=-N: the last N bytes.
        (true, false) => match parse(last) {
            Some(0) => Wanted::Unsatisfiable,
            Some(n) if len > 0 => Wanted::Part(len.saturating_sub(n), len - 1),
            Some(_) => Wanted::Unsatisfiable,
            None => Wanted::Everything,
        },
        // bytes=N-: from N to the end.
        (false, true) => match parse(first) {
            Some(start) if start < len => Wanted::Part(start, len - 1),
            Some(_) => Wanted::Unsatisfiable,
            None => Wanted::Everything,
        },
        (false, false) => match (parse(first), parse(last)) {
            (Some(start), Some(end)) if start <= end => {
                if start >= len {
                    Wanted::Unsatisfiable
                } else {
                    Wanted::Part(start, end.min(len - 1))
                }
            }
            _ => Wanted::Everything,
        },
        (true, true) => Wanted::Everything,
    }
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether an `If-None-Match` value matches the ETag (weak comparison, as for GET).
fn none_match(value: &str, etag: &str) -> bool {
    value.split(',').map(str::trim).any(|candidate| {
        candidate == "*" || candidate.trim_start_matches("W/").trim_matches('"') == etag
    })
}

fn http_date(instant: DateTime<Utc>) -> String {
    instant.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn parse_http_date(value: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc2822(value.trim())
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (or `inline; …`).
pub fn content_disposition(name: &str, inline: bool) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' && c != '%' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    const ATTR: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'!')
        .remove(b'#')
        .remove(b'$')
        .remove(b'&')
        .remove(b'+')
        .remove(b'-')
        .remove(b'.')
        .remove(b'^')
        .remove(b'_')
        .remove(b'`')
        .remove(b'|')
        .remove(b'~');
    let encoded = percent_encoding::utf8_percent_encode(name, ATTR);
    let kind = if inline { "inline" } else { "attachment" };
    format!("{kind}; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// The answer for `request_headers` delivering `what`.
pub fn respond(method: &Method, request_headers: &HeaderMap, what: Delivery) -> Response {
    let etag = format!("\"{}\"", what.etag);
    // Second precision, as HTTP dates have.
    let last_modified = DateTime::<Utc>::from_timestamp(what.last_modified.timestamp(), 0)
        .unwrap_or(what.last_modified);
    let mut headers = HeaderMap::new();
    let set = |headers: &mut HeaderMap, name: header::HeaderName, value: &str| {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    };
    set(&mut headers, header::ETAG, &etag);
    set(
        &mut headers,
        header::LAST_MODIFIED,
        &http_date(last_modified),
    );
    set(&mut headers, header::ACCEPT_RANGES, "bytes");
    set(&mut headers, header::CACHE_CONTROL, what.cache);
    // A file is never a page of ours: no scripts, even in an SVG opened directly.
    set(
        &mut headers,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );

    let not_modified = match header_str(request_headers, header::IF_NONE_MATCH) {
        Some(value) => none_match(value, &what.etag),
        None => header_str(request_headers, header::IF_MODIFIED_SINCE)
            .and_then(parse_http_date)
            .is_some_and(|since| last_modified <= since),
    };
    if not_modified {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }

    set(&mut headers, header::CONTENT_TYPE, &what.content_type);
    set(
        &mut headers,
        header::CONTENT_DISPOSITION,
        &content_disposition(&what.file_name, what.inline),
    );
    // If-Range: the range only while the client's copy is still this one.
    let range_applies = match header_str(request_headers, header::IF_RANGE) {
        None => true,
        Some(value) if value.trim().starts_with('"') => value.trim().trim_matches('"') == what.etag,
        Some(value) => parse_http_date(value) == Some(last_modified),
    };
    let wanted = match header_str(request_headers, header::RANGE) {
        Some(range) if range_applies && *method == Method::GET => wanted_range(range, what.len),
        _ => Wanted::Everything,
    };
    let (status, start, end) = match wanted {
        Wanted::Everything => (StatusCode::OK, 0, what.len),
        Wanted::Part(start, last) => {
            set(
                &mut headers,
                header::CONTENT_RANGE,
                &format!("bytes {start}-{last}/{}", what.len),
            );
            (StatusCode::PARTIAL_CONTENT, start, last + 1)
        }
        Wanted::Unsatisfiable => {
            set(
                &mut headers,
                header::CONTENT_RANGE,
                &format!("bytes */{}", what.len),
            );
            headers.remove(header::CONTENT_TYPE);
            headers.remove(header::CONTENT_DISPOSITION);
            return (StatusCode::RANGE_NOT_SATISFIABLE, headers).into_response();
        }
    };
    set(
        &mut headers,
        header::CONTENT_LENGTH,
        &(end - start).to_string(),
    );
    let body = if *method == Method::HEAD {
        Body::empty()
    } else {
        let stream = serve::stream(serve::select(&what.pieces, start, end));
        Body::from_stream(Counted {
            inner: Box::pin(stream),
            tally: what.tally,
            kind: what.sent,
            requested: Span {
                from: start,
                to: end,
            },
            sent: 0,
        })
    };
    let mut response = (status, headers, body).into_response();
    // Body::from_stream does not know its length; the header set above says it.
    if *method == Method::HEAD {
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(end - start));
    }
    response
}

type ByteStream = std::pin::Pin<Box<dyn Stream<Item = std::io::Result<Bytes>> + Send>>;

/// A body that tells its tally and the metrics, when it ends or is dropped (the client went
/// away), how many of the requested bytes went out.
struct Counted {
    inner: ByteStream,
    tally: Option<Tally>,
    kind: crate::metrics::Sent,
    requested: Span,
    sent: u64,
}

impl Stream for Counted {
    type Item = std::io::Result<Bytes>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let polled = self.inner.as_mut().poll_next(cx);
        if let std::task::Poll::Ready(Some(Ok(chunk))) = &polled {
            self.sent += chunk.len() as u64;
        }
        polled
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        crate::metrics::bytes_sent(self.kind, self.sent);
        if let Some(tally) = self.tally.take() {
            tally.finish(self.requested, self.sent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_ranges_are_understood() {
        assert_eq!(wanted_range("bytes=0-9", 100), Wanted::Part(0, 9));
        assert_eq!(wanted_range("bytes=90-", 100), Wanted::Part(90, 99));
        assert_eq!(wanted_range("bytes=-10", 100), Wanted::Part(90, 99));
        assert_eq!(wanted_range("bytes=-500", 100), Wanted::Part(0, 99));
        assert_eq!(wanted_range("bytes=50-500", 100), Wanted::Part(50, 99));
        assert_eq!(wanted_range("bytes=100-", 100), Wanted::Unsatisfiable);
        assert_eq!(wanted_range("bytes=100-200", 100), Wanted::Unsatisfiable);
        assert_eq!(wanted_range("bytes=-0", 100), Wanted::Unsatisfiable);
        assert_eq!(wanted_range("bytes=0-0", 0), Wanted::Unsatisfiable);
    }

    #[test]
    fn other_ranges_get_everything() {
        for value in [
            "bytes=0-1,5-6",
            "items=0-1",
            "bytes=9-1",
            "bytes=a-b",
            "bytes=-",
            "Bytes=0-1",
        ] {
            assert_eq!(wanted_range(value, 100), Wanted::Everything, "{value}");
        }
    }

    #[test]
    fn etags_match_weakly_and_by_star() {
        assert!(none_match("\"abc\"", "abc"));
        assert!(none_match("W/\"abc\"", "abc"));
        assert!(none_match("\"x\", \"abc\"", "abc"));
        assert!(none_match("*", "abc"));
        assert!(!none_match("\"abd\"", "abc"));
    }

    #[test]
    fn names_survive_in_filename_star() {
        assert_eq!(
            content_disposition("Flyer Süd 100%.pdf", false),
            "attachment; filename=\"Flyer S_d 100_.pdf\"; filename*=UTF-8''Flyer%20S%C3%BCd%20100%25.pdf"
        );
        assert_eq!(
            content_disposition("a\"b\\c.pdf", false),
            "attachment; filename=\"a_b_c.pdf\"; filename*=UTF-8''a%22b%5Cc.pdf"
        );
        assert_eq!(
            content_disposition("Vorschau.jpg", true),
            "inline; filename=\"Vorschau.jpg\"; filename*=UTF-8''Vorschau.jpg"
        );
    }

    #[test]
    fn http_dates_round_trip() {
        let instant = DateTime::<Utc>::from_timestamp(1_795_000_000, 0).unwrap();
        assert_eq!(parse_http_date(&http_date(instant)), Some(instant));
    }
}
