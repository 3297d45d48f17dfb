//! The test servers: everything listens on 127.0.0.1 only, on ports the
//! OS picks. Their counters (hits per path and method, requests in flight
//! per host, connections) are what the tests assert, never wall time.

#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the HTTP test server saw.
#[derive(Debug, Default)]
pub struct Seen {
    /// `METHOD path?query` -> count.
    pub hits: Mutex<HashMap<String, u64>>,
    /// Host header -> (in flight now, most in flight at once).
    pub in_flight: Mutex<HashMap<String, (u64, u64)>>,
}

impl Seen {
    pub fn hits(&self, method_and_path: &str) -> u64 {
        self.hits
            .lock()
            .unwrap()
            .get(method_and_path)
            .copied()
            .unwrap_or(0)
    }

    /// Hits of a path by any method.
    pub fn any(&self, path: &str) -> u64 {
        ["GET", "HEAD"]
            .iter()
            .map(|m| self.hits(&format!("{m} {path}")))
            .sum()
    }

    pub fn max_in_flight(&self, host: &str) -> u64 {
        self.in_flight
            .lock()
            .unwrap()
            .get(host)
            .map(|x| x.1)
            .unwrap_or(0)
    }
}

/// The HTTP test server.
#[derive(Debug)]
pub struct TestServer {
    pub addr: SocketAddr,
    pub seen: Arc<Seen>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Seen::default());
        let app = Router::new().fallback(handle).with_state(Arc::clone(&seen));
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        TestServer { addr, seen }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://{host}:{port}{path}`.
    pub fn url(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.port())
    }
}

fn reply(status: u16, location: Option<&[u8]>, retry_after: Option<&str>, body: &str) -> Response {
    let mut r = Response::new(Body::from(body.to_owned()));
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    if let Some(l) = location {
        r.headers_mut()
            .insert("location", HeaderValue::from_bytes(l).unwrap());
    }
    if let Some(a) = retry_after {
        r.headers_mut()
            .insert("retry-after", HeaderValue::from_str(a).unwrap());
    }
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("text/plain"));
    r
}

fn redirect(status: u16, location: &str) -> Response {
    reply(status, Some(location.as_bytes()), None, "moved")
}

async fn handle(State(seen): State<Arc<Seen>>, req: Request) -> Response {
    let method = req.method().as_str().to_owned();
    let pq = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let host = req
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let hits = {
        let mut h = seen.hits.lock().unwrap();
        let n = h.entry(format!("{method} {pq}")).or_default();
        *n += 1;
        *n
    };
    {
        let mut f = seen.in_flight.lock().unwrap();
        let e = f.entry(host.clone()).or_default();
        e.0 += 1;
        e.1 = e.1.max(e.0);
    }
    let r = route(&method, &pq, &host, hits).await;
    {
        let mut f = seen.in_flight.lock().unwrap();
        f.get_mut(&host).unwrap().0 -= 1;
    }
    r
}

async fn route(method: &str, pq: &str, host: &str, hits: u64) -> Response {
    let port = host.rsplit(':').next().unwrap_or("");
    match pq {
        "/robots.txt" => reply(
            200,
            None,
            None,
            "User-agent: *\nDisallow: /private\n\nUser-agent: slowbot\nDisallow:\nCrawl-delay: 1\n",
        ),
        "/ok" | "/data/" | "/a/" | "/case" | "/q?id=2" | "/new" | "/login" | "/" | "/x"
        | "/caf%C3%A9" => reply(200, None, None, "hello"),
        "/big" => reply(200, None, None, &"0123456789".repeat(1000)),
        // Conventional (LADDER.md rung 3): trailing slash, index, case,
        // a dropped parameter, www. added.
        "/data" => redirect(301, "/data/"),
        "/a/index.html" => redirect(301, "/a/"),
        "/Case" => redirect(308, "/case"),
        "/q?sid=1&id=2" => redirect(301, "/q?id=2"),
        "/www" if host.starts_with("www.") => reply(200, None, None, "hello"),
        "/www" => redirect(301, &format!("http://www.site.test:{port}/www")),
        "/to-https" => redirect(301, &format!("https://site.test:{port}/ok")),
        // Not conventional: moves, logins, home page, temporary kinds.
        "/old" => redirect(301, "/new"),
        "/members" => redirect(302, "/login"),
        "/gone-home" => redirect(301, "/"),
        "/see-other" => redirect(303, "/new"),
        "/temporary" => redirect(307, "/new"),
        // Location forms: relative with dot segments, network-path, with a
        // fragment, raw UTF-8 bytes (an IRI), unusable ones.
        "/r/dots/here" => redirect(301, "../../x"),
        "/r/netpath" => redirect(301, &format!("//other.test:{port}/ok")),
        "/r/fragment" => redirect(301, "/ok#section"),
        "/r/iri" => reply(301, Some("/café".as_bytes()), None, ""),
        "/r/bad" => redirect(301, "http://[bad/"),
        "/r/mailto" => redirect(301, "mailto:a@example.test"),
        "/r/none" => reply(301, None, None, "no location"),
        "/multiple" => reply(300, Some(b"/ok"), None, ""),
        // Loops and long chains.
        "/loop1" => redirect(301, "/loop2"),
        "/loop2" => redirect(302, "/loop1"),
        "/self" => redirect(301, "/self"),
        p if p.starts_with("/chain/") => {
            let n: u32 = p["/chain/".len()..].parse().unwrap();
            if n == 0 {
                reply(200, None, None, "end")
            } else {
                redirect(301, &format!("/chain/{}", n - 1))
            }
        }
        // Slow: longer than any timeout a test sets.
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(20)).await;
            reply(200, None, None, "late")
        }
        p if p.starts_with("/slowish/") => {
            tokio::time::sleep(Duration::from_millis(40)).await;
            reply(200, None, None, "ok")
        }
        // Throttling.
        "/busy" if hits == 1 => reply(429, None, Some("1"), "slow down"),
        "/busy" => reply(200, None, None, "hello"),
        "/busy-date" if hits == 1 => reply(503, None, Some("Fri, 31 Dec 1999 23:59:59 GMT"), ""),
        "/busy-date" => reply(200, None, None, "hello"),
        "/always429" => reply(429, None, Some("0"), ""),
        "/toolong" => reply(503, None, Some("99999"), ""),
        // HEAD refused.
        "/nohead" if method == "HEAD" => reply(405, None, None, ""),
        "/nohead501" if method == "HEAD" => reply(501, None, None, ""),
        "/nohead" | "/nohead501" => reply(200, None, None, "hello"),
        p if p.starts_with("/private") => reply(200, None, None, "secret"),
        _ => reply(404, None, None, "not found"),
    }
}

/// A raw TCP server: `close_all` closes every connection at once;
/// otherwise it closes connections whose request is `HEAD` and answers
/// `GET` with `200 ok`. Counts connections.
#[derive(Debug)]
pub struct RawServer {
    pub addr: SocketAddr,
    pub connections: Arc<AtomicU64>,
}

impl RawServer {
    pub async fn start(close_all: bool) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicU64::new(0));
        let c = Arc::clone(&connections);
        tokio::spawn(async move {
            loop {
                let Ok((mut s, _)) = listener.accept().await else {
                    return;
                };
                c.fetch_add(1, Ordering::SeqCst);
                if close_all {
                    drop(s);
                    continue;
                }
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    let mut got = Vec::new();
                    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                        match s.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => got.extend_from_slice(&buf[..n]),
                        }
                    }
                    if got.starts_with(b"HEAD") {
                        return; // closed without an answer
                    }
                    let _ = s
                        .write_all(
                            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
                        )
                        .await;
                });
            }
        });
        RawServer { addr, connections }
    }
}

/// A port on 127.0.0.1 where nothing listens (bound, then released).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}
