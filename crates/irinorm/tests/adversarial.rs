//! Bounded cost: every operation is linear in its input. For each
//! operation (parse under every grammar, resolve, IRI-to-URI with and
//! without UTS #46, URI-to-IRI) a set of worst-case inputs is built at
//! size N and 4N, and the instructions one call executes are counted by
//! callgrind (`irinorm_testdata::cost`: deterministic, the same on a busy
//! machine; issue 14). The tests assert ratios only:
//!
//! - `cost(4N) / cost(N) < 8`: linear work gives about 4, quadratic 16;
//! - `cost(worst, N) / cost(typical, N) < WORST_VS_TYPICAL`: a worst case
//!   may cost more per byte than ordinary URL text of the same length (more
//!   work per character, more output), but only by a constant factor.
//!
//! Timings are in the benchmark `crates/irinorm-lint/benches/worst_case.rs`.
//! Without valgrind these tests say they were skipped (a failure under
//! `CI=true`).

use irinorm::{iri_to_uri, iri_to_uri_with, parse, resolve, uri_to_iri, Grammar, ToUriOptions};
use irinorm_testdata::cost::{self, build, Case, Limits};

/// N; the large input is 4N. Debug builds run these tests, under
/// callgrind (some 50 times slower than native), so N keeps each test
/// within seconds there.
const N: usize = 16 * 1024;
/// Linear is ~4 (instruction counts measured: 3.95 to 4.00, less for
/// inputs refused after a constant prefix); quadratic would be 16 (the
/// self-test's quadratic function: 15.65).
const MAX_GROWTH: f64 = 8.0;
/// Worst case against typical text of the same length, in instructions.
/// The worst cases do per-character work (UTF-8 decoding, `ucschar`
/// checks, three output bytes per input byte, a segment stack) where
/// ordinary URL text is mostly copied or skipped by table lookups; the
/// highest measured ratio is under 8, so 20 leaves room for changes in the
/// code, while a hidden quadratic term (a factor of N/100 or more at
/// N = 16 KiB) cannot pass.
const WORST_VS_TYPICAL: f64 = 20.0;

const LIMITS: Limits = Limits {
    n: N,
    max_growth: MAX_GROWTH,
    worst_vs_typical: WORST_VS_TYPICAL,
};

/// Ordinary URL text of about `n` bytes.
fn typical_uri(n: usize) -> String {
    build(
        "https://www.example.com",
        "/articles/2024/some-article-title_42",
        "?id=12345&ref=home#section-2",
        n,
    )
}

/// Ordinary IRI text of about `n` bytes (some non-ASCII words).
fn typical_iri(n: usize) -> String {
    build(
        "https://www.example.com",
        "/articles/2024/résumé-de-l-été_42/статья",
        "?q=café&ref=home#section-2",
        n,
    )
}

fn case(name: &str, make: impl Fn(usize) -> String) -> Case<'_> {
    cost::case(name, N, make)
}

fn check(op_name: &str, cases: &[Case<'_>], typical: &str, op: &dyn Fn(&str)) {
    cost::check(op_name, LIMITS, cases, typical, op);
}

#[test]
fn parse_is_linear_under_every_grammar() {
    let cases = [
        case("non-ASCII path", |n| build("http://a/", "é", "", n)),
        case("4-byte characters", |n| build("http://a/", "𐌀", "", n)),
        case("triplets", |n| build("http://a/", "%C3%A9", "", n)),
        case("thousands of labels", |n| build("http://", "a.", "com/", n)),
        case("one huge label", |n| build("http://", "a", "/", n)),
        case("non-ASCII labels", |n| build("http://", "é.", "com/", n)),
        case("dot segments", |n| build("http://a", "/a/..", "", n)),
        case("many colons", |n| build("http://", ":", "/", n)),
        case("many colons then @", |n| build("http://", "a:", "@h/", n)),
        case("many @", |n| build("http://a", "@", "/", n)),
        case("unclosed IP literal", |n| build("http://[", "1:", "/", n)),
        case("IPv6 zone", |n| build("http://[fe80::1%25", "a", "]/", n)),
        case("long port", |n| build("http://a:", "8", "/", n)),
        case("bad port at the end", |n| build("http://a:", "8", "x/", n)),
        case("no scheme, colon at the end", |n| build("", "a", ":", n)),
        case("query of ? and /", |n| build("http://a/?", "?/", "", n)),
        case("percent at the end", |n| build("http://a/", "a", "%", n)),
        case("bidi and private use in query", |n| {
            build("http://a/?", "\u{202E}\u{E000}", "", n)
        }),
    ];
    let typical = typical_iri(N);
    check("parse", &cases, &typical, &|s| {
        for g in Grammar::ALL {
            let _ = std::hint::black_box(parse(s, g));
        }
    });
}

#[test]
fn resolve_is_linear() {
    const BASE: &str = "http://a/b/c/d;p?q";
    let cases = [
        case("a/.. pairs", |n| build("", "a/../", "g", n)),
        case("../ run", |n| build("", "../", "g", n)),
        case("deep then up", |n| {
            let half = build("/", "seg/", "", n / 2);
            let up = build("", "../", "", n / 2);
            format!("{half}{up}g")
        }),
        case("./ run", |n| build("", "./", "g", n)),
        case("long segment then ..", |n| build("", "x", "/../../g", n)),
        case("empty segments then ..", |n| build("", "/", "../../g", n)),
        case("query with dots", |n| build("g?", "y/./x/../", "", n)),
    ];
    let typical = format!("../{}", &typical_uri(N)["https://www.example.com/".len()..]);
    check("resolve", &cases, &typical, &|r| {
        let _ = std::hint::black_box(resolve(BASE, r));
    });
    // A deep base, merged with a reference that climbs part of it.
    let cases = [case("deep base", |n| build("http://a", "/b", "/", n))];
    let climb = format!("{}g", "../".repeat(1000));
    check("resolve (base)", &cases, &typical_uri(N), &|b| {
        let _ = std::hint::black_box(resolve(b, &climb));
    });
}

#[test]
fn iri_to_uri_is_linear() {
    let cases = [
        case("non-ASCII path", |n| build("http://a/", "é", "", n)),
        case("4-byte characters", |n| build("http://a/", "𐌀", "", n)),
        case("printable ASCII to encode", |n| {
            build("http://a/", "<>", "", n)
        }),
        case("error after unwise run", |n| {
            build("http://a/", "<", "#a#b", n)
        }),
        case("non-ASCII query", |n| {
            build("http://a/?", "é\u{E000}", "", n)
        }),
    ];
    let typical = typical_iri(N);
    check("iri_to_uri", &cases, &typical, &|s| {
        let _ = std::hint::black_box(iri_to_uri(s));
    });
}

#[test]
fn iri_to_uri_with_idna_is_linear() {
    let opts = ToUriOptions {
        idna: true,
        ..ToUriOptions::default()
    };
    let cases = [
        // Hosts over MAX_IDN_HOST_BYTES are refused before UTS #46.
        case("thousands of non-ASCII labels", |n| {
            build("http://", "é.", "com/", n)
        }),
        case("one huge non-ASCII label", |n| {
            build("http://", "é", "/", n)
        }),
        case("huge percent-encoded label", |n| {
            build("http://", "%C3%A9", "/", n)
        }),
        case("huge xn-- label", |n| build("http://xn--", "a", "é/", n)),
        case("bounded host, long path", |n| {
            build(&format!("http://{}.com/", "é".repeat(400)), "é", "", n)
        }),
    ];
    let typical = typical_iri(N).replace("www.example.com", "www.exämple.com");
    check("iri_to_uri --idna", &cases, &typical, &|s| {
        let _ = std::hint::black_box(iri_to_uri_with(s, &opts));
    });
}

#[test]
fn uri_to_iri_is_linear() {
    let cases = [
        case("UTF-8 triplets", |n| build("http://a/", "%C3%A9", "", n)),
        case("4-byte triplets", |n| {
            build("http://a/", "%F0%90%8C%80", "", n)
        }),
        case("overlong triplets", |n| build("http://a/", "%C0%AF", "", n)),
        case("Latin-1 triplets", |n| build("http://a/", "%E9", "", n)),
        case("truncated sequences", |n| {
            build("http://a/", "%E2%82", "", n)
        }),
        case("encoded bidi controls", |n| {
            build("http://a/", "%E2%80%AE", "", n)
        }),
        case("encoded private use in query", |n| {
            build("http://a/?", "%EE%80%80", "", n)
        }),
        case("encoded host labels", |n| {
            build("http://", "%C3%A9.", "com/", n)
        }),
        case("unreserved triplets", |n| build("http://a/", "%41", "", n)),
    ];
    let typical = typical_uri(N).replace("title_42", "r%C3%A9sum%C3%A9");
    check("uri_to_iri", &cases, &typical, &|s| {
        let _ = std::hint::black_box(uri_to_iri(s));
    });
}

// The ratios must be able to fail. One expectation per test: a test is
// run again under callgrind for each measurement (`cost::measure`), and
// there the code around the other measurements runs too.

/// A deliberately quadratic function fails the growth check.
#[test]
fn the_growth_check_catches_quadratic_work() {
    let quadratic = |s: &str| {
        let mut acc = 0usize;
        for i in 0..s.len() {
            acc = acc.wrapping_add(count_a(std::hint::black_box(&s[i..])));
        }
        std::hint::black_box(acc);
    };
    let cases = [case("quadratic", |n| "a".repeat(n / 64))];
    let typical = "b".repeat(N / 64);
    let r = std::panic::catch_unwind(|| check("quadratic", &cases, &typical, &quadratic));
    assert!(r.is_err(), "quadratic work passed the growth check");
}

fn count_a(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'a').count()
}

/// Linear, but 50 passes over an input of `a`s, one over other text.
fn costly(s: &str) {
    let passes = if s.starts_with('a') { 50 } else { 1 };
    for _ in 0..passes {
        std::hint::black_box(count_a(std::hint::black_box(s)));
    }
}

/// 50 times more work per byte on the worst case than on typical text
/// fails the worst-vs-typical check.
#[test]
fn the_worst_vs_typical_check_catches_costly_work() {
    let cases = [case("costly", |n| "a".repeat(n))];
    let typical = "b".repeat(N);
    let r = std::panic::catch_unwind(|| check("costly", &cases, &typical, &costly));
    assert!(
        r.is_err(),
        "50x work per byte passed the worst-vs-typical check"
    );
}

/// The same function on typical text at both sizes passes both checks.
#[test]
fn the_checks_pass_linear_work() {
    let cases = [case("linear", |n| "b".repeat(n))];
    check("linear", &cases, &"b".repeat(N), &costly);
}
