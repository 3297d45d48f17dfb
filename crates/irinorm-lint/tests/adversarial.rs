//! Bounded cost of `lint`: linear in the input, whatever the input. The
//! same method as `crates/irinorm/tests/adversarial.rs`: worst-case
//! inputs at size N and 4N, the instructions of one call counted by
//! callgrind (`irinorm_testdata::cost`: deterministic, never timed; issue
//! 14), and only ratios asserted:
//!
//! - `cost(4N) / cost(N) < 8` (linear is about 4, quadratic 16);
//! - `cost(worst, N) / cost(typical, N) < WORST_VS_TYPICAL`.
//!
//! The inputs aim at each check: findings in every unit (mixed-script,
//! confusable, not-nfc), thousands of host labels (`xn--` ones too), a
//! huge label, huge non-ASCII hosts (refused before UTS #46), runs of
//! triplets of every kind, bidi characters, many `@` and `:`. Timings are
//! in the benchmark `benches/worst_case.rs`.

use irinorm_lint::{lint, LintOptions};
use irinorm_testdata::cost::{self, build, Case, Limits};

/// N; the large input is 4N. Debug builds run this test under callgrind,
/// where `lint` costs up to ~2 µs a byte natively on the worst inputs;
/// 4 KiB keeps the test within a minute there, and is still large enough
/// that a cost proportional to (findings x input) shows: 4N holds more
/// findings than the 1000 kept.
const N: usize = 4 * 1024;
/// Linear is ~4; quadratic would be 16.
const MAX_GROWTH: f64 = 8.0;
/// Worst case against typical IRI text of the same length, in
/// instructions. `lint` skips pure-ASCII units by design, so text that
/// makes every unit non-ASCII (each then costs a Bidi_Class, script and
/// NFC lookup per character and a UTS #39 skeleton per word) costs more per
/// byte; the bound leaves room for that while a quadratic term (N/100 or
/// more) cannot pass.
const WORST_VS_TYPICAL: f64 = 30.0;

const LIMITS: Limits = Limits {
    n: N,
    max_growth: MAX_GROWTH,
    worst_vs_typical: WORST_VS_TYPICAL,
};

fn case(name: &str, make: impl Fn(usize) -> String) -> Case<'_> {
    cost::case(name, N, make)
}

fn check(op_name: &str, cases: &[Case<'_>], typical: &str, op: &dyn Fn(&str)) {
    cost::check(op_name, LIMITS, cases, typical, op);
}

/// Typical IRI text: mostly ASCII path words, some non-ASCII, a query.
fn typical(n: usize) -> String {
    build(
        "https://www.example.com",
        "/articles/2024/résumé-de-l-été_42/статья",
        "?q=café&ref=home#section-2",
        n,
    )
}

fn opts() -> LintOptions {
    LintOptions {
        max_input_len: usize::MAX,
        ..LintOptions::default()
    }
}

fn check_lint(name: &str, cases: &[Case<'_>]) {
    let opts = opts();
    check(name, cases, &typical(N), &|s| {
        std::hint::black_box(lint(s, &opts));
    });
}

#[test]
fn lint_is_linear_on_unicode_units() {
    check_lint(
        "lint (units)",
        &[
            // Every word a finding (mixed-script and confusable), past the cap.
            case("mixed-script words", |n| {
                build("http://a/", "p\u{430}ypal/", "", n)
            }),
            case("confusable words", |n| {
                build("http://a/", "\u{430}\u{440}\u{440}\u{4CF}\u{435}-", "", n)
            }),
            case("not-NFC segment", |n| build("http://a/", "e\u{301}", "", n)),
            case("not-NFKC segments", |n| {
                build("http://a/", "\u{FB01}/", "", n)
            }),
            case("bidi rule units", |n| {
                build("http://a/", "\u{5D0}a/", "", n)
            }),
            case("one long rtl unit", |n| {
                build("http://a/", "\u{5D0}", "1", n)
            }),
            case("bidi formatting characters", |n| {
                build("http://a/", "\u{202E}x", "", n)
            }),
            case("private use outside the query", |n| {
                build("http://a/", "\u{E000}x", "", n)
            }),
            case("query units", |n| build("http://a/?", "\u{5D0}=a&", "", n)),
            case("long fragment", |n| build("http://a/#", "\u{5D0}a", "", n)),
        ],
    );
}

#[test]
fn lint_is_linear_on_hosts() {
    check_lint(
        "lint (hosts)",
        &[
            case("thousands of labels", |n| build("http://", "a.", "com/", n)),
            case("thousands of confusable labels", |n| {
                build("http://", "p\u{430}ypal.", "com/", n)
            }),
            case("thousands of xn-- labels", |n| {
                build("http://", "xn--80ak6aa92e.", "com/", n)
            }),
            case("thousands of empty labels", |n| {
                build("http://a", ".", "/", n)
            }),
            case("one huge label", |n| build("http://", "a", "/", n)),
            case("huge non-ASCII host", |n| {
                build("http://", "\u{e9}", "/", n)
            }),
            case("huge percent-encoded host", |n| {
                build("http://", "%C3%A9", "/", n)
            }),
            case("huge numeric host", |n| build("http://", "9", "/", n)),
            case("long IPv6 zone", |n| {
                build("http://[fe80::1%25", "a", "]/", n)
            }),
        ],
    );
}

#[test]
fn lint_is_linear_on_triplets_and_authority() {
    check_lint(
        "lint (triplets, authority)",
        &[
            case("overlong triplets", |n| build("http://a/", "%C0%AF", "", n)),
            case("invalid triplets", |n| build("http://a/", "%E9x", "", n)),
            case("NUL triplets", |n| build("http://a/", "%00", "", n)),
            case("encoded bidi", |n| build("http://a/", "%E2%80%AE", "", n)),
            case("encoded dot segments", |n| {
                build("http://a/", "%2e%2e/", "", n)
            }),
            case("UTF-8 triplets", |n| build("http://a/", "%D0%B0", "", n)),
            case("many @ and :", |n| build("http://", "a:b@", "host/", n)),
            case("userinfo that looks like a host", |n| {
                build("http://", "www.", "example.com@evil/", n)
            }),
            case("long port", |n| build("http://a:", "9", "/", n)),
            case("invalid, many @", |n| build("http://", "@", "/", n)),
            case("invalid, spaces", |n| {
                build("http://a/", " \u{E000}", "", n)
            }),
        ],
    );
}

/// The input limit makes the cost of a huge input constant: refusing
/// 8 MiB costs fewer instructions than linting 64 KiB of typical text.
#[test]
fn over_the_limit_costs_nothing() {
    let huge = build("http://", "\u{e9}.", "/", 8 << 20);
    let r = lint(&huge, &LintOptions::default());
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].code, "input-too-long");
    let typical = typical(irinorm_lint::DEFAULT_MAX_INPUT_LEN);
    let Some(ir) = cost::measure(
        "limit",
        &[
            &|| {
                std::hint::black_box(lint(&huge, &LintOptions::default()));
            },
            &|| {
                std::hint::black_box(lint(&typical, &LintOptions::default()));
            },
        ],
    ) else {
        return;
    };
    eprintln!(
        "lint: {} instructions to refuse 8 MiB, {} to lint 64 KiB",
        ir[0], ir[1]
    );
    assert!(ir[0] < ir[1], "{ir:?}");
}
