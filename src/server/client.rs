//! Who is on the other end of a request: the client's address and whether it reached us over
//! https. Behind a reverse proxy the TCP peer is the proxy, so `X-Forwarded-For` and
//! `X-Forwarded-Proto` are read, but only from proxies the configuration trusts; anybody else
//! could write any address there and, for example, lock others out of the login.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;

/// IPv4 clients on a dual-stack socket appear as `::ffff:a.b.c.d`; compare them as IPv4.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// The reverse proxies whose forwarding headers are believed (default: none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn from_config(config: &crate::config::Config) -> TrustedProxies {
        TrustedProxies(config.trusted_proxy_ranges())
    }

    pub fn new(ranges: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(ranges)
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|range| range.contains(&ip))
    }
}

/// The request's client as far as we can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    pub ip: IpAddr,
    /// The browser talks to us over https (directly or through a trusted proxy).
    pub https: bool,
}

/// The client's address: the TCP peer, or, when the peer is a trusted proxy, the nearest
/// address in `X-Forwarded-For` (read from the right) that is not a trusted proxy itself.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    let peer = canonical(peer);
    if !trusted.contains(peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        // A malformed entry ends the chain: nothing left of it can be believed.
        let Ok(ip) = hop.parse::<IpAddr>() else { break };
        client = canonical(ip);
        if !trusted.contains(client) {
            break;
        }
    }
    client
}

/// Whether a trusted proxy says the browser used https.
fn forwarded_https(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> bool {
    trusted.contains(canonical(peer))
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
}

/// What [`identify`] needs to know: whom to believe, and whether the site is https anyway.
#[derive(Clone, Debug)]
pub struct Identify {
    pub trusted: TrustedProxies,
    /// The public address is https (every client then reached us over https).
    pub https_site: bool,
}

/// Puts the [`Client`] of each request into its extensions.
pub async fn identify(State(rules): State<Identify>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let trusted = &rules.trusted;
    let client = Client {
        ip: client_ip(peer, request.headers(), trusted),
        https: rules.https_site || forwarded_https(peer, request.headers(), trusted),
    };
    request.extensions_mut().insert(client);
    next.run(request).await
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Client>().copied().unwrap_or(Client {
            ip: IpAddr::from([0, 0, 0, 0]),
            https: false,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(list: &str) -> TrustedProxies {
        TrustedProxies::new(crate::config::parse_proxy_ranges(list).unwrap())
    }
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn ranges_match_their_addresses() {
        let range = proxies("10.0.0.0/8");
        assert!(range.contains(ip("10.200.3.4")));
        assert!(!range.contains(ip("11.0.0.1")));
        assert!(range.contains(ip("::ffff:10.1.2.3")), "IPv4-mapped IPv6");
        let single = proxies("127.0.0.1");
        assert!(single.contains(ip("127.0.0.1")));
        assert!(!single.contains(ip("127.0.0.2")));
        let host_bits = proxies("10.1.2.3/8");
        assert!(
            host_bits.contains(ip("10.9.9.9")),
            "a range with host bits is its network"
        );
        assert!(proxies("::1").contains(ip("::1")));
        assert!(proxies("0.0.0.0/0").contains(ip("8.8.8.8")));
        assert!(proxies("fd00::/8").contains(ip("fd12::1")));
        for bad in ["10.0.0.0/33", "abc", "10.0.0/8", "::1/129", "1.2.3.4/x"] {
            assert!(crate::config::parse_proxy_ranges(bad).is_err(), "{bad}");
        }
        assert_eq!(proxies(""), TrustedProxies::default());
        assert!(crate::config::parse_proxy_ranges("10.0.0.1, 192.168.0.0/16").is_ok());
        assert!(crate::config::parse_proxy_ranges("10.0.0.1, nix").is_err());
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let none = TrustedProxies::default();
        let proxy = proxies("10.0.0.5");
        let headers = forwarded("203.0.113.9");
        assert_eq!(
            client_ip(ip("198.51.100.1"), &headers, &none),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_ip(ip("198.51.100.1"), &headers, &proxy),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_ip(ip("10.0.0.5"), &headers, &proxy),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_ip(ip("10.0.0.5"), &HeaderMap::new(), &proxy),
            ip("10.0.0.5")
        );
    }

    #[test]
    fn a_spoofed_left_part_of_the_chain_is_ignored() {
        // The client wrote "1.2.3.4" itself; the proxy appended the real address.
        let proxies = proxies("10.0.0.0/8");
        let headers = forwarded("1.2.3.4, 203.0.113.9, 10.0.0.7");
        assert_eq!(
            client_ip(ip("10.0.0.5"), &headers, &proxies),
            ip("203.0.113.9")
        );
        let garbage = forwarded("1.2.3.4, unsinn, 10.0.0.7");
        assert_eq!(
            client_ip(ip("10.0.0.5"), &garbage, &proxies),
            ip("10.0.0.7")
        );
    }

    #[test]
    fn https_is_believed_only_from_a_trusted_proxy() {
        let proxy = proxies("10.0.0.5");
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(forwarded_https(ip("10.0.0.5"), &headers, &proxy));
        assert!(!forwarded_https(ip("10.0.0.6"), &headers, &proxy));
    }
}
