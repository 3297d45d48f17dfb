//! Unit tests of the ladder; conformance and property tests are in tests/.

use super::*;

fn n(s: &str, rung: Rung, form: Form) -> String {
    Normalizer::new(Options::new(rung, form))
        .normalize(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .into_owned()
}
fn uri(s: &str) -> String {
    n(s, Rung::Scheme, Form::Uri)
}
fn syn(s: &str) -> String {
    n(s, Rung::Syntax, Form::Uri)
}

#[test]
fn rfc3986_6_2_2_example() {
    assert_eq!(
        syn("eXAMPLE://a/./b/../b/%63/%7bfoo%7d"),
        "example://a/b/c/%7Bfoo%7D"
    );
}

#[test]
fn never_decoded() {
    for s in [
        "http://a/%2F",
        "http://a/%3F%23%26%3D%2C%40%25",
        "http://a/%C0%AF",
    ] {
        assert_eq!(uri(s), s);
        assert_eq!(n(s, Rung::Scheme, Form::Iri), s);
    }
}

#[test]
fn scheme_rung_generic_rules() {
    assert_eq!(uri("http://example.com"), "http://example.com/");
    assert_eq!(uri("http://example.com:/"), "http://example.com/");
    assert_eq!(uri("http://example.com:0080/"), "http://example.com/");
    assert_eq!(uri("http://example.com:8080"), "http://example.com:8080/");
    assert_eq!(uri("foo://example.com:0080"), "foo://example.com:80");
    assert_eq!(uri("foo://example.com"), "foo://example.com");
    assert_eq!(uri("http://[2001:0DB8::0001]/"), "http://[2001:db8::1]/");
    assert_eq!(
        uri("http://[::FFFF:c000:0280]:80/"),
        "http://[::ffff:192.0.2.128]/"
    );
    assert_eq!(uri("http://[fe80::1%25Eth0]/"), "http://[fe80::1%25Eth0]/");
    assert_eq!(uri("http://example.com/?"), "http://example.com/?");
    assert_eq!(uri("http://example.com/#"), "http://example.com/#");
}

#[test]
fn idn() {
    assert_eq!(
        uri("http://résumé.example.org"),
        "http://xn--rsum-bpad.example.org/"
    );
    assert_eq!(
        uri("http://r%C3%A9sum%C3%A9.example.org"),
        "http://xn--rsum-bpad.example.org/"
    );
    assert_eq!(
        n("http://xn--rsum-bpad.example.org", Rung::Scheme, Form::Iri),
        "http://résumé.example.org/"
    );
    assert_eq!(
        n("http://XN--RSUM-BPAD.example.org", Rung::Scheme, Form::Iri),
        "http://résumé.example.org/"
    );
    // Not a DNS scheme: no IDN.
    assert_eq!(
        uri("foo://résumé.example.org"),
        "foo://r%C3%A9sum%C3%A9.example.org"
    );
    // A host that fails UTS #46 stays as rung 1 left it, with a warning.
    let r = Normalizer::default()
        .normalize_full("http://a.\u{0378}.net/")
        .unwrap();
    assert_eq!(r.text, "http://a.%CD%B8.net/");
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].code(), "idna-invalid");
    let r = Normalizer::default()
        .normalize_full("http://xn--a-.com/")
        .unwrap();
    assert_eq!(r.text, "http://xn--a-.com/");
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn iri_form() {
    assert_eq!(
        n("http://a/%E2%80%AE", Rung::Syntax, Form::Iri),
        "http://a/%E2%80%AE"
    );
    assert_eq!(
        n("http://a/\u{202E}", Rung::Syntax, Form::Iri),
        "http://a/%E2%80%AE"
    );
    assert_eq!(
        n(
            "http://a/ros%c3%a9?%EE%80%80#%EE%80%80",
            Rung::Syntax,
            Form::Iri
        ),
        "http://a/rosé?\u{E000}#%EE%80%80"
    );
}

#[test]
fn dot_segments_and_structure() {
    assert_eq!(syn("a:/.//b"), "a:/.//b");
    assert_eq!(syn("a:/./b/..//c"), "a:/.//c");
    assert_eq!(syn("./a:b"), "./a:b");
    assert_eq!(syn("abc/.."), "./");
    assert_eq!(syn("."), "./");
    assert_eq!(syn("../a/./b/.."), "../a/");
    assert_eq!(syn("http://a/b/%2E%2E/c"), "http://a/c");
    assert_eq!(syn("%2E%2E/x"), "../x");
    // The rootless path of an absolute URI is opaque (LADDER.md rung 1).
    assert_eq!(syn("zz:foo/../bar"), "zz:foo/../bar");
}

/// Issue 16: dot segments in the rootless (opaque) path of an absolute URI
/// are kept at every rung: removing them merged different URNs and
/// rewrote `data:` payloads. Hierarchical and relative paths still lose
/// them, and resolution still applies RFC 3986 §5.2.4.
#[test]
fn rootless_paths_of_absolute_uris_are_opaque() {
    for rung in [Rung::Syntax, Rung::Scheme] {
        for s in [
            "urn:isbn:0451450523/../x",
            "urn:issn:1/../x",
            "data:text/plain,hello/../world",
            "mailto:a/../b@x",
            "zz:./a",
            "zz:a/./b/.",
            "zz:..",
        ] {
            assert_eq!(n(s, rung, Form::Uri), s, "{s} at {rung}");
        }
        // Triplets of unreserved characters are still decoded, except
        // where that would write a dot segment that resolution would then
        // remove (LADDER.md rung 1, docs/ladder.md).
        assert_eq!(n("zz:a/%7e%2e/b", rung, Form::Uri), "zz:a/~./b");
        assert_eq!(n("zz:a/%2e%2E/b", rung, Form::Uri), "zz:a/%2E%2E/b");
        assert_eq!(n("zz:%2e", rung, Form::Iri), "zz:%2E");
        let based = Normalizer::new(Options::new(rung, Form::Uri))
            .with_base("http://h/")
            .unwrap();
        for s in ["zz:a/%2E%2E/b", "zz:%2e", "zz:.%2E/x"] {
            let once = based.normalize(s).unwrap().into_owned();
            assert_eq!(based.normalize(&once).unwrap(), once, "{s}");
        }
        let nz = Normalizer::new(Options::new(rung, Form::Uri));
        assert!(!nz
            .equivalent("urn:isbn:0451450523/../x", "urn:issn:1/../x")
            .unwrap());
        assert!(!nz
            .equivalent("data:text/plain,hello/../world", "data:text/world")
            .unwrap());
        // Hierarchical paths: unchanged rule.
        assert_eq!(n("zz:/a/../b", rung, Form::Uri), "zz:/b");
        assert_eq!(n("a/../b", rung, Form::Uri), "b");
    }
    // Resolution (§5.2.2) still removes them from the merged path
    // `a/../c`, literally: §5.2.4 step 2E then 2C leave `/c`.
    let nz = Normalizer::new(Options::new(Rung::Syntax, Form::Uri))
        .with_base("zz:a/b")
        .unwrap();
    assert_eq!(nz.normalize("../c").unwrap(), "zz:/c");
}

#[test]
fn fast_path_borrows() {
    let nz = Normalizer::default();
    for s in [
        "http://example.com/a/b?x=1#f",
        "https://a.b/c%2F",
        "mailto-like:x",
        "//a/b",
        "a/b",
    ] {
        assert!(matches!(nz.normalize(s).unwrap(), Cow::Borrowed(_)), "{s}");
    }
    // Computed, but equal: still borrowed.
    assert!(matches!(
        nz.normalize("http://a/.well-known/x").unwrap(),
        Cow::Borrowed(_)
    ));
    assert!(matches!(nz.normalize("http://A/").unwrap(), Cow::Owned(_)));
}

#[test]
fn scheme_specific() {
    assert_eq!(uri("file://localhost/etc/hosts"), "file:///etc/hosts");
    assert_eq!(uri("mailto:Joe@Example.COM"), "mailto:Joe@example.com");
    assert_eq!(uri("URN:ISBN:0451450523"), "urn:isbn:0451450523");
    assert_eq!(uri("tel:+1-201-555-0123"), "tel:+12015550123");
    assert_eq!(
        uri("data:TEXT/plain;CHARSET=US-ASCII,Hi"),
        "data:text/plain;charset=us-ascii,Hi"
    );
    // The fragment is never touched by a scheme rule.
    assert_eq!(uri("urn:example:a#F"), "urn:example:a#F");
}

#[test]
fn keys_and_compare() {
    let nz = Normalizer::default();
    assert_eq!(
        nz.compare("http://a/b", "http://a/b").unwrap(),
        Some(Rung::String)
    );
    assert_eq!(
        nz.compare("http://a/%7e", "http://a/~").unwrap(),
        Some(Rung::Syntax)
    );
    assert_eq!(
        nz.compare("http://a", "http://a:80/").unwrap(),
        Some(Rung::Scheme)
    );
    assert_eq!(nz.compare("http://a/", "http://a/#").unwrap(), None);
    assert!(nz
        .equivalent("urn:example:a?+r#f", "URN:EXAMPLE:a")
        .unwrap());
    assert!(!nz.equivalent("urn:example:a", "urn:example:A").unwrap());
    let nf = Normalizer::new(Options {
        ignore_fragment: true,
        ..Options::default()
    });
    assert!(nf.equivalent("http://a/#x", "http://a").unwrap());
    assert_eq!(
        nz.digest("http://A/").unwrap(),
        nz.digest("http://a").unwrap()
    );
    assert_eq!(nz.key("http://A:80").unwrap(), "http://a/");
    let e = nz.compare("http://a/", "http://a b/").unwrap_err();
    assert_eq!(e.side, Side::B);
}

#[test]
fn base_and_charnorm() {
    let nz = Normalizer::default()
        .with_base("http://Example.com/a/b")
        .unwrap();
    assert_eq!(nz.normalize("../C/./d").unwrap(), "http://example.com/C/d");
    let nfc = Normalizer::new(Options {
        char_norm: CharNorm::Nfc,
        ..Options::default()
    });
    assert_eq!(
        nfc.normalize("http://a/re%CC%81sume%CC%81").unwrap(),
        "http://a/r%C3%A9sum%C3%A9"
    );
    assert!(nfc
        .equivalent("http://a/résumé", "http://a/re\u{301}sume\u{301}")
        .unwrap());
    assert!(!Normalizer::default()
        .equivalent("http://a/résumé", "http://a/re\u{301}sume\u{301}")
        .unwrap());
}

/// Issue 16: NFKC (and NFC) never produces a delimiter or a dot segment:
/// FULLWIDTH FULL STOP twice, percent-encoded, made `..` and hid a path.
#[test]
fn charnorm_never_changes_structure() {
    for cn in [CharNorm::Nfkc, CharNorm::Nfc] {
        for rung in [Rung::Syntax, Rung::Scheme] {
            let nz = Normalizer::new(Options {
                char_norm: cn,
                ..Options::new(rung, Form::Uri)
            });
            let s = "http://a/secret/%EF%BC%8E%EF%BC%8E/public";
            assert!(!nz.equivalent(s, "http://a/public").unwrap());
            let r = nz.normalize_full(s).unwrap();
            assert_eq!(r.text, s);
            if cn == CharNorm::Nfkc {
                assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
                assert_eq!(r.warnings[0].code(), "charnorm-kept");
                assert!(r.warnings[0].to_string().contains("\"..\""));
            } else {
                assert!(r.warnings.is_empty());
            }
            // A fullwidth solidus and percent sign stay data.
            let s = "http://a/x%EF%BC%8Fy/%EF%BC%85z";
            assert_eq!(nz.normalize(s).unwrap(), s);
            // The rest of the reference is still normalized.
            assert_eq!(
                nz.normalize("http://a/%EF%BC%8E%EF%BC%8E/%EF%AC%81")
                    .unwrap(),
                if cn == CharNorm::Nfkc {
                    "http://a/%EF%BC%8E%EF%BC%8E/fi"
                } else {
                    "http://a/%EF%BC%8E%EF%BC%8E/%EF%AC%81"
                }
            );
        }
    }
}

/// LADDER.md invariant 6 under NFKC (found by the `normalize_scheme_uri`
/// fuzz target): a never-decoded triplet planted in a query changes
/// nothing but its own place. `%C2%B8` (U+00B8 CEDILLA, NFKC space +
/// U+0327) is kept; `%C2%BA` (U+00BA, NFKC `o`) is normalized whether or
/// not a planted `%EF%BF%BE` stands between them (it used to be kept with
/// the cedilla unless the planted `%` cut the text in two).
#[test]
fn nfkc_keeps_only_what_adds_structure() {
    let nz = Normalizer::new(Options {
        char_norm: CharNorm::Nfkc,
        ..Options::new(Rung::Scheme, Form::Uri)
    });
    let x = |mid: &str| format!("http://h/p?ke%EE%80%80%C2%B8{mid}8km%EE%80%80%C2%BA");
    assert_eq!(
        nz.normalize(&x("")).unwrap(),
        "http://h/p?ke%EE%80%80%C2%B88km%EE%80%80o"
    );
    let planted = nz.normalize(&x("x%EF%BF%BEx")).unwrap().into_owned();
    let marked = nz.normalize(&x("xzqjzx")).unwrap().into_owned();
    assert_eq!(planted, marked.replace("zqjz", "%EF%BF%BE"));
    assert!(planted.ends_with("km%EE%80%80o"), "{planted}");
}

/// A host the wide scanner accepted is known to hold no `%`, non-ASCII or
/// `--`: `fast_kind` then skips the UTS #46 host search that any `%` in the
/// path or query used to trigger (issue 14, round 5), and answers as it
/// does without that knowledge, under the default profile and under one
/// that checks ASCII names (every non-empty host goes to UTS #46 there;
/// since round 7 UTS #46 alone is asked, `uts46_keeps`, and keeps these).
#[test]
fn scanned_hosts_skip_the_idn_search_with_the_same_answer() {
    let strict = Normalizer::new(Options {
        idna: crate::idn::IdnaProfile::CONFORMANCE,
        ..Options::default()
    });
    for (nz, same) in [(Normalizer::default(), true), (strict, true)] {
        for s in [
            "http://a.example.com/p%20q/r?x=%2F%3A%C3%A9&y=1#%25",
            "https://www.example.org/search?q=a%20b%20c&utm_source=x%2Fy",
            "http://example.com:8080/a%2Fb?c=%E2%82%AC",
            "file:///usr/share/doc/a%20b.txt",
        ] {
            let mut m = Meta::default();
            let scanned = nz.parse_input_into(s, &mut m).unwrap();
            assert!(
                scanned.authority(),
                "{s}: the scanner validated its authority"
            );
            assert!(m.has(PCT_ANY), "{s}");
            let fast = nz.fast_path(s, &m, nz.options(), scanned);
            assert_eq!(fast, nz.fast_path(s, &m, nz.options(), Scanned::No), "{s}");
            // `file:` has an empty host: no DNS name to check either way.
            let want = if same || s.starts_with("file:") {
                Fast::Same
            } else {
                Fast::Slow
            };
            assert_eq!(fast, want, "{s}");
        }
        // Hosts the scanner refuses (`%`, `--`, upper case): the parser's
        // hints decide. A valid A-label is judged by UTS #46 alone
        // (`uts46_keeps`, round 7): normal in `uri` form.
        for (s, want) in [
            ("http://a%2Cb.example/%2F", Fast::Slow),
            ("http://xn--bcher-kva.example/a%20b", Fast::Same),
        ] {
            let mut m = Meta::default();
            assert_eq!(nz.parse_input_into(s, &mut m).unwrap(), Scanned::No, "{s}");
            let want = if nz.options().form == Form::Iri && s.contains("xn--") {
                Fast::Slow
            } else {
                want
            };
            assert_eq!(nz.fast_path(s, &m, nz.options(), Scanned::No), want, "{s}");
        }
    }
}

#[test]
fn explain_reports_rules() {
    let e = Normalizer::default()
        .explain("HTTP://Example.COM:80/a/./%7e")
        .unwrap();
    let scheme_uri = e
        .steps
        .iter()
        .find(|s| s.rung == Rung::Scheme && s.form == Form::Uri)
        .unwrap();
    assert_eq!(scheme_uri.output, "http://example.com/a/~");
    let rules: Vec<_> = scheme_uri.changes.iter().map(|c| c.rule).collect();
    for r in [
        Rule::LowercaseScheme,
        Rule::LowercaseHost,
        Rule::RemoveDefaultPort,
        Rule::DecodeUnreserved,
        Rule::RemoveDotSegments,
    ] {
        assert!(rules.contains(&r), "{r:?} missing from {rules:?}");
    }
    let string = e.steps.iter().find(|s| s.rung == Rung::String).unwrap();
    assert!(string.changes.is_empty());
}

#[test]
fn fast_paths_agree_with_the_full_computation() {
    // Fast::Same, Fast::Root and Fast::Slow inputs, through every entry
    // point that has a fast path (debug builds also check each answer
    // against `write_normal`).
    let nz = Normalizer::default();
    for (s, want, kind) in [
        ("http://a.example/x", "http://a.example/x", Fast::Same),
        ("http://a.example", "http://a.example/", Fast::Root),
        (
            "https://a.example?q#f",
            "https://a.example/?q#f",
            Fast::Root,
        ),
        (
            "https://u@a.example:8443#f",
            "https://u@a.example:8443/#f",
            Fast::Root,
        ),
        ("ldap://a.example", "ldap://a.example", Fast::Same),
        ("foo://a.example", "foo://a.example", Fast::Same),
        ("http://a.example:80", "http://a.example/", Fast::Repair),
        // Segments that start with `.` but are not `.` or `..` (RFC 3986
        // §5.2.4): nothing to remove.
        (
            "https://a.example/.well-known/acme-challenge/x?a=/./b",
            "https://a.example/.well-known/acme-challenge/x?a=/./b",
            Fast::Same,
        ),
        (
            "http://a.example/..a/.b.",
            "http://a.example/..a/.b.",
            Fast::Same,
        ),
        (
            "http://a.example/.a/./b",
            "http://a.example/.a/b",
            Fast::Repair,
        ),
        (
            "http://a.example/.a/b/..",
            "http://a.example/.a/",
            Fast::Repair,
        ),
        (
            "http://a.example/.a/..?q",
            "http://a.example/?q",
            Fast::Repair,
        ),
        // A `%` in the path or query says nothing of the host; one in the
        // host may need UTS #46 (here not: a reserved character).
        (
            "http://a.example/%2F?q=%C3%A9",
            "http://a.example/%2F?q=%C3%A9",
            Fast::Same,
        ),
        (
            "http://a%2Cb.example/%2F",
            "http://a%2Cb.example/%2F",
            Fast::Slow,
        ),
        // Upper case and ports: repaired (round 12), or computed by the
        // full parser's answer (`Scanned::No`).
        // (Too short for the scanner: the full parser's answer.)
        ("HTTP://a.example", "http://a.example/", Fast::Slow),
        ("HTTP://a.eXample:80", "http://a.example/", Fast::Repair),
        (
            "https://a.example:0443/x?y#z",
            "https://a.example/x?y#z",
            Fast::Repair,
        ),
        (
            "https://a.example:/x?y#z",
            "https://a.example/x?y#z",
            Fast::Repair,
        ),
        (
            "https://A.example:080/x?y#z",
            "https://a.example:80/x?y#z",
            Fast::Repair,
        ),
        (
            "https://a.example:8080/x",
            "https://a.example:8080/x",
            Fast::Same,
        ),
        // A valid A-label: UTS #46 keeps it (round 7: `uts46_keeps`).
        (
            "http://xn--bcher-kva.example",
            "http://xn--bcher-kva.example/",
            Fast::Root,
        ),
        ("http://xn--a.example/", "http://xn--a.example/", Fast::Slow),
    ] {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert_eq!(m, parse::parse(s, Grammar::IriReference).unwrap(), "{s}");
        // What the scanner proved only spares checks: the same answer.
        assert_eq!(nz.fast_path(s, &m, nz.options(), scanned), kind, "{s}");
        let unscanned = if kind == Fast::Repair {
            Fast::Slow
        } else {
            kind
        };
        assert_eq!(
            nz.fast_path(s, &m, nz.options(), Scanned::No),
            unscanned,
            "{s}"
        );
        assert_eq!(nz.normalize(s).unwrap(), want, "{s}");
        let mut out = String::from(">");
        nz.normalize_into(s, &mut out).unwrap();
        assert_eq!(out, format!(">{want}"));
        let mut out = String::from(">");
        nz.normalize_text_only(s, &mut out).unwrap();
        assert_eq!(out, format!(">{want}"));
        let mut out = String::from(">");
        let (_, meta) = nz.normalize_into_split(s, &mut out).unwrap();
        assert_eq!(out, format!(">{want}"));
        if let Some(meta) = meta {
            assert!(meta.same_structure(&parse::split_trusted(&out[1..])), "{s}");
        }
        assert_eq!(nz.key(s).unwrap(), want);
        assert_eq!(nz.key_split(s).unwrap().0, want);
        assert_eq!(nz.digest(s).unwrap(), Key::of(want));
    }
}

#[test]
fn text_only_entry_refuses_as_the_others() {
    // `normalize_text_only` (issue 14, round 14): the same error as
    // `normalize_into`, nothing appended; the text of a reference with a
    // warning (a host UTS #46 refuses) without the warning.
    let nz = Normalizer::new(Options {
        max_len: 16,
        ..Options::default()
    });
    for s in [
        "http://a b/",
        "http://a.example/0123456789",
        "%zz",
        "http://[::1/",
    ] {
        let mut out = String::from(">");
        assert_eq!(
            nz.normalize_text_only(s, &mut out),
            nz.normalize_into(s, &mut String::new()).map(drop),
            "{s}"
        );
        assert!(nz.normalize_text_only(s, &mut out).is_err(), "{s}");
        assert_eq!(out, ">", "{s}");
    }
    let nz = Normalizer::default();
    let s = "http://xn--a.example/";
    let mut want = String::new();
    assert!(!nz.normalize_into(s, &mut want).unwrap().is_empty());
    let mut out = String::new();
    nz.normalize_text_only(s, &mut out).unwrap();
    assert_eq!(out, want);
}

#[test]
fn wikipedia_semantics_preserving_examples() {
    // The examples of the URI normalization article (shared/spec/004_...),
    // "Normalizations that preserve semantics".
    assert_eq!(
        syn("http://example.com/foo%2a"),
        "http://example.com/foo%2A"
    );
    assert_eq!(
        syn("HTTP://User@Example.COM/Foo"),
        "http://User@example.com/Foo"
    );
    assert_eq!(syn("http://example.com/%7Efoo"), "http://example.com/~foo");
    assert_eq!(
        syn("http://example.com/foo/./bar/baz/../qux"),
        "http://example.com/foo/bar/qux"
    );
    assert_eq!(uri("http://example.com"), "http://example.com/");
    assert_eq!(uri("http://example.com:80/"), "http://example.com/");
    assert_eq!(
        syn("http://example.com/a/b/../c/./d"),
        "http://example.com/a/c/d"
    );
    assert_eq!(uri("http://faß.example/"), "http://xn--fa-hia.example/");
    // %2F is left encoded (the article's own example keeps it).
    assert_eq!(
        syn("http://example.com/foo%2fbar"),
        "http://example.com/foo%2Fbar"
    );
}

/// The inline answer for `http`, `https` and `file` (`fast_hot`) skips
/// the dot-segment search after a whole scan: that holds only while the
/// scanner leaves every path with a segment `.` or `..` to the parser.
/// These must never be `Scanned::Whole`, and must take the slow path
/// (round 6). Each is longer than the scanner's 16-byte minimum; some
/// are longer than 64 bytes after the host, where the path and the query
/// are one run.
#[test]
fn whole_dot_segments_are_never_scanned() {
    let nz = Normalizer::default();
    let long = format!("/{}", "a".repeat(70));
    let mut cases = Vec::new();
    for seg in [".", ".."] {
        for (before, after) in [
            ("/", ""),
            ("/x/", ""),
            ("/x/", "/y"),
            ("/x/", "?q=1"),
            ("/x/", "#f"),
            ("/.well-known/", "/z"),
            ("/", "/z/.hidden"),
        ] {
            for tail in ["", &long[..]] {
                for scheme in ["http", "https", "file", "foo"] {
                    cases.push(format!("{scheme}://a.example{before}{seg}{after}{tail}"));
                    cases.push(format!("{scheme}://a.example{tail}{before}{seg}{after}"));
                }
            }
        }
    }
    for s in &cases {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert_ne!(scanned, Scanned::Whole, "{s}: a whole dot segment scanned");
        assert!(m.has(DOT_SEG), "{s}");
        // `http` and `https` are repaired (round 15: the tail written as
        // `write_normal` writes it, the authority from the hints).
        let want = if s.starts_with("http") {
            Fast::Repair
        } else {
            Fast::Slow
        };
        assert_eq!(nz.fast_path(s, &m, nz.options(), scanned), want, "{s}");
        assert_ne!(nz.normalize(s).unwrap(), s.as_str(), "{s}");
    }
    // Segments that only start with `.` are scanned whole (so the skip is
    // taken) and are already normal; `/./` in a query is no dot segment.
    for s in [
        "https://a.example/.well-known/acme-challenge/x",
        "http://a.example/..a/.b./c",
        "file:///home/u/.config/app/settings.json",
        "https://a.example/p?next=/./../x",
    ] {
        let mut m = Meta::default();
        assert_eq!(
            nz.parse_input_into(s, &mut m).unwrap(),
            Scanned::Whole,
            "{s}"
        );
        assert_eq!(
            nz.fast_path(s, &m, nz.options(), Scanned::Whole),
            Fast::Same,
            "{s}"
        );
        assert_eq!(nz.normalize(s).unwrap(), *s);
    }
}

/// What `fast_hot` does not check again is what the scanner refuses: IP
/// literals (an IPv6 zone's triplets), upper case, `%` and `--` in the
/// host, userinfo. Such references are not `Scanned` at all, and those
/// that are not normal still take the slow path; a port or another
/// scheme goes to `fast_kind` (round 6).
#[test]
fn hosts_the_scanner_refuses_are_still_refused() {
    let nz = Normalizer::default();
    for (s, want) in [
        // RFC 6874: a zone is always computed (its triplets are not
        // looked into by the parser); this one is normal.
        (
            "http://[fe80::1%25en0]/aaaaaaaa",
            "http://[fe80::1%25en0]/aaaaaaaa",
        ),
        (
            "http://[FE80::1]/aaaaaaaaaaaaaa",
            "http://[fe80::1]/aaaaaaaaaaaaaa",
        ),
        // RFC 3986 §6.2.2.2: `%2E` is `.`, unreserved.
        (
            "https://a%2Ecom.example/aaaaaa",
            "https://a.com.example/aaaaaa",
        ),
        // An A-label in upper case: lower-cased, kept an A-label in `uri`.
        (
            "https://xn--BCHER-kva.example/a",
            "https://xn--bcher-kva.example/a",
        ),
        // Userinfo keeps its case (§6.2.2.1: only scheme and host fold).
        (
            "https://U@a.example.com/aaaaaa",
            "https://U@a.example.com/aaaaaa",
        ),
    ] {
        let mut m = Meta::default();
        assert_eq!(nz.parse_input_into(s, &mut m).unwrap(), Scanned::No, "{s}");
        assert_eq!(nz.normalize(s).unwrap(), want, "{s}");
        let fast = nz.fast_path(s, &m, nz.options(), Scanned::No);
        if want != s || s.contains('%') {
            assert_eq!(fast, Fast::Slow, "{s}");
        }
    }
    // Scanned, but not for `fast_hot`: a port, a `file` host that may be
    // `localhost`, other schemes; and a profile that checks ASCII names.
    let strict = Normalizer::new(Options {
        idna: crate::idn::IdnaProfile::CONFORMANCE,
        ..Options::default()
    });
    for (nz, s, want) in [
        (
            &nz,
            "http://a.example.com:80/aaaaaa",
            "http://a.example.com/aaaaaa",
        ),
        (
            &nz,
            "http://a.example.com:8080/aaaa",
            "http://a.example.com:8080/aaaa",
        ),
        (&nz, "file://localhost/etc/hosts", "file:///etc/hosts"),
        (
            &nz,
            "file://server.example/share",
            "file://server.example/share",
        ),
        (
            &nz,
            "wss://a.example.com/socket?x",
            "wss://a.example.com/socket?x",
        ),
        (&nz, "https://a.example.com", "https://a.example.com/"),
        (
            &strict,
            "https://a.example.com/aaaaaa",
            "https://a.example.com/aaaaaa",
        ),
        (
            &strict,
            "https://1.2.3.4/aaaaaaaaaaaaa",
            "https://1.2.3.4/aaaaaaaaaaaaa",
        ),
        (
            &strict,
            "file:///etc/hosts/aaaaaaaa",
            "file:///etc/hosts/aaaaaaaa",
        ),
    ] {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert!(scanned.authority(), "{s}");
        let fast = nz.fast_path(s, &m, nz.options(), scanned);
        // A port to repair (round 12) is the full computation unscanned.
        let unscanned = nz.fast_path(s, &m, nz.options(), Scanned::No);
        if fast == Fast::Repair {
            assert!(s.contains(":80/"), "{s}");
            assert_eq!(unscanned, Fast::Slow, "{s}");
        } else {
            assert_eq!(fast, unscanned, "{s}");
        }
        assert_eq!(nz.normalize(s).unwrap(), want, "{s}");
    }
}

/// `fast_hot`'s table comes from the normalizer's own registry: a scheme
/// forgotten or given other rules is answered by those rules.
#[test]
fn hot_schemes_follow_the_registry() {
    let mut schemes = SchemeRegistry::builtin();
    schemes.forget("https");
    schemes.insert(
        "http",
        SchemeInfo {
            default_port: Some(8080),
            dns_host: false,
            empty_path_is_root: false,
            special: Special::None,
        },
    );
    schemes.insert(
        "file",
        SchemeInfo {
            special: Special::Urn,
            ..SchemeInfo::UNKNOWN
        },
    );
    let nz = Normalizer::new(Options {
        schemes,
        ..Options::default()
    });
    for (s, fast) in [
        // `https` unknown: an empty path is not `/`.
        ("https://a.example.com", Fast::Same),
        ("http://a.example.com", Fast::Same),
        // `file` with a scheme normalizer: always computed.
        ("file:///etc/hosts/aaaaaaa", Fast::Slow),
    ] {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert_eq!(scanned, Scanned::Whole, "{s}");
        assert_eq!(nz.fast_path(s, &m, nz.options(), scanned), fast, "{s}");
        assert_eq!(nz.fast_path(s, &m, nz.options(), Scanned::No), fast, "{s}");
    }
    assert_eq!(
        nz.normalize("http://a.example.com:8080/x").unwrap(),
        "http://a.example.com/x"
    );
}

/// `fast_hot` judges the normalizer's own options once: a normalizer with
/// character normalization, at another rung, or whose keys are asked at
/// another rung, still gets the full computation where it changes text.
#[test]
fn hot_mode_follows_the_options() {
    // U+FF21 (fullwidth A) percent-encoded: NFKC makes it `A`, and then
    // rung 1 decodes the unreserved triplet (RFC 3986 §6.2.2.2).
    let s = "https://a.example.com/%EF%BC%A1";
    let nfkc = Normalizer::new(Options {
        char_norm: CharNorm::Nfkc,
        ..Options::default()
    });
    assert_eq!(nfkc.normalize(s).unwrap(), "https://a.example.com/A");
    assert_eq!(Normalizer::default().normalize(s).unwrap(), s);
    // Rung 0 keeps the empty path; rung 2 makes it `/` (RFC 3986 §6.2.3),
    // for keys as for normal forms.
    let e = "https://a.example.com";
    let string = Normalizer::new(Options::new(Rung::String, Form::Uri));
    assert_eq!(string.normalize(e).unwrap(), e);
    assert_eq!(string.key(e).unwrap(), e);
    let nz = Normalizer::default();
    assert_eq!(nz.key(e).unwrap(), "https://a.example.com/");
    assert_eq!(
        nz.compare(e, "https://a.example.com/").unwrap(),
        Some(Rung::Scheme)
    );
    // A base: absolute references resolve to themselves (RFC 3986 §5.2.2).
    let based = Normalizer::default()
        .with_base("http://b.example/x/")
        .unwrap();
    assert_eq!(based.normalize(e).unwrap(), "https://a.example.com/");
    assert_eq!(based.normalize("y/../z").unwrap(), "http://b.example/x/z");
}

/// A host with an `xn--` label (or any host, under a profile that checks
/// ASCII names) is answered by asking UTS #46 whether it keeps the host
/// (`uts46_keeps`), not by the full computation (round 7): the answer
/// must be the full computation's, host by host. Valid A-labels stay
/// (UTS #46 §4.1, non-transitional: `ß` stays `xn--zca`); invalid ones
/// are reported (a warning), so never `Same`; in `iri` form a valid
/// A-label becomes its U-label.
#[test]
fn a_labels_are_judged_by_uts46_alone() {
    let uri_nz = Normalizer::default();
    let iri_nz = Normalizer::new(Options::new(Rung::Scheme, Form::Iri));
    let strict = Normalizer::new(Options {
        idna: crate::idn::IdnaProfile::CONFORMANCE,
        ..Options::default()
    });
    let path = "/sf/daaum/login.php?cmd=login_submit&amp;id=788352865189ea93";
    let mut cases = Vec::new();
    for (host, uri, iri, conf) in [
        // (host, uri form, iri form, conformance profile): Same or not.
        ("xn--tequeon-8za.pe", true, false, true),
        ("xn--bcher-kva.example", true, false, true),
        ("www.xn--bcher-kva.example", true, false, true),
        ("xn--zca.example", true, false, true),
        // U+0080, a control: disallowed.
        ("xn--a.example", false, false, false),
        // An empty Punycode part.
        ("xn--.example", false, false, false),
        // Two hyphens elsewhere: ASCII, kept unless hyphens are checked
        // (UTS #46 §4.1, CheckHyphens: not in positions 3 and 4).
        ("ab--c.example", true, true, false),
        ("a-b.example", true, true, true),
        // `_`: not STD3 (the conformance profile refuses it).
        ("a_b.example", true, true, false),
    ] {
        cases.push((&uri_nz, host, uri));
        cases.push((&iri_nz, host, iri));
        cases.push((&strict, host, conf));
    }
    for (nz, host, same) in cases {
        for scheme in ["https", "http", "wss"] {
            for tail in [path, "/", ""] {
                let s = format!("{scheme}://{host}{tail}");
                let mut m = Meta::default();
                let scanned = nz.parse_input_into(&s, &mut m).unwrap();
                let fast = nz.fast_path(&s, &m, nz.options(), scanned);
                let (mut out, mut w) = (String::new(), Vec::new());
                write_normal(&s, &m, nz.options(), &mut out, &mut NoTrace, &mut w);
                let kept = out == s && w.is_empty();
                let form = nz.options().form.name();
                if tail.is_empty() {
                    // An empty path is `/` for these schemes: normal otherwise.
                    let want = if same { Fast::Root } else { Fast::Slow };
                    assert_eq!(fast, want, "{s} {form}");
                    assert_eq!(out == format!("{s}/") && w.is_empty(), same, "{s} {form}");
                } else {
                    assert_eq!(kept, same, "{s} {form}: {out:?} {w:?}");
                    let want = if same { Fast::Same } else { Fast::Slow };
                    assert_eq!(fast, want, "{s} {form}");
                }
            }
        }
    }
}

/// Pieces of paths, queries and fragments: triplets of both cases, of
/// unreserved, reserved and UTF-8 bytes, non-ASCII and bidi characters.
fn tail_piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        4 => "[a-z0-9._~!$&'()*+,;=:@/-]{0,8}",
        2 => "%[0-9A-F]{2}",
        1 => "%[0-9a-fA-F]{2}",
        1 => "%(2[eE]|7[eE]|4[1-9a-fA-F]|3[0-9])",
        1 => "%[cC][3-9a-fA-F]%[89aAbB][0-9a-fA-F]",
        1 => "[é\u{202E}\u{E000}日]",
    ]
    .boxed()
}

proptest::proptest! {
    /// Issue 14, round 12: when `tail_is_verbatim` says so, rung 1 writes
    /// the path, query and fragment of a parsed reference byte for byte
    /// (so `write_normal` may copy them), in both forms.
    #[test]
    fn verbatim_tails_are_what_rung_1_writes(
        path in proptest::collection::vec(tail_piece(), 0..6),
        query in proptest::option::of(proptest::collection::vec(tail_piece(), 0..6)),
        frag in proptest::option::of(proptest::collection::vec(tail_piece(), 0..4)),
        host in "[a-zA-Z0-9.-]{0,12}",
    ) {
        let mut s = format!("http://{host}/{}", path.concat());
        if let Some(q) = query {
            s = format!("{s}?{}", q.concat());
        }
        if let Some(f) = frag {
            s = format!("{s}#{}", f.concat());
        }
        let Ok(m) = parse::parse(&s, Grammar::IriReference) else {
            return Ok(());
        };
        for form in [Form::Uri, Form::Iri] {
            if !tail_is_verbatim(&m, form) {
                continue;
            }
            let comps = [
                (m.path(&s), Component::Path, m.path_start as usize),
                (m.query(&s).unwrap_or(""), Component::Query, m.path_end as usize),
                (m.fragment(&s).unwrap_or(""), Component::Fragment, m.query_end as usize),
            ];
            for (text, comp, off) in comps {
                let mut out = String::new();
                write_component(&mut out, text, off, Ctx::of(comp, m.has(BIDI)), form, &mut NoTrace);
                proptest::prop_assert_eq!(&out, text, "{:?} {:?}", s, form);
            }
        }
    }
}

proptest::proptest! {
    /// Issue 14, round 14: when `component_is_plain` says so, rung 1
    /// writes that component (or any part of it cut at `/`) byte for
    /// byte, whatever the rest of the reference holds (a triplet in the
    /// host, non-ASCII in the query), in both forms.
    #[test]
    fn plain_components_are_what_rung_1_writes(
        path in proptest::collection::vec(tail_piece(), 0..6),
        query in proptest::option::of(proptest::collection::vec(tail_piece(), 0..6)),
        host in "[a-zA-Z0-9.%-]{0,12}",
    ) {
        let mut s = format!("http://{host}/{}", path.concat());
        if let Some(q) = query {
            s = format!("{s}?{}", q.concat());
        }
        let Ok(m) = parse::parse(&s, Grammar::IriReference) else {
            return Ok(());
        };
        let bidi = m.has(BIDI);
        for form in [Form::Uri, Form::Iri] {
            let comps = [
                (m.path(&s), Component::Path, m.path_start as usize),
                (m.query(&s).unwrap_or(""), Component::Query, m.path_end as usize),
            ];
            for (text, comp, off) in comps {
                if !component_is_plain(text, form, bidi) {
                    continue;
                }
                for part in std::iter::once(text).chain(text.split('/')) {
                    let mut out = String::new();
                    write_component(&mut out, part, off, Ctx::of(comp, bidi), form, &mut NoTrace);
                    proptest::prop_assert_eq!(&out, part, "{:?} {:?}", s, form);
                }
            }
        }
    }
}

#[test]
fn plain_paths_beside_triplets_and_non_ascii() {
    // Issue 14, round 14: the path (and its dot segments), query and
    // fragment copied when rung 1 changes nothing in them, while the host
    // or another component has a triplet or non-ASCII to rewrite.
    for (s, want_uri, want_iri) in [
        (
            "http://a%2Db.example/a/./b/../c?q=1#f",
            "http://a-b.example/a/c?q=1#f",
            "http://a-b.example/a/c?q=1#f",
        ),
        (
            "http://a.example/x/../é?q=%7e",
            "http://a.example/%C3%A9?q=~",
            "http://a.example/é?q=~",
        ),
        (
            "http://a.example/é/./%7e/..?q=é#é",
            "http://a.example/%C3%A9/?q=%C3%A9#%C3%A9",
            "http://a.example/é/?q=é#é",
        ),
        (
            "http://a.example/\u{202E}/./?q=a#b",
            "http://a.example/%E2%80%AE/?q=a#b",
            "http://a.example/%E2%80%AE/?q=a#b",
        ),
        ("x:a/./b/%2e/c?é", "x:a/./b/%2E/c?%C3%A9", "x:a/./b/%2E/c?é"),
        ("a/./b/../%41?é", "a/A?%C3%A9", "a/A?é"),
    ] {
        assert_eq!(uri(s), want_uri, "{s}");
        assert_eq!(n(s, Rung::Scheme, Form::Iri), want_iri, "{s}");
    }
}

/// Issue 14, round 15: a triplet rung 1 changes (RFC 3986 §6.2.2.1,
/// §6.2.2.2), non-ASCII (`uri` form) or a dot segment after an authority
/// the scanner validated is repaired ([`Fast::Repair`]: the scheme and
/// authority from the hints, the rest by `write_tail`), as the full
/// computation writes it: triplets at the first and last byte of each
/// component, several, around dot segments, beside upper-case hosts and
/// default ports.
#[test]
fn triplets_after_a_scanned_authority_are_repaired() {
    let nz = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
    for (s, want) in [
        (
            "https://a.example/%7euser/x.html",
            "https://a.example/~user/x.html",
        ),
        (
            "https://a.example/abcdefgh/x%7e",
            "https://a.example/abcdefgh/x~",
        ),
        (
            "https://a.example/abcdefgh?%7eq=1",
            "https://a.example/abcdefgh?~q=1",
        ),
        (
            "https://a.example/abcdefgh?q=1%2f",
            "https://a.example/abcdefgh?q=1%2F",
        ),
        (
            "https://a.example/abcdefgh#%7efrag",
            "https://a.example/abcdefgh#~frag",
        ),
        (
            "https://a.example/abcdefgh#frag%5b",
            "https://a.example/abcdefgh#frag%5B",
        ),
        (
            "https://a.example/%41%62c/%7e%7E?%61=%2f#%3a%7e",
            "https://a.example/Abc/~~?a=%2F#%3A~",
        ),
        (
            "https://a.example/a/%7e/../b/./c%2e%2E",
            "https://a.example/a/b/c..",
        ),
        (
            "https://a.example/a/./b/%2E%2e/c%7e",
            "https://a.example/a/c~",
        ),
        (
            "https://a.example/a/%2e/b/%2E%2E/%2e%2e/c",
            "https://a.example/c",
        ),
        (
            "http://a.example/abcdefgh/./x",
            "http://a.example/abcdefgh/x",
        ),
        (
            "HTTPS://A.Example:443/%7ea/../b?%7e",
            "https://a.example/b?~",
        ),
        ("http://A.example:80?q=%7e%2f", "http://a.example/?q=~%2F"),
        ("http://a.example:8080/x%7e", "http://a.example:8080/x~"),
        (
            "http://a.example:/é/./x?é#é",
            "http://a.example/%C3%A9/x?%C3%A9#%C3%A9",
        ),
    ] {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert_eq!(
            nz.fast_path(s, &m, nz.options(), scanned),
            Fast::Repair,
            "{s}"
        );
        // The full computation, from the full parser's `Meta`.
        let full = parse::parse_full(s, Grammar::IriReference).unwrap();
        let mut want_full = String::new();
        write_normal(
            s,
            &full,
            nz.options(),
            &mut want_full,
            &mut NoTrace,
            &mut Vec::new(),
        );
        assert_eq!(want_full, want, "{s}");
        let mut out = String::from(">");
        let (w, meta) = nz.normalize_into_split(s, &mut out).unwrap();
        assert_eq!(out, format!(">{want}"), "{s}");
        assert!(w.is_empty(), "{s}");
        assert_eq!(meta, Some(parse::split_trusted(want)), "{s}");
        assert_eq!(nz.key(s).unwrap(), want, "{s}");
    }
}

/// What [`Fast::Repair`] still leaves to the full computation: an ignored
/// fragment (the key's projection), a scheme other than `http(s)`, an
/// authority the scanner did not validate (a triplet in the host).
#[test]
fn triplets_the_repair_leaves_to_the_full_computation() {
    let mut o = Options::new(Rung::Scheme, Form::Uri);
    o.ignore_fragment = true;
    let ignoring = Normalizer::new(o);
    let nz = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
    for (nz, s, want) in [
        (
            &ignoring,
            "https://a.example/abcdefgh%7e#x",
            "https://a.example/abcdefgh~",
        ),
        (
            &nz,
            "ftp://a.example/abcdefgh/%7e",
            "ftp://a.example/abcdefgh/~",
        ),
        (
            &nz,
            "https://a%2Eexample/abcdefgh/%7e",
            "https://a.example/abcdefgh/~",
        ),
    ] {
        let mut m = Meta::default();
        let scanned = nz.parse_input_into(s, &mut m).unwrap();
        assert_eq!(
            nz.fast_path(s, &m, nz.options(), scanned),
            Fast::Slow,
            "{s}"
        );
        assert_eq!(nz.normalize(s).unwrap(), want, "{s}");
    }
}

proptest::proptest! {
    /// Issue 14, round 15: whatever the fast path answers for `http(s)`
    /// references with triplets, dot segments, upper case and ports, the
    /// text and components are those of the full computation on the full
    /// parser's `Meta`, in both forms.
    #[test]
    fn repaired_tails_are_the_full_computation(
        scheme in "(http|https|HTTP|Https)",
        host in "[a-zA-Z0-9.-]{1,12}",
        port in proptest::option::of("(|80|443|0080|8080)"),
        path in proptest::collection::vec(proptest::prop_oneof![
            3 => tail_piece(),
            1 => proptest::strategy::Just("/./".to_owned()),
            1 => proptest::strategy::Just("/../".to_owned()),
            1 => proptest::strategy::Just("/%2e%2E/".to_owned()),
        ], 0..8),
        query in proptest::option::of(proptest::collection::vec(tail_piece(), 0..6)),
        frag in proptest::option::of(proptest::collection::vec(tail_piece(), 0..4)),
    ) {
        let mut s = format!("{scheme}://{host}");
        if let Some(p) = port {
            s = format!("{s}:{p}");
        }
        s = format!("{s}/{}", path.concat());
        if let Some(q) = query {
            s = format!("{s}?{}", q.concat());
        }
        if let Some(f) = frag {
            s = format!("{s}#{}", f.concat());
        }
        let Ok(full) = parse::parse_full(&s, Grammar::IriReference) else {
            return Ok(());
        };
        for form in [Form::Uri, Form::Iri] {
            let nz = Normalizer::new(Options::new(Rung::Scheme, form));
            let mut want = String::new();
            let mut w = Vec::new();
            write_normal(&s, &full, nz.options(), &mut want, &mut NoTrace, &mut w);
            let mut out = String::new();
            // (Its debug check compares the components with `split_trusted`.)
            let (got_w, _) = nz.normalize_into_split(&s, &mut out).unwrap();
            proptest::prop_assert_eq!(&out, &want, "{:?} {:?}", s, form);
            proptest::prop_assert_eq!(got_w, w, "{:?} {:?}", s, form);
        }
    }
}
