//! Everything a probe run can be told.

use std::net::SocketAddr;
use std::time::Duration;

/// The default `User-Agent`: names the tool and where to read about it, as
/// polite crawlers do (RFC 9110 §10.1.5).
pub const DEFAULT_USER_AGENT: &str = concat!(
    "irinorm-probe/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/irinorm/irinorm)"
);

/// Options of a probe run. `Default` gives the documented defaults
/// (docs/probe.md).
#[derive(Clone, Debug)]
pub struct ProbeConfig {
    /// `User-Agent` header, and the product token matched against robots.txt groups.
    pub user_agent: String,
    /// Time allowed to open a connection (TCP and TLS).
    pub connect_timeout: Duration,
    /// Time allowed for one request, from sending it to the end of the body read.
    pub timeout: Duration,
    /// Redirects followed per URL before giving up (`too-many-redirects`).
    /// 20 is the chain limit of rung 3 (LADDER.md).
    pub max_redirects: usize,
    /// Retries after the first attempt, for connection errors, 429 and 503.
    pub retries: u32,
    /// First backoff; doubled on each retry.
    pub backoff: Duration,
    /// Longest wait honoured from `Retry-After` (or from the backoff);
    /// a longer `Retry-After` ends the URL as `retry-after-too-long`.
    pub max_retry_wait: Duration,
    /// Requests in flight to one host (host and port) at once.
    pub per_host: usize,
    /// Requests per second started to one host, if limited.
    pub per_host_rate: Option<f64>,
    /// Requests in flight in total.
    pub concurrency: usize,
    /// Fetch and obey robots.txt (RFC 9309), including `Crawl-delay`.
    pub robots: bool,
    /// Longest `Crawl-delay` honoured (a longer one is capped to it).
    pub max_crawl_delay: Duration,
    /// Hash the first N bytes of the final body (the requests are then `GET`).
    pub digest_bytes: Option<usize>,
    /// Host names answered from this table instead of DNS (`--resolve host:port:addr`).
    pub resolve: Vec<(String, SocketAddr)>,
    /// Refuse every address outside 127.0.0.0/8 and ::1 (for tests).
    pub loopback_only: bool,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_redirects: 20,
            retries: 3,
            backoff: Duration::from_millis(500),
            max_retry_wait: Duration::from_secs(120),
            per_host: 2,
            per_host_rate: None,
            concurrency: 64,
            robots: true,
            max_crawl_delay: Duration::from_secs(30),
            digest_bytes: None,
            resolve: Vec::new(),
            loopback_only: false,
        }
    }
}

/// Parses a `--resolve` value `host:port:addr` (curl's syntax; an IPv6
/// address may be bracketed). The port must match the URL's port for the
/// entry to apply, as in curl.
pub fn parse_resolve(s: &str) -> Result<(String, SocketAddr), String> {
    let mut it = s.splitn(3, ':');
    let (Some(host), Some(port), Some(addr)) = (it.next(), it.next(), it.next()) else {
        return Err(format!("{s:?}: expected host:port:addr"));
    };
    let port: u16 = port.parse().map_err(|_| format!("{s:?}: bad port"))?;
    let addr = addr.trim_start_matches('[').trim_end_matches(']');
    let ip: std::net::IpAddr = addr.parse().map_err(|_| format!("{s:?}: bad address"))?;
    if host.is_empty() {
        return Err(format!("{s:?}: empty host"));
    }
    Ok((
        request_host(host).ok_or_else(|| format!("{s:?}: bad host"))?,
        SocketAddr::new(ip, port),
    ))
}

/// `host` as the requests write it: the host of the rung-2 `uri` form of
/// `http://HOST/` (UTS #46 ToASCII, RFC 3987 §3.1; lower case, RFC 3986
/// §6.2.2.1), which is what the client looks up. Round 22: the host was
/// only lower-cased, so `--resolve bücher.example:...` never applied to
/// `http://bücher.example/`, requested as `xn--bcher-kva.example`, and a
/// host that no URL can have (`a b`, `a/b`) was accepted without a word.
fn request_host(host: &str) -> Option<String> {
    if host.contains(['/', '?', '#', '@', '\\', '[', ']']) {
        return None;
    }
    let url = format!("http://{host}/");
    let n = crate::run::rung2().normalize(&url).ok()?;
    let h = n.strip_prefix("http://")?.strip_suffix('/')?;
    (!h.is_empty() && !h.contains(['/', ':'])).then(|| h.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_values() {
        let (h, a) = parse_resolve("Example.test:8080:127.0.0.1").unwrap();
        assert_eq!(h, "example.test");
        assert_eq!(a, "127.0.0.1:8080".parse().unwrap());
        let (_, a) = parse_resolve("h:80:[::1]").unwrap();
        assert_eq!(a, "[::1]:80".parse().unwrap());
        assert!(parse_resolve("h:80").is_err());
        assert!(parse_resolve("h:x:127.0.0.1").is_err());
        assert!(parse_resolve(":80:127.0.0.1").is_err());
    }

    /// Round 22: the host is written as the requests write it (A-label,
    /// lower case), and one that no URL can have is refused.
    #[test]
    fn resolve_hosts_are_request_hosts() {
        let (h, _) = parse_resolve("B\u{fc}cher.Example:80:127.0.0.1").unwrap();
        assert_eq!(h, "xn--bcher-kva.example");
        let (h, _) = parse_resolve("XN--BCHER-KVA.example:80:127.0.0.1").unwrap();
        assert_eq!(h, "xn--bcher-kva.example");
        for bad in ["a b", "a/b", "a@b", "a%zz", "a?b", "a#b"] {
            let v = format!("{bad}:80:127.0.0.1");
            assert!(parse_resolve(&v).is_err(), "{v}");
        }
    }
}
