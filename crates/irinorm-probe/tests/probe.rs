//! Probing against servers started here on 127.0.0.1, never anything else:
//! every prober runs with `loopback_only`, and every host name is given
//! with `resolve`. Assertions are on what was recorded and on the servers'
//! own counters, never on elapsed time.

mod server;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use irinorm_probe::failure::kind;
use irinorm_probe::{
    run, InputUrl, Observation, ObservationKind, ProbeConfig, Probed, Prober, Summary,
};
use server::{closed_port, RawServer, TestServer};

const HOSTS: [&str; 3] = ["site.test", "www.site.test", "other.test"];

fn cfg(port: u16) -> ProbeConfig {
    ProbeConfig {
        loopback_only: true,
        resolve: HOSTS
            .iter()
            .map(|h| (h.to_string(), ([127, 0, 0, 1], port).into()))
            .collect(),
        connect_timeout: Duration::from_secs(5),
        timeout: Duration::from_secs(10),
        backoff: Duration::from_millis(5),
        retries: 2,
        ..ProbeConfig::default()
    }
}

async fn probe_with(c: ProbeConfig, url: &str) -> (Probed, Arc<Prober>) {
    let p = Arc::new(Prober::new(c).unwrap());
    (p.probe(url).await, p)
}

/// (kind, url, status, location) of each observation.
fn hops(p: &Probed) -> Vec<(ObservationKind, String, Option<u16>, Option<String>)> {
    p.observations
        .iter()
        .map(|o| (o.kind, o.url.clone(), o.status, o.location.clone()))
        .collect()
}

use ObservationKind::{Redirect, Response};

fn redirect(
    url: &str,
    status: u16,
    to: &str,
) -> (ObservationKind, String, Option<u16>, Option<String>) {
    (Redirect, url.to_owned(), Some(status), Some(to.to_owned()))
}

fn answer(url: &str, status: u16) -> (ObservationKind, String, Option<u16>, Option<String>) {
    (Response, url.to_owned(), Some(status), None)
}

#[tokio::test]
async fn redirect_chains_of_every_kind_are_recorded_hop_by_hop() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    // (start, status, Location resolved, next request) for conventional
    // redirects (LADDER.md rung 3) and for moves.
    let cases = [
        ("/data", 301, u("/data/"), u("/data/")),
        ("/a/index.html", 301, u("/a/"), u("/a/")),
        ("/Case", 308, u("/case"), u("/case")),
        ("/q?sid=1&id=2", 301, u("/q?id=2"), u("/q?id=2")),
        (
            "/www",
            301,
            s.url("www.site.test", "/www"),
            s.url("www.site.test", "/www"),
        ),
        ("/old", 301, u("/new"), u("/new")),
        ("/members", 302, u("/login"), u("/login")),
        ("/gone-home", 301, u("/"), u("/")),
        ("/see-other", 303, u("/new"), u("/new")),
        ("/temporary", 307, u("/new"), u("/new")),
        // RFC 3986 §5.2.4: "../../x" from /r/dots/here is /x.
        ("/r/dots/here", 301, u("/x"), u("/x")),
        (
            "/r/netpath",
            301,
            s.url("other.test", "/ok"),
            s.url("other.test", "/ok"),
        ),
        // The fragment is recorded in the Location, never requested.
        ("/r/fragment", 301, u("/ok#section"), u("/ok")),
        // Raw UTF-8 in Location is an IRI: requested in its URI form (RFC 3987 §3.1).
        ("/r/iri", 301, u("/café"), u("/caf%C3%A9")),
    ];
    for (path, status, location, next) in cases {
        let (p, _) = probe_with(cfg(s.port()), &u(path)).await;
        assert_eq!(p.failure, None, "{path}");
        assert_eq!(
            hops(&p),
            [redirect(&u(path), status, &location), answer(&next, 200)],
            "{path}"
        );
        let o = &p.observations[0];
        assert_eq!(o.time.as_ref().map(|t| t.len()), Some(14));
        assert_eq!(o.mime.as_deref(), Some("text/plain"));
        assert!(o.location_raw.is_some());
    }
}

#[tokio::test]
async fn unusable_locations_end_the_chain_with_their_evidence() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    let (p, _) = probe_with(cfg(s.port()), &u("/r/bad")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::BAD_LOCATION);
    assert_eq!(p.observations.len(), 1);
    assert_eq!(p.observations[0].location, None);
    assert_eq!(
        p.observations[0].location_raw.as_deref(),
        Some("http://[bad/")
    );

    let (p, _) = probe_with(cfg(s.port()), &u("/r/mailto")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::BAD_LOCATION);
    assert_eq!(
        p.observations[0].location.as_deref(),
        Some("mailto:a@example.test")
    );

    // A 301 without Location, a 300 with one: final responses (RFC 9110 §15.4).
    let (p, _) = probe_with(cfg(s.port()), &u("/r/none")).await;
    assert_eq!(
        (p.failure.clone(), hops(&p)),
        (None, vec![answer(&u("/r/none"), 301)])
    );
    let (p, _) = probe_with(cfg(s.port()), &u("/multiple")).await;
    assert_eq!(hops(&p), [answer(&u("/multiple"), 300)]);
    assert_eq!(p.observations[0].location_raw.as_deref(), Some("/ok"));
    assert_eq!(s.seen.any("/ok"), 0);
}

#[tokio::test]
async fn loops_and_long_chains_stop() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    let (p, _) = probe_with(cfg(s.port()), &u("/loop1")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::REDIRECT_LOOP);
    assert_eq!(
        hops(&p),
        [
            redirect(&u("/loop1"), 301, &u("/loop2")),
            redirect(&u("/loop2"), 302, &u("/loop1"))
        ]
    );
    assert_eq!(s.seen.any("/loop1"), 1);

    let (p, _) = probe_with(cfg(s.port()), &u("/self")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::REDIRECT_LOOP);
    assert_eq!(p.observations.len(), 1);

    // Three redirects are followed with max_redirects = 3; the fourth is
    // recorded and ends the chain.
    let c = ProbeConfig {
        max_redirects: 3,
        ..cfg(s.port())
    };
    let (p, _) = probe_with(c.clone(), &u("/chain/3")).await;
    assert_eq!(p.failure, None);
    assert_eq!(p.observations.len(), 4);
    assert_eq!(p.observations[3].status, Some(200));
    let (p, _) = probe_with(c, &u("/chain/10")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::TOO_MANY_REDIRECTS);
    assert_eq!(p.observations.len(), 4);
    assert!(p.observations.iter().all(|o| o.kind == Redirect));
    // Requested: /chain/10, 9, 8 and 7.
    assert_eq!(s.seen.any("/chain/7"), 1);
    assert_eq!(s.seen.any("/chain/6"), 0);
}

#[tokio::test]
async fn slow_responses_time_out_and_are_not_retried() {
    let s = TestServer::start().await;
    let c = ProbeConfig {
        timeout: Duration::from_millis(300),
        ..cfg(s.port())
    };
    let (p, pr) = probe_with(c, &s.url("site.test", "/slow")).await;
    let f = p.failure.unwrap();
    assert_eq!(f.kind, kind::TIMEOUT, "{f:?}");
    assert!(p.observations.is_empty());
    assert_eq!(s.seen.any("/slow"), 1);
    assert_eq!(pr.counters.retries.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn throttling_is_retried_honouring_retry_after() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    let (p, pr) = probe_with(cfg(s.port()), &u("/busy")).await;
    assert_eq!(
        (p.failure.clone(), hops(&p)),
        (None, vec![answer(&u("/busy"), 200)])
    );
    assert_eq!(s.seen.hits("HEAD /busy"), 2);
    // The wait asked by `Retry-After: 1`, not the 5 ms backoff.
    assert_eq!(pr.counters.retry_wait_ms.load(Ordering::Relaxed), 1000);

    // An HTTP-date in the past: retry at once.
    let (p, pr) = probe_with(cfg(s.port()), &u("/busy-date")).await;
    assert_eq!(hops(&p), [answer(&u("/busy-date"), 200)]);
    assert_eq!(pr.counters.retry_wait_ms.load(Ordering::Relaxed), 0);

    // 429 every time: the last answer is recorded, and the failure.
    let (p, _) = probe_with(cfg(s.port()), &u("/always429")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::RETRIES_EXHAUSTED);
    assert_eq!(hops(&p), [answer(&u("/always429"), 429)]);
    assert_eq!(s.seen.hits("HEAD /always429"), 3);

    // Retry-After beyond the limit: not waited for.
    let (p, _) = probe_with(cfg(s.port()), &u("/toolong")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::RETRY_AFTER_TOO_LONG);
    assert_eq!(hops(&p), [answer(&u("/toolong"), 503)]);
    assert_eq!(s.seen.hits("HEAD /toolong"), 1);
}

#[tokio::test]
async fn refused_head_falls_back_to_get() {
    let s = TestServer::start().await;
    for path in ["/nohead", "/nohead501"] {
        let url = s.url("site.test", path);
        let (p, pr) = probe_with(cfg(s.port()), &url).await;
        assert_eq!(
            (p.failure.clone(), hops(&p)),
            (None, vec![answer(&url, 200)])
        );
        assert_eq!(s.seen.hits(&format!("HEAD {path}")), 1);
        assert_eq!(s.seen.hits(&format!("GET {path}")), 1);
        assert_eq!(pr.counters.head_fallbacks.load(Ordering::Relaxed), 1);
    }
}

#[tokio::test]
async fn a_reset_on_head_falls_back_to_get() {
    let raw = RawServer::start(false).await;
    let c = ProbeConfig {
        robots: false,
        ..cfg(raw.addr.port())
    };
    let url = format!("http://127.0.0.1:{}/x", raw.addr.port());
    let (p, pr) = probe_with(c, &url).await;
    assert_eq!(
        (p.failure.clone(), hops(&p)),
        (None, vec![answer(&url, 200)])
    );
    assert_eq!(pr.counters.head_fallbacks.load(Ordering::Relaxed), 1);
    assert_eq!(raw.connections.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn robots_txt_forbids_a_path_unless_ignored() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    let p = Arc::new(Prober::new(cfg(s.port())).unwrap());
    let r = p.probe(&u("/private/x")).await;
    assert_eq!(r.failure.unwrap().kind, kind::ROBOTS);
    assert!(r.observations.is_empty());
    let r = p.probe(&u("/ok")).await;
    assert_eq!(r.failure, None);
    assert_eq!(s.seen.any("/private/x"), 0);
    // Fetched once per origin.
    assert_eq!(s.seen.hits("GET /robots.txt"), 1);

    let c = ProbeConfig {
        robots: false,
        ..cfg(s.port())
    };
    let (r, _) = probe_with(c, &u("/private/x")).await;
    assert_eq!(hops(&r), [answer(&u("/private/x"), 200)]);
    assert_eq!(s.seen.hits("GET /robots.txt"), 1);
}

#[tokio::test]
async fn a_host_that_closes_connections() {
    let raw = RawServer::start(true).await;
    let url = format!("http://127.0.0.1:{}/x", raw.addr.port());
    // robots.txt unreachable after the 2 retries: everything disallowed
    // (RFC 9309 §2.3.1.4).
    let (p, _) = probe_with(cfg(raw.addr.port()), &url).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::ROBOTS);
    let robots_conns = raw.connections.load(Ordering::SeqCst);
    assert_eq!(robots_conns, 3);

    let c = ProbeConfig {
        robots: false,
        ..cfg(raw.addr.port())
    };
    let (p, pr) = probe_with(c, &url).await;
    let f = p.failure.unwrap();
    assert_eq!(f.kind, kind::CONNECTION, "{f:?}");
    assert!(p.observations.is_empty());
    // HEAD once, then GET with 2 retries.
    assert_eq!(raw.connections.load(Ordering::SeqCst) - robots_conns, 4);
    assert_eq!(pr.counters.retries.load(Ordering::Relaxed), 2);
}

#[tokio::test]
async fn connection_refused_is_retried_then_recorded() {
    let port = closed_port();
    let c = ProbeConfig {
        robots: false,
        ..cfg(port)
    };
    let (p, pr) = probe_with(c, &format!("http://site.test:{port}/")).await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::CONNECT);
    assert_eq!(pr.counters.requests.load(Ordering::Relaxed), 3);
}

#[tokio::test]
async fn per_host_concurrency_never_exceeds_its_limit() {
    let s = TestServer::start().await;
    for per_host in [1usize, 2, 3] {
        let c = ProbeConfig {
            per_host,
            concurrency: 64,
            ..cfg(s.port())
        };
        let prober = Arc::new(Prober::new(c).unwrap());
        let inputs = (0..24u64).map(|i| {
            let host = ["site.test", "other.test"][(i % 2) as usize];
            InputUrl::new(i + 1, s.url(host, &format!("/slowish/{per_host}/{i}")))
        });
        let sum: Summary = run(prober, inputs, |_| false, |_| Ok::<(), ()>(()))
            .await
            .unwrap();
        assert_eq!(sum.final_status.get("2xx"), Some(&24));
        for host in ["site.test", "other.test"] {
            let h = format!("{host}:{}", s.port());
            let max = s.seen.max_in_flight(&h);
            assert!(
                max >= 1 && max <= per_host as u64,
                "{h}: {max} > {per_host}"
            );
        }
        s.seen.in_flight.lock().unwrap().clear();
    }
}

#[tokio::test]
async fn digests_of_the_final_body() {
    let s = TestServer::start().await;
    let c = ProbeConfig {
        digest_bytes: Some(1 << 20),
        ..cfg(s.port())
    };
    // Expected values from Python's hashlib + base64.b32encode.
    let (p, _) = probe_with(c.clone(), &s.url("site.test", "/data")).await;
    let d: Vec<Option<&str>> = p.observations.iter().map(|o| o.digest.as_deref()).collect();
    assert_eq!(d, [None, Some("sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N")]);
    assert_eq!(s.seen.hits("HEAD /data/"), 0);
    assert_eq!(s.seen.hits("GET /data/"), 1);
    let (p, _) = probe_with(c, &s.url("site.test", "/big")).await;
    assert_eq!(
        p.observations[0].digest.as_deref(),
        Some("sha1:GFIDIO7SLGKNTIWIPWXW6WJPVYKUJGO6")
    );
    // A prefix is marked as such: it must never equal a WARC payload digest.
    let c = ProbeConfig {
        digest_bytes: Some(4),
        ..cfg(s.port())
    };
    let (p, _) = probe_with(c.clone(), &s.url("site.test", "/big")).await;
    assert_eq!(
        p.observations[0].digest.as_deref(),
        Some("sha1-first4:YS24Q26VO7ND3E76U7EJZOTBY6FURZMJ")
    );
    // Exactly the limit: the whole body.
    let c5 = ProbeConfig {
        digest_bytes: Some(5),
        ..c
    };
    let (p, _) = probe_with(c5, &s.url("site.test", "/ok")).await;
    assert_eq!(
        p.observations[0].digest.as_deref(),
        Some("sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N")
    );
}

#[tokio::test]
async fn a_run_dedupes_at_rung_2_skips_fresh_urls_and_loses_nothing() {
    let s = TestServer::start().await;
    let u = |p: &str| s.url("site.test", p);
    let lines = [
        u("/ok"),
        format!("HTTP://SITE.test:{}/ok#frag", s.port()),
        u("/%6Fk"),
        "not a url".to_owned(),
        "ftp://site.test/x".to_owned(),
        u("/data"),
        "http://[::1".to_owned(),
        u("/old"),
    ];
    let inputs = lines
        .iter()
        .enumerate()
        .map(|(i, t)| InputUrl::new(i as u64 + 1, t.clone()))
        .chain([
            InputUrl::new(9, "/relative"),
            // No host: the URL Standard would request http://x/ instead.
            InputUrl::new(11, "http:///x"),
            InputUrl::from_bytes(0, 10, 0, b"http://site.test/\xff"),
        ]);
    let prober = Arc::new(Prober::new(cfg(s.port())).unwrap());
    let mut records = Vec::new();
    let sum = run(
        prober,
        inputs,
        |url| url.ends_with("/data"),
        |r| {
            records.push(r.clone());
            Ok::<(), ()>(())
        },
    )
    .await
    .unwrap();
    assert_eq!(sum.read, 11);
    assert_eq!(sum.duplicates, 2);
    assert_eq!(sum.fresh, 1);
    assert_eq!(sum.probed, 2);
    assert_eq!(sum.redirected, 1);
    assert_eq!(sum.failures.get(kind::INVALID_URL), Some(&4));
    assert_eq!(sum.failures.get(kind::INVALID_UTF8), Some(&1));
    assert_eq!(sum.failures.get(kind::UNSUPPORTED_SCHEME), Some(&1));
    assert_eq!(
        sum.read,
        sum.probed + sum.duplicates + sum.fresh + sum.failed()
    );
    assert_eq!(records.len(), 8);
    assert_eq!(s.seen.any("/ok"), 1);
    assert_eq!(s.seen.any("/data"), 0);
    // Observations are numbered in the run, one number each.
    let mut offs: Vec<u64> = records
        .iter()
        .flat_map(|r| r.observations.iter().map(|o: &Observation| o.offset))
        .collect();
    offs.sort();
    assert_eq!(offs, (0..sum.observations).collect::<Vec<_>>());
    assert_eq!(sum.observations, 3);
}

#[tokio::test]
async fn nothing_outside_loopback() {
    let c = ProbeConfig {
        resolve: vec![("a.test".into(), ([192, 0, 2, 1], 80).into())],
        ..cfg(1)
    };
    assert!(Prober::new(c).is_err());
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): refused before any connection.
    let (p, pr) = probe_with(cfg(1), "http://192.0.2.1/").await;
    assert_eq!(p.failure.as_ref().unwrap().kind, kind::BLOCKED_ADDRESS);
    assert_eq!(pr.counters.requests.load(Ordering::Relaxed), 0);
}

/// The evidence of a probe run, stored, gives the rung-3 classes of
/// LADDER.md: conventional permanent redirects are edges, moves are not
/// (unless the policy is widened), loops end at their smallest key.
#[test]
fn probed_evidence_gives_rung_3_classes() {
    use irinorm::ladder::Options;
    use irinorm::protocol::{Protocol, ProtocolOptions, RedirectPolicy};
    use irinorm_evidence::{Store, StoreEvidence};
    use irinorm_probe::probe_into_store;

    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(TestServer::start());
    let u = |p: &str| s.url("site.test", p);
    let paths = [
        "/data",
        "/a/index.html",
        "/Case",
        "/q?sid=1&id=2",
        "/www",
        "/old",
        "/members",
        "/gone-home",
        "/temporary",
        "/loop1",
        "/ok",
        "/private/x",
    ];
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let inputs = || {
        paths
            .iter()
            .enumerate()
            .map(|(i, p)| InputUrl::new(i as u64 + 1, u(p)))
    };
    let mut failures = Vec::new();
    let r = probe_into_store(&db, cfg(s.port()), inputs(), None, |rec| {
        if let Some(f) = &rec.failure {
            failures.push(f.kind);
        }
        Ok(())
    })
    .unwrap();
    assert!(r.source.starts_with("probe:"), "{}", r.source);
    failures.sort();
    assert_eq!(failures, [kind::REDIRECT_LOOP, kind::ROBOTS]);
    assert_eq!(r.ingest.inserted, r.summary.observations);
    // 10 chains of two responses, /ok alone, the loop's two redirects.
    assert_eq!(r.summary.observations, 2 * 9 + 1 + 2);
    assert!(r.store_rejects.is_empty());

    let store = Store::open(&db).unwrap();
    let ev = StoreEvidence::load(&store).unwrap();
    let rung3 = |policy| {
        let p = Protocol::new(
            Options::default(),
            &ev,
            ProtocolOptions {
                redirects: policy,
                min_host_support: 3,
            },
        );
        move |path: &str| p.normalize(&u(path)).unwrap()
    };
    let conventional = rung3(RedirectPolicy::Conventional);
    assert_eq!(conventional("/data"), u("/data/"));
    assert_eq!(conventional("/a/index.html"), u("/a/"));
    assert_eq!(conventional("/Case"), u("/case"));
    assert_eq!(conventional("/q?sid=1&id=2"), u("/q?id=2"));
    assert_eq!(conventional("/www"), s.url("www.site.test", "/www"));
    for moved in ["/old", "/members", "/gone-home", "/temporary", "/loop1"] {
        assert_eq!(conventional(moved), u(moved), "{moved}");
    }
    let permanent = rung3(RedirectPolicy::Permanent);
    assert_eq!(permanent("/old"), u("/new"));
    assert_eq!(permanent("/members"), u("/members"));
    let all = rung3(RedirectPolicy::All);
    assert_eq!(all("/members"), u("/login"));
    assert_eq!(all("/temporary"), u("/new"));
    // /loop1 <-> /loop2: the cycle ends at its smallest key.
    assert_eq!(all("/loop2"), u("/loop1"));

    // A second run with --max-age skips what was probed (only URLs with
    // evidence: the robots-disallowed one is tried again).
    let before = s.seen.hits.lock().unwrap().values().sum::<u64>();
    let r2 = probe_into_store(
        &db,
        cfg(s.port()),
        inputs(),
        Some(Duration::from_secs(3600)),
        |_| Ok(()),
    )
    .unwrap();
    assert_ne!(r2.source, r.source);
    assert_eq!(r2.summary.fresh, 11);
    assert_eq!(r2.summary.probed, 1);
    assert_eq!(r2.summary.failures.get(kind::ROBOTS), Some(&1));
    // Only robots.txt was fetched again (a new run has a new cache).
    let after = s.seen.hits.lock().unwrap().values().sum::<u64>();
    assert_eq!(after - before, 1);
    // Run 1 fetched it for site.test and for www.site.test (the /www hop).
    assert_eq!(s.seen.hits("GET /robots.txt"), 3);
}
