//! One URL probed: requests hop by hop, with politeness, retries and
//! robots.txt, each hop an [`Observation`].

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode, Url};
use sha1::{Digest, Sha1};
use tokio::sync::{OnceCell, Semaphore};

use crate::config::ProbeConfig;
use crate::failure::{kind, Failure};
use crate::host_gate::{HostGate, HostGates};
use crate::robots::{product_token, Robots, MAX_ROBOTS_BYTES, MAX_ROBOTS_REDIRECTS};
use crate::timestamp::format14;
use crate::{Observation, ObservationKind};

/// What probing one URL gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probed {
    /// One observation per response received, in order: redirects, then
    /// the final response (absent when the chain ended in a failure before it).
    pub observations: Vec<Observation>,
    /// Why the chain ended early, or why its final response is not an answer.
    pub failure: Option<Failure>,
}

/// Counters of a run, shared by every task.
#[derive(Debug, Default)]
pub struct Counters {
    /// HTTP requests sent (robots.txt included).
    pub requests: AtomicU64,
    /// robots.txt fetched.
    pub robots_fetches: AtomicU64,
    /// `HEAD` refused (405, 501, or a reset) and repeated as `GET`.
    pub head_fallbacks: AtomicU64,
    /// Retries (connection errors, 429, 503).
    pub retries: AtomicU64,
    /// Sum of the waits asked before retries (Retry-After or backoff), in ms.
    pub retry_wait_ms: AtomicU64,
}

/// The prober: an HTTP client and the shared politeness state of a run.
#[derive(Debug)]
pub struct Prober {
    client: reqwest::Client,
    cfg: ProbeConfig,
    agent_token: String,
    gates: HostGates,
    global: Arc<Semaphore>,
    robots: Mutex<HashMap<String, Arc<OnceCell<Robots>>>>,
    /// Counters, readable at any time.
    pub counters: Counters,
}

/// The statuses followed as redirects (RFC 9110 §15.4: 301, 302, 303, 307,
/// 308). 300 and 304 are final responses: they do not ask to be followed.
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// One response's headers as far as we need them.
struct Hop {
    status: u16,
    time: String,
    location_raw: Option<String>,
    mime: Option<String>,
    digest: Option<String>,
    /// Set when the response stands but is not an answer (429/503 on every
    /// attempt, Retry-After too long, body unreadable).
    failure: Option<Failure>,
}

impl Prober {
    /// A prober with these options; fails when the HTTP client cannot be
    /// built or an option is out of range.
    pub fn new(cfg: ProbeConfig) -> Result<Prober, String> {
        if cfg.per_host == 0 || cfg.concurrency == 0 {
            return Err("concurrency and per-host concurrency must be at least 1".into());
        }
        if cfg.loopback_only {
            if let Some((h, a)) = cfg.resolve.iter().find(|(_, a)| !a.ip().is_loopback()) {
                return Err(format!(
                    "--resolve {h} -> {a} is outside the loopback range"
                ));
            }
        }
        let mut b = reqwest::Client::builder()
            // Each hop is a request of its own, recorded; reqwest must not follow.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(cfg.user_agent.clone())
            .connect_timeout(cfg.connect_timeout)
            .timeout(cfg.timeout)
            .pool_max_idle_per_host(cfg.per_host);
        for (host, addr) in &cfg.resolve {
            // reqwest applies the address to every port of the host; the
            // port of the URL is the one connected to.
            b = b.resolve(host, SocketAddr::new(addr.ip(), addr.port()));
        }
        if cfg.loopback_only {
            b = b.no_proxy().dns_resolver(Arc::new(LoopbackResolver));
        }
        let client = b.build().map_err(|e| error_chain(&e))?;
        Ok(Prober {
            client,
            agent_token: product_token(&cfg.user_agent).to_owned(),
            gates: HostGates::new(cfg.per_host, cfg.per_host_rate),
            global: Arc::new(Semaphore::new(cfg.concurrency)),
            robots: Mutex::new(HashMap::new()),
            counters: Counters::default(),
            cfg,
        })
    }

    /// The options.
    pub fn config(&self) -> &ProbeConfig {
        &self.cfg
    }

    /// Probes `url` (an absolute http(s) URI, already at rung 2): follows
    /// redirects hop by hop up to the limit, recording each.
    pub async fn probe(&self, url: &str) -> Probed {
        let mut out = Probed::default();
        let mut cur = url.to_owned();
        let mut seen = HashSet::new();
        seen.insert(cur.clone());
        let mut redirects = 0usize;
        loop {
            let parsed = match self.admit(&cur).await {
                Ok(u) => u,
                Err(f) => {
                    out.failure = Some(f);
                    return out;
                }
            };
            let gate = self.gates.get(&authority(&parsed));
            let hop = match self.fetch(&parsed, &gate).await {
                Ok(h) => h,
                Err(f) => {
                    out.failure = Some(f);
                    return out;
                }
            };
            let follow = is_redirect(hop.status) && hop.location_raw.is_some();
            let location = hop
                .location_raw
                .as_deref()
                .filter(|_| follow)
                .and_then(|l| resolve_location(&cur, l));
            out.observations.push(Observation {
                kind: if follow {
                    ObservationKind::Redirect
                } else {
                    ObservationKind::Response
                },
                url: cur.clone(),
                time: Some(hop.time),
                status: Some(hop.status),
                location: location.clone(),
                location_raw: hop.location_raw.clone(),
                digest: hop.digest,
                refers_to: None,
                mime: hop.mime,
                offset: 0,
                line: None,
            });
            if !follow {
                out.failure = hop.failure;
                return out;
            }
            let raw = hop.location_raw.unwrap_or_default();
            let Some(next) = location.as_deref().and_then(next_hop) else {
                out.failure = Some(Failure::new(
                    kind::BAD_LOCATION,
                    &cur,
                    format!(
                        "{} with Location {raw:?}: not an http(s) URI reference",
                        hop.status
                    ),
                ));
                return out;
            };
            redirects += 1;
            if !seen.insert(next.clone()) {
                out.failure = Some(Failure::new(
                    kind::REDIRECT_LOOP,
                    &cur,
                    format!("{} to {next}, already on the chain", hop.status),
                ));
                return out;
            }
            if redirects > self.cfg.max_redirects {
                out.failure = Some(Failure::new(
                    kind::TOO_MANY_REDIRECTS,
                    url,
                    format!("more than {} redirects", self.cfg.max_redirects),
                ));
                return out;
            }
            cur = next;
        }
    }

    /// Checks that `url` may be requested: parses, scheme, address, robots.txt.
    async fn admit(&self, url: &str) -> Result<Url, Failure> {
        let u = Url::parse(url).map_err(|e| Failure::new(kind::INVALID_URL, url, e.to_string()))?;
        if !matches!(u.scheme(), "http" | "https") {
            return Err(Failure::new(
                kind::UNSUPPORTED_SCHEME,
                url,
                "only http and https are probed",
            ));
        }
        if self.cfg.loopback_only {
            if let Some(ip) = literal_ip(&u) {
                if !ip.is_loopback() {
                    return Err(Failure::new(
                        kind::BLOCKED_ADDRESS,
                        url,
                        format!("{ip} is outside the loopback range"),
                    ));
                }
            }
        }
        if self.cfg.robots {
            let origin = origin(&u);
            let cell = {
                let mut m = self.robots.lock().expect("robots lock");
                Arc::clone(m.entry(origin.clone()).or_default())
            };
            let robots = cell.get_or_init(|| self.fetch_robots(&u)).await;
            robots
                .check(url)
                .map_err(|why| Failure::new(kind::ROBOTS, url, why))?;
        }
        Ok(u)
    }

    /// Fetches `/robots.txt` of `u`'s origin (RFC 9309 §2.3), following up
    /// to five redirects, and applies its `Crawl-delay` to the host.
    async fn fetch_robots(&self, u: &Url) -> Robots {
        self.counters.robots_fetches.fetch_add(1, Ordering::Relaxed);
        let mut target = u
            .join("/robots.txt")
            .expect("an http(s) URL joins /robots.txt");
        let robots = 'r: {
            for _ in 0..=MAX_ROBOTS_REDIRECTS {
                let mut resp = match self.get_robots(&target).await {
                    Ok(r) => r,
                    Err(e) => break 'r Robots::DisallowAll(error_chain(&e)),
                };
                let status = resp.status().as_u16();
                if is_redirect(status) {
                    match resp
                        .headers()
                        .get(LOCATION)
                        .and_then(|l| l.to_str().ok())
                        .and_then(|l| target.join(l).ok())
                    {
                        Some(next) => {
                            target = next;
                            continue;
                        }
                        // A redirect without a usable target is as good as a 404.
                        None => break 'r Robots::AllowAll,
                    }
                }
                if (400..500).contains(&status) {
                    break 'r Robots::AllowAll;
                }
                if !(200..300).contains(&status) {
                    break 'r Robots::DisallowAll(format!("status {status}"));
                }
                let mut body = Vec::new();
                loop {
                    match resp.chunk().await {
                        Ok(Some(c)) => {
                            let room = MAX_ROBOTS_BYTES - body.len();
                            body.extend_from_slice(&c[..c.len().min(room)]);
                            if body.len() == MAX_ROBOTS_BYTES {
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => break 'r Robots::DisallowAll(error_chain(&e)),
                    }
                }
                break 'r Robots::from_body(&self.agent_token, &body);
            }
            Robots::DisallowAll("too many redirects".into())
        };
        if let Some(d) = robots.delay() {
            if d.is_finite() && d > 0.0 {
                let d = Duration::from_secs_f32(d).min(self.cfg.max_crawl_delay);
                self.gates.get(&authority(u)).at_least_interval(d);
            }
        }
        robots
    }

    /// `GET` of a robots.txt, retried after connection errors like any
    /// request: one failed connection must not disallow a whole origin.
    async fn get_robots(&self, target: &Url) -> Result<reqwest::Response, reqwest::Error> {
        let gate = self.gates.get(&authority(target));
        let mut attempt = 0u32;
        loop {
            let sent = {
                let _host = gate.enter().await;
                let _global = self.global.acquire().await.expect("global semaphore");
                self.counters.requests.fetch_add(1, Ordering::Relaxed);
                self.client.get(target.clone()).send().await
            };
            match sent {
                Err(e) if !e.is_timeout() && attempt < self.cfg.retries => {
                    self.wait_retry(&gate, self.backoff(attempt));
                    attempt += 1;
                }
                r => return r,
            }
        }
    }

    /// One hop: `HEAD` (or `GET` when digesting), `GET` again when `HEAD`
    /// is refused, retries with backoff for connection errors, 429 and 503.
    async fn fetch(&self, url: &Url, gate: &HostGate) -> Result<Hop, Failure> {
        let mut use_get = self.cfg.digest_bytes.is_some();
        let mut attempt = 0u32;
        loop {
            let method = if use_get { Method::GET } else { Method::HEAD };
            let sent = {
                let _host = gate.enter().await;
                let _global = self.global.acquire().await.expect("global semaphore");
                self.counters.requests.fetch_add(1, Ordering::Relaxed);
                match self.client.request(method, url.clone()).send().await {
                    Ok(resp) => Ok(self.read_hop(resp, use_get).await),
                    Err(e) => Err(e),
                }
            };
            match sent {
                Ok(r) if !use_get && matches!(r.hop.status, 405 | 501) => {
                    // RFC 9110 §9.3.2: servers should support HEAD; some refuse it.
                    use_get = true;
                    self.counters.head_fallbacks.fetch_add(1, Ordering::Relaxed);
                }
                Ok(mut hop) if matches!(hop.hop.status, 429 | 503) => {
                    let asked = hop.retry_after;
                    if let Some(a) = asked.filter(|a| *a > self.cfg.max_retry_wait) {
                        hop.hop.failure = Some(Failure::new(
                            kind::RETRY_AFTER_TOO_LONG,
                            url.as_str(),
                            format!(
                                "{} with Retry-After {}s (limit {}s)",
                                hop.hop.status,
                                a.as_secs(),
                                self.cfg.max_retry_wait.as_secs()
                            ),
                        ));
                        return Ok(hop.hop);
                    }
                    if attempt >= self.cfg.retries {
                        hop.hop.failure = Some(Failure::new(
                            kind::RETRIES_EXHAUSTED,
                            url.as_str(),
                            format!("{} on all {} attempts", hop.hop.status, attempt + 1),
                        ));
                        return Ok(hop.hop);
                    }
                    let wait = asked.unwrap_or_else(|| self.backoff(attempt));
                    self.wait_retry(gate, wait);
                    attempt += 1;
                }
                Ok(r) => return Ok(r.hop),
                Err(e) if !use_get && !e.is_connect() && !e.is_timeout() => {
                    // A server that drops the connection on HEAD: try GET at once.
                    use_get = true;
                    self.counters.head_fallbacks.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    let k = error_kind(&e);
                    // A timeout is not retried: a slow server is not asked again.
                    if k == kind::TIMEOUT || attempt >= self.cfg.retries {
                        let tries = attempt + 1;
                        return Err(Failure::new(
                            k,
                            url.as_str(),
                            format!(
                                "{} (after {tries} attempt{})",
                                error_chain(&e),
                                if tries == 1 { "" } else { "s" }
                            ),
                        ));
                    }
                    self.wait_retry(gate, self.backoff(attempt));
                    attempt += 1;
                }
            }
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        self.cfg
            .backoff
            .saturating_mul(1u32 << attempt.min(16))
            .min(self.cfg.max_retry_wait)
    }

    /// Holds the whole host back for `wait` before the next attempt.
    fn wait_retry(&self, gate: &HostGate, wait: Duration) {
        self.counters.retries.fetch_add(1, Ordering::Relaxed);
        self.counters
            .retry_wait_ms
            .fetch_add(wait.as_millis() as u64, Ordering::Relaxed);
        gate.hold_for(wait);
    }

    /// Headers (and, for a final `GET` with `--digest`, the first bytes of
    /// the body) of one response. The body is otherwise never read:
    /// dropping the response closes the connection.
    async fn read_hop(&self, mut resp: reqwest::Response, is_get: bool) -> Received {
        let time = format14(SystemTime::now());
        let status = resp.status();
        let headers = resp.headers();
        let location_raw = header_text(headers, LOCATION.as_str());
        let mime = header_text(headers, CONTENT_TYPE.as_str());
        let retry_after = headers
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let mut hop = Hop {
            status: status.as_u16(),
            time,
            location_raw,
            mime,
            digest: None,
            failure: None,
        };
        let redirects = is_redirect(hop.status) && hop.location_raw.is_some();
        let throttled = matches!(
            status,
            StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
        );
        let final_ok = !redirects && !throttled;
        if let (Some(limit), true, true) = (self.cfg.digest_bytes, is_get, final_ok) {
            let mut h = Sha1::new();
            let mut n = 0usize;
            let mut truncated = false;
            loop {
                match resp.chunk().await {
                    Ok(Some(c)) => {
                        let take = c.len().min(limit - n);
                        h.update(&c[..take]);
                        n += take;
                        if take < c.len() {
                            truncated = true;
                            break;
                        }
                        if n == limit {
                            // Exactly the limit so far: a prefix unless the body ends here.
                            truncated = !body_ended(&mut resp).await;
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        hop.failure = Some(Failure::new(
                            kind::BODY,
                            resp.url().as_str(),
                            error_chain(&e),
                        ));
                        return Received { hop, retry_after };
                    }
                }
            }
            let b32 = data_encoding::BASE32.encode(&h.finalize());
            // A digest of the whole payload is comparable with WARC's
            // `WARC-Payload-Digest`; a prefix digest must never equal one.
            hop.digest = Some(if truncated {
                format!("sha1-first{limit}:{b32}")
            } else {
                format!("sha1:{b32}")
            });
        }
        Received { hop, retry_after }
    }
}

/// A hop and the `Retry-After` it carried.
struct Received {
    hop: Hop,
    retry_after: Option<Duration>,
}

/// Whether the body has no byte left (reads at most one more chunk).
async fn body_ended(resp: &mut reqwest::Response) -> bool {
    matches!(resp.chunk().await, Ok(None))
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(s) = v.parse::<u64>() {
        return Some(Duration::from_secs(s));
    }
    let t = httpdate::parse_http_date(v).ok()?;
    Some(
        t.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

fn header_text(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// `Location` resolved against the request URI (RFC 9110 §10.2.2, RFC 3986
/// §5.2); None when it is not a URI/IRI reference.
pub fn resolve_location(base: &str, location: &str) -> Option<String> {
    irinorm::resolve(base, location.trim()).ok()
}

/// The next request of a chain: the rung-2 `uri` form of the resolved
/// `Location`, without its fragment (never sent, RFC 9110 §7.1); None when
/// it is not http(s).
pub fn next_hop(resolved: &str) -> Option<String> {
    let n = crate::run::rung2().normalize(resolved).ok()?.into_owned();
    is_http_target(&n).then_some(n)
}

/// Whether a rung-2 `uri` form can be requested: `http` or `https` with a
/// non-empty host (RFC 9110 §4.2.1, §4.2.2: "A sender MUST NOT generate an
/// "http" URI with an empty host identifier"). `http:/d` and `http:///d`
/// must never reach the HTTP client, whose WHATWG parser would read them as
/// `http://d/`: another host than the URI names.
pub fn is_http_target(n: &str) -> bool {
    let http = n.starts_with("http://") || n.starts_with("https://");
    http && irinorm::split_trusted(n)
        .host(n)
        .is_some_and(|h| !h.is_empty())
}

/// `host:port` of a URL, the key of its host gate (ports distinguish
/// servers: RFC 6454 §4 origins).
fn authority(u: &Url) -> String {
    format!(
        "{}:{}",
        u.host_str().unwrap_or(""),
        u.port_or_known_default().unwrap_or(0)
    )
}

fn origin(u: &Url) -> String {
    format!("{}://{}", u.scheme(), authority(u))
}

fn literal_ip(u: &Url) -> Option<IpAddr> {
    match u.host()? {
        url::Host::Ipv4(a) => Some(IpAddr::V4(a)),
        url::Host::Ipv6(a) => Some(IpAddr::V6(a)),
        url::Host::Domain(_) => None,
    }
}

/// The failure kind of a transport error.
fn error_kind(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        kind::TIMEOUT
    } else if e.is_connect() {
        kind::CONNECT
    } else if e.is_body() || e.is_decode() {
        kind::BODY
    } else {
        kind::CONNECTION
    }
}

/// An error and its sources, one after the other.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(x) = src {
        let m = x.to_string();
        if !s.contains(&m) {
            s.push_str(": ");
            s.push_str(&m);
        }
        src = x.source();
    }
    s
}

/// `--loopback-only`: names resolve only to loopback addresses.
struct LoopbackResolver;

impl reqwest::dns::Resolve for LoopbackResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let all: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| a.ip().is_loopback())
                .collect();
            if all.is_empty() {
                return Err(format!("{host}: no loopback address (--loopback-only)").into());
            }
            Ok(Box::new(all.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("120"), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(" 0 "), Some(Duration::ZERO));
        // A date in the past means "now" (RFC 9110 §10.2.3 example date).
        assert_eq!(
            parse_retry_after("Fri, 31 Dec 1999 23:59:59 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn locations() {
        // RFC 3986 §5.4.1 examples through the Location path.
        let b = "http://a/b/c/d;p?q";
        assert_eq!(resolve_location(b, "../g").as_deref(), Some("http://a/b/g"));
        assert_eq!(resolve_location(b, "//g").as_deref(), Some("http://g"));
        assert_eq!(
            resolve_location(b, "?y").as_deref(),
            Some("http://a/b/c/d;p?y")
        );
        assert_eq!(resolve_location(b, "http://x y/"), None);
        assert_eq!(next_hop("HTTP://A:80/b#f").as_deref(), Some("http://a/b"));
        assert_eq!(next_hop("http://g").as_deref(), Some("http://g/"));
        assert_eq!(next_hop("mailto:a@b"), None);
        assert_eq!(next_hop("ftp://a/"), None);
        // No host: never requested (the URL Standard would read `http://d/`).
        assert_eq!(next_hop("http:/d?e"), None);
        assert_eq!(next_hop("http:///d"), None);
        assert_eq!(next_hop("https://@:80/"), None);
        assert_eq!(
            resolve_location("http:", "/d?e")
                .as_deref()
                .and_then(next_hop),
            None
        );
    }

    #[test]
    fn redirect_statuses() {
        let r: Vec<u16> = (100..600).filter(|s| is_redirect(*s)).collect();
        assert_eq!(r, [301, 302, 303, 307, 308]);
    }
}
