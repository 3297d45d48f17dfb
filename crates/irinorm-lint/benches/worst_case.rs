//! Worst-case inputs, in ns per byte, for every operation whose cost the
//! issue bounds: parse (all grammars), resolve, IRI-to-URI (with UTS #46),
//! URI-to-IRI, and lint. Each line gives the cost at N and 4N bytes and the
//! growth (linear is about 4).
//!
//! `cargo bench -p irinorm-lint --bench worst_case` (N = 64 KiB; set
//! `WORST_CASE_N` to change it). Under `cargo test --benches` it runs each
//! case once at a small size, as a smoke test.

use std::time::{Duration, Instant};

use irinorm::{iri_to_uri_with, parse, resolve, uri_to_iri, Grammar, ToUriOptions};
use irinorm_lint::{lint, LintOptions};

fn build(head: &str, unit: &str, tail: &str, n: usize) -> String {
    let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
    let mut s = String::with_capacity(n + unit.len());
    s.push_str(head);
    for _ in 0..k {
        s.push_str(unit);
    }
    s.push_str(tail);
    s
}

/// How many times this thread has been put on a CPU (Linux).
fn times_scheduled() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().nth(2)?.parse().ok()
}

/// The best unpreempted run (or the best run) of `f`, per call.
fn measure(f: &dyn Fn()) -> Duration {
    f();
    let t = Instant::now();
    f();
    let one = t.elapsed().max(Duration::from_nanos(100));
    let iters = (Duration::from_millis(2).as_nanos() / one.as_nanos()).clamp(1, 100_000) as u32;
    let (mut clean, mut any, mut n_clean) = (Duration::MAX, Duration::MAX, 0);
    let start = Instant::now();
    for run in 0..200 {
        if n_clean >= 15 || (run >= 15 && start.elapsed() > Duration::from_secs(2)) {
            break;
        }
        let before = times_scheduled();
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let d = t.elapsed() / iters;
        any = any.min(d);
        if before.is_none() || before == times_scheduled() {
            clean = clean.min(d);
            n_clean += 1;
        }
    }
    if n_clean >= 3 {
        clean
    } else {
        any
    }
}

type Op = Box<dyn Fn(&str)>;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let n: usize = std::env::var("WORST_CASE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if bench { 64 * 1024 } else { 1024 });

    let parse_all: Op = Box::new(|s| {
        for g in Grammar::ALL {
            let _ = std::hint::black_box(parse(s, g));
        }
    });
    let resolve_op: Op = Box::new(|r| {
        let _ = std::hint::black_box(resolve("http://a/b/c/d;p?q", r));
    });
    let idna = ToUriOptions {
        idna: true,
        ..ToUriOptions::default()
    };
    let to_uri: Op = Box::new(move |s| {
        let _ = std::hint::black_box(iri_to_uri_with(s, &idna));
    });
    let to_iri: Op = Box::new(|s| {
        let _ = std::hint::black_box(uri_to_iri(s));
    });
    let opts = LintOptions {
        max_input_len: usize::MAX,
        ..LintOptions::default()
    };
    let lint_op: Op = Box::new(move |s| {
        std::hint::black_box(lint(s, &opts));
    });

    type Case = (&'static str, &'static str, &'static str, &'static str);
    let groups: Vec<(&str, &Op, Vec<Case>)> = vec![
        (
            "parse",
            &parse_all,
            vec![
                (
                    "typical URL",
                    "https://www.example.com",
                    "/articles/some-title_42",
                    "?id=1",
                ),
                ("non-ASCII path", "http://a/", "é", ""),
                ("long runs of triplets", "http://a/", "%C3%A9", ""),
                ("thousands of labels", "http://", "a.", "com/"),
                ("a huge label", "http://", "a", "/"),
                ("deep dot segments", "http://a", "/a/..", ""),
                ("many ':'", "http://", ":", "/"),
                ("many '@' and ':'", "http://", "a:b@", "h/"),
                (
                    "maximal IPv6 + zone",
                    "http://[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255%25",
                    "a",
                    "]/",
                ),
            ],
        ),
        (
            "resolve",
            &resolve_op,
            vec![
                ("typical reference", "../", "articles/some-title_42/", "x"),
                ("a/.. pairs", "", "a/../", "g"),
                ("../ run", "", "../", "g"),
                ("./ run", "", "./", "g"),
            ],
        ),
        (
            "to-uri --idna",
            &to_uri,
            vec![
                (
                    "typical IRI",
                    "https://www.exämple.com",
                    "/résumé-de-l-été",
                    "?q=1",
                ),
                ("non-ASCII path", "http://a/", "é", ""),
                ("printable ASCII to encode", "http://a/", "<>", ""),
                ("thousands of IDN labels", "http://", "é.", "com/"),
                ("a huge IDN label", "http://", "é", "/"),
            ],
        ),
        (
            "to-iri",
            &to_iri,
            vec![
                (
                    "typical URI",
                    "https://www.example.com",
                    "/r%C3%A9sum%C3%A9-title",
                    "?q=1",
                ),
                ("UTF-8 triplets", "http://a/", "%C3%A9", ""),
                ("overlong triplets", "http://a/", "%C0%AF", ""),
                ("Latin-1 triplets", "http://a/", "%E9", ""),
                ("encoded bidi controls", "http://a/", "%E2%80%AE", ""),
            ],
        ),
        (
            "lint",
            &lint_op,
            vec![
                (
                    "typical IRI",
                    "https://www.example.com",
                    "/articles/résumé-de-l-été_42/статья",
                    "?q=1",
                ),
                ("mixed-script words", "http://a/", "p\u{430}ypal/", ""),
                ("confusable labels", "http://", "p\u{430}ypal.", "com/"),
                ("xn-- labels", "http://", "xn--80ak6aa92e.", "com/"),
                ("a huge label", "http://", "a", "/"),
                ("a huge IDN host", "http://", "é", "/"),
                ("bidi rule units", "http://a/", "\u{5D0}a/", ""),
                ("not-NFC text", "http://a/", "e\u{301}", ""),
                ("overlong triplets", "http://a/", "%C0%AF", ""),
                ("invalid UTF-8 triplets", "http://a/", "%E9x", ""),
                ("many '@' and ':'", "http://", "a:b@", "h/"),
            ],
        ),
    ];

    println!("worst cases, ns per byte at N = {n} and 4N (growth: linear ~4, quadratic ~16)");
    for (op, f, cases) in &groups {
        for (name, head, unit, tail) in cases {
            let small = build(head, unit, tail, n);
            let large = build(head, unit, tail, 4 * n);
            if !bench {
                f(&small);
                continue;
            }
            let a = measure(&|| f(&small));
            let b = measure(&|| f(&large));
            let nb = |d: Duration, len: usize| d.as_nanos() as f64 / len as f64;
            println!(
                "{op:14} {name:28} {:8.2} ns/B {:8.2} ns/B  growth x{:.2}",
                nb(a, small.len()),
                nb(b, large.len()),
                b.as_secs_f64() / a.as_secs_f64().max(1e-12)
            );
        }
    }
}
