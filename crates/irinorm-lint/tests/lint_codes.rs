//! Every lint code, with inputs that must and must not produce it,
//! including the examples of RFC 3986 §7, RFC 3987 §3.2, §4 and §7.5, and
//! the 2003 IRI draft (§2.3, §6.5, §7). Then the invariant on every line of
//! the shared corpora: no panic, every finding inside the input.

use irinorm_lint::{lint, CheckSet, Code, Finding, LintOptions, Part, Report, Severity};

fn run(s: &str) -> Report {
    let r = lint(s, &LintOptions::default());
    check_invariants(s, &r);
    r
}

fn check_invariants(s: &str, r: &Report) {
    assert_eq!(r.input_len, s.len());
    for f in &r.findings {
        assert!(
            f.offset <= s.len() && f.len <= s.len() - f.offset,
            "{s:?}: {f} outside the input"
        );
        assert!(
            s.is_char_boundary(f.offset) && s.is_char_boundary(f.offset + f.len),
            "{s:?}: {f} not on character boundaries"
        );
        let code = Code::from_name(f.code).unwrap_or_else(|| panic!("unknown code {}", f.code));
        assert_eq!(f.severity, code.severity(), "{f}");
    }
    assert!(r
        .findings
        .windows(2)
        .all(|w| w[0].offset <= w[1].offset || w[1].code == Code::FindingsTruncated.as_str()));
}

fn dump(r: &Report) -> String {
    r.findings
        .iter()
        .map(|f| format!("  {f}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `s` must have a finding with `code`; returns the first.
#[track_caller]
fn yes(s: &str, code: Code) -> Finding {
    let r = run(s);
    let found = r.with_code(code).next().cloned();
    found.unwrap_or_else(|| panic!("{s:?}: no {code}; findings:\n{}", dump(&r)))
}

/// `s` must have no finding with `code`.
#[track_caller]
fn no(s: &str, code: Code) {
    let r = run(s);
    assert!(!r.has(code), "{s:?}: unexpected {code}:\n{}", dump(&r));
}

/// The span a finding covers.
fn at(s: &str, f: &Finding) -> String {
    f.text(s).to_owned()
}

/// RFC 3987 §4.4 writes right-to-left characters as upper-case ASCII
/// ("Bidi Notation"); this maps them to Hebrew letters.
fn bidi(notation: &str) -> String {
    notation
        .chars()
        .map(|c| match c {
            'A'..='Z' => char::from_u32(0x05D0 + (c as u32 - 'A' as u32)).unwrap(),
            _ => c,
        })
        .collect()
}

// ---------------------------------------------------------------- limits

#[test]
fn input_too_long() {
    let opts = LintOptions {
        max_input_len: 10,
        ..LintOptions::default()
    };
    let s = "http://example.com/\u{202E}";
    let r = lint(s, &opts);
    assert_eq!(r.findings.len(), 1, "{}", dump(&r));
    assert_eq!(r.findings[0].code, "input-too-long");
    assert_eq!((r.findings[0].offset, r.findings[0].len), (0, s.len()));
    assert_eq!(r.valid, None);
    // At the limit: examined.
    let r = lint("http://a/b", &opts);
    assert!(!r.has(Code::InputTooLong));
    assert_eq!(r.valid, Some(true));
    // The default limit.
    let big = format!(
        "http://a/{}",
        "b".repeat(irinorm_lint::DEFAULT_MAX_INPUT_LEN)
    );
    assert!(run(&big).has(Code::InputTooLong));
    no(
        &big[..irinorm_lint::DEFAULT_MAX_INPUT_LEN],
        Code::InputTooLong,
    );
}

#[test]
fn findings_truncated() {
    let opts = LintOptions {
        max_findings: 3,
        ..LintOptions::default()
    };
    let s = "http://a/%00%01%00%02%00%03%00%04%00";
    let r = lint(s, &opts);
    check_invariants(s, &r);
    assert_eq!(r.with_code(Code::PctNul).count(), 3);
    let t = r.with_code(Code::FindingsTruncated).next().unwrap();
    assert_eq!(t.detail.as_deref(), Some("2"));
    assert!(!run(s).has(Code::FindingsTruncated));
}

#[test]
fn options_filter() {
    let s = "http://user:pw@p\u{430}ypal.com:25/";
    let only = LintOptions {
        checks: CheckSet::none().with(Code::UserinfoPassword),
        ..LintOptions::default()
    };
    let r = lint(s, &only);
    assert!(r.findings.iter().all(|f| f.code == "userinfo-password"));
    assert!(r.has(Code::UserinfoPassword));
    let errors = LintOptions {
        min_severity: Severity::Error,
        ..LintOptions::default()
    };
    let r = lint(s, &errors);
    assert!(r.findings.iter().all(|f| f.severity == Severity::Error));
    assert!(r.has(Code::UserinfoPassword) && !r.has(Code::Confusable));
}

// ---------------------------------------------------------------- syntax

#[test]
fn parse_error_with_raw_text_findings() {
    // Not an IRI (space), yet the bidi character is still reported.
    let s = "http://a/b c\u{202E}d";
    let r = run(s);
    assert_eq!(r.valid, Some(false));
    let e = r.parse_error.as_ref().unwrap();
    assert_eq!((e.kind, e.offset), ("invalid-char", 10));
    let f = yes(s, Code::ParseError);
    assert_eq!((f.offset, f.component), (10, Part::Path));
    assert_eq!(f.detail.as_deref(), Some("invalid-char"));
    assert!(r.has(Code::BidiFormatChar));
    no("http://a/b", Code::ParseError);
    // Under a URI grammar, non-ASCII is a parse error.
    let uri = LintOptions {
        grammar: irinorm::Grammar::Uri,
        ..LintOptions::default()
    };
    assert!(lint("http://a/é", &uri).has(Code::ParseError));
}

// ---------------------------------------------------------------- RFC 3987 §4

#[test]
fn bidi_format_char_rfc3987_4_1() {
    // "IRIs MUST NOT contain bidirectional formatting characters (LRM,
    // RLM, LRE, RLE, LRO, RLO, and PDF)", plus the isolates and ALM.
    for c in [
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
        '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{061C}',
    ] {
        let s = format!("http://example.org/a{c}b?c#d");
        let f = yes(&s, Code::BidiFormatChar);
        assert_eq!(
            (f.offset, f.len, f.component),
            (20, c.len_utf8(), Part::Path)
        );
        assert_eq!(f.severity, Severity::Error);
    }
    // A run is one finding; each component is named.
    let s = "http://a\u{202E}\u{202C}b/?\u{200F}#\u{200E}";
    let r = run(s);
    let fs: Vec<_> = r.with_code(Code::BidiFormatChar).collect();
    assert_eq!(fs.len(), 3, "{}", dump(&r));
    assert_eq!((fs[0].component, fs[0].len), (Part::Host, 6));
    assert_eq!(fs[1].component, Part::Query);
    assert_eq!(fs[2].component, Part::Fragment);
    no("http://example.org/\u{05D0}\u{05D1}", Code::BidiFormatChar);
    // Percent-encoded, it is only information (RFC 3987 §3.2.1 example).
    no(
        "http://xn--99zt52a.example.org/%e2%80%ae",
        Code::BidiFormatChar,
    );
}

#[test]
fn pct_bidi_format_char_rfc3987_3_2() {
    let s = "http://xn--99zt52a.example.org/%e2%80%ae";
    let f = yes(s, Code::PctBidiFormatChar);
    assert_eq!(at(s, &f), "%e2%80%ae");
    assert_eq!(f.detail.as_deref(), Some("U+202E"));
    no("http://example.org/%E2%80%94", Code::PctBidiFormatChar); // EM DASH
}

/// RFC 3987 §4.4 examples 1-7 and 10 are legal: no §4.2 finding.
#[test]
fn bidi_rules_legal_examples_rfc3987_4_4() {
    for ex in [
        "http://ab.CDEFGH.ij/kl/mn/op.html",       // 1
        "http://ab.CDE.FGH/ij/kl/mn/op.html",      // 2
        "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV", // 3
        "http://AB.CD.ef/gh/IJ/KL.html",           // 4
        "http://ab.cd.EF/GH/ij/kl.html",           // 5
        "http://ab.CD.EF/GH/IJ/kl.html",           // 6
        "http://ab.CDE123FGH.ij/kl/mn/op.html",    // 7
        "http://ab.CDEFGH.123/kl/mn/op.html",      // 10: allowed, not recommended
    ] {
        let s = bidi(ex);
        no(&s, Code::BidiMixedDirection);
        no(&s, Code::BidiRtlBoundary);
    }
}

/// RFC 3987 §4.4 examples 8 and 9 are "not allowed" (rule 2).
#[test]
fn bidi_rtl_boundary_rfc3987_4_4_examples_8_9() {
    let s = bidi("http://ab.cd.ef/GH1/2IJ/KL.html"); // 8
    let r = run(&s);
    let fs: Vec<_> = r.with_code(Code::BidiRtlBoundary).collect();
    assert_eq!(fs.len(), 2, "{}", dump(&r));
    assert_eq!(at(&s, fs[0]), bidi("GH1"));
    assert_eq!(fs[0].detail.as_deref(), Some("does not end"));
    assert_eq!(at(&s, fs[1]), bidi("2IJ"));
    assert_eq!(fs[1].detail.as_deref(), Some("does not start"));
    assert!(!r.has(Code::BidiMixedDirection), "digits are not ltr");
    let s = bidi("http://ab.cd.ef/GH%31/%32IJ/KL.html"); // 9
    let r = run(&s);
    let fs: Vec<_> = r.with_code(Code::BidiRtlBoundary).collect();
    assert_eq!(fs.len(), 2, "{}", dump(&r));
    assert_eq!(at(&s, fs[0]), bidi("GH") + "%31");
    assert_eq!(at(&s, fs[1]), "%32".to_owned() + &bidi("IJ"));
    // The same with Arabic letters.
    let s = "http://ab.cd.ef/\u{0627}\u{0628}1/x";
    assert_eq!(yes(s, Code::BidiRtlBoundary).component, Part::Path);
    // Neither end.
    let s = bidi("http://a/1GH1");
    assert_eq!(
        yes(&s, Code::BidiRtlBoundary).detail.as_deref(),
        Some("neither starts nor ends")
    );
    // In the query and the userinfo too.
    let s = bidi("http://a/?x=GH1");
    assert_eq!(yes(&s, Code::BidiRtlBoundary).component, Part::Query);
    let s = bidi("http://GH1@a/");
    assert_eq!(yes(&s, Code::BidiRtlBoundary).component, Part::Userinfo);
}

#[test]
fn bidi_mixed_direction_rfc3987_4_2_rule_1() {
    // "A component SHOULD NOT use both right-to-left and left-to-right characters."
    let s = bidi("http://example.org/abcDEF/x");
    let f = yes(&s, Code::BidiMixedDirection);
    assert_eq!(at(&s, &f), bidi("abcDEF"));
    assert_eq!(f.severity, Severity::Warning);
    // It also breaks rule 2 (it starts with an ltr character).
    yes(&s, Code::BidiRtlBoundary);
    let s = bidi("http://example.org/DEFabcGHI");
    yes(&s, Code::BidiMixedDirection);
    no(&s, Code::BidiRtlBoundary);
    // Separate components may differ (Example 4's "KL.html").
    no(
        &bidi("http://example.org/DEF/abc/GH.html"),
        Code::BidiMixedDirection,
    );
    no(
        &bidi("http://example.org/DEF?a=GH&b=cd"),
        Code::BidiMixedDirection,
    );
    yes(&bidi("http://example.org/x#abGH"), Code::BidiMixedDirection);
}

// ---------------------------------------------------------------- scripts

#[test]
fn mixed_script_uts39() {
    // A Cyrillic "а" in "pаypal.com" (the example).
    let s = "http://p\u{430}ypal.com/";
    let f = yes(s, Code::MixedScript);
    assert_eq!((f.offset, f.len, f.component), (7, 7, Part::Host));
    assert_eq!(
        f.detail.as_deref(),
        Some("scripts: Latin, Cyrillic; UTS #39 level: minimally restrictive")
    );
    // The same host in A-label form.
    yes("http://xn--pypal-4ve.com/", Code::MixedScript);
    // RFC 3987 §7.5: Latin "A", Greek "Alpha", Cyrillic "A".
    yes("http://example.org/\u{391}pple", Code::MixedScript);
    yes("http://example.org/\u{410}pple", Code::MixedScript);
    // Percent-encoded in a URI path.
    yes("http://example.org/p%D0%B0ypal", Code::MixedScript);
    // Single script, or highly restrictive (Japanese mixes Han, kana and Latin).
    no("http://例え.jp/日本語abc", Code::MixedScript);
    no("http://пример.рф/путь", Code::MixedScript);
    no("http://résumé.example.org/straße", Code::MixedScript);
    no("http://example.org/файл.html", Code::MixedScript); // extension is its own component
                                                           // In paths, words of different languages may sit side by side; one
                                                           // word may not mix scripts.
    no(
        "https://ru.wikipedia.org/wiki/Tunnel_of_Love_(%D0%B0%D0%BB%D1%8C%D0%B1%D0%BE%D0%BC)",
        Code::MixedScript,
    );
    let s = "http://example.org/login-p%D0%B0ypal-now";
    let f = yes(s, Code::MixedScript);
    assert_eq!(at(s, &f), "p%D0%B0ypal");
    // A host label is judged whole, hyphens and all.
    let s = "http://login-p\u{430}ypal.example/";
    assert_eq!(at(s, &yes(s, Code::MixedScript)), "login-p\u{430}ypal");
    // Not in query values (arbitrary text).
    no("http://example.org/?q=p\u{430}ypal", Code::MixedScript);
}

#[test]
fn confusable_uts39_skeleton() {
    let s = "http://p\u{430}ypal.com/";
    let f = yes(s, Code::Confusable);
    assert_eq!((f.offset, f.len), (7, 7));
    let d = f.detail.unwrap();
    assert!(d.contains("skeleton: paypal.corn"), "{d}");
    assert!(d.contains("looks like: paypal.com"), "{d}");
    // Whole-script: all Cyrillic "аррӏе", as a U-label and as an A-label.
    let f = yes("http://аррӏе.com/", Code::Confusable);
    assert!(f.detail.unwrap().contains("looks like: apple.com"));
    let s = "http://xn--80ak6aa92e.com/";
    let f = yes(s, Code::Confusable);
    assert_eq!(at(s, &f), "xn--80ak6aa92e");
    // Percent-encoded host and path.
    yes("http://p%D0%B0ypal.com/", Code::Confusable);
    let f = yes("http://example.org/%D0%B0pple", Code::Confusable);
    assert_eq!(f.component, Part::Path);
    // Full-width letters; an invisible character inside a word.
    yes("http://example.org/ｆｉｌｅ", Code::Confusable);
    let s = "http://example.org/ad\u{200B}min/";
    assert_eq!(at(s, &yes(s, Code::Confusable)), "ad\u{200B}min");
    // Punctuation that looks like ASCII punctuation is not a spoofed word.
    no(
        "http://www.wikihow.com/Identify-Passive%E2%80%90Aggressive-Behavior",
        Code::Confusable,
    );
    no("http://a/us-%E2%80%93-2015", Code::Confusable);
    // Bidi formatting characters have their own code.
    no("http://a/b\u{202E}c", Code::Confusable);
    // Not: ASCII ("br0ken" and "1ame" of RFC 3987 §7.5 are out of scope),
    // ordinary non-Latin or accented text.
    no("http://br0ken.example/1ame", Code::Confusable);
    no("http://пример.рф/", Code::Confusable);
    // In a path, a word of one writing system is language even when all
    // its letters look ASCII (Greek "για", Cyrillic "бога", Turkish
    // "Politikası"); in a host the same word is a whole-script spoof.
    no(
        "http://example.gr/metin2-οδηγός-για-αρχάριους.html",
        Code::Confusable,
    );
    no(
        "http://example.org/ne-%D0%B1%D0%BE%D0%B3%D0%B0/",
        Code::Confusable,
    );
    no(
        "http://example.com.tr/Gizlilik-Politikas%C4%B1",
        Code::Confusable,
    );
    yes("http://\u{3B3}\u{3B9}\u{3B1}.example/", Code::Confusable);
    yes("http://\u{131}stanbul.example/", Code::Confusable);
    // Latin with an invisible character is reported in a path too.
    yes("http://a/%EF%B8%8FDecember", Code::Confusable);
    no("http://résumé.example.org/", Code::Confusable);
    no("http://xn--rsum-bpad.example.org/", Code::Confusable);
}

#[test]
fn not_nfc_rfc3987_5_3_2_2() {
    // "http://www.example.org/re&#x301;sume&#x301;.html" is not in NFC.
    let s = "http://www.example.org/re\u{301}sume\u{301}.html";
    let f = yes(s, Code::NotNfc);
    assert_eq!(at(s, &f), "re\u{301}sume\u{301}");
    assert_eq!(f.detail.as_deref(), Some("NFC: résumé"));
    // Its URI form too (the combining accent percent-encoded).
    yes(
        "http://www.example.org/re%CC%81sume%CC%81.html",
        Code::NotNfc,
    );
    yes("http://re\u{301}sume\u{301}.example.org/", Code::NotNfc);
    yes("http://a/?q=e\u{301}", Code::NotNfc);
    // "http://www.example.org/r&#xE9;sum&#xE9;.html" is in NFC.
    no("http://www.example.org/résumé.html", Code::NotNfc);
    no("http://www.example.org/r%C3%A9sum%C3%A9.html", Code::NotNfc);
}

#[test]
fn not_nfkc_draft_6_5() {
    // The draft's (and RFC 3987 §7.5's) example: U+FB01 LATIN SMALL LIGATURE FI.
    let s = "http://example.org/\u{FB01}le";
    let f = yes(s, Code::NotNfkc);
    assert_eq!(f.detail.as_deref(), Some("NFKC: file"));
    assert_eq!(f.severity, Severity::Info);
    // Full-width Latin, half-width Katakana (draft §5.1 c).
    yes("http://example.org/ｆｉｌｅ", Code::NotNfkc);
    yes("http://example.org/ｶﾀｶﾅ", Code::NotNfkc);
    // Not NFC is reported as such, not twice.
    no("http://example.org/e\u{301}", Code::NotNfkc);
    no("http://example.org/file", Code::NotNfkc);
    no("http://example.org/カタカナ", Code::NotNfkc);
}

// ---------------------------------------------------------------- characters

#[test]
fn iprivate_outside_query_rfc3987_2_2() {
    let s = "http://example.org/\u{E000}";
    let r = run(s);
    assert_eq!(r.valid, Some(false), "the grammar refuses it too");
    let f = yes(s, Code::IprivateOutsideQuery);
    assert_eq!((f.offset, f.component), (19, Part::Path));
    let s = "http://example.org/#\u{F8FF}\u{100000}";
    let f = yes(s, Code::IprivateOutsideQuery);
    assert_eq!((f.component, f.len), (Part::Fragment, 7));
    yes("http://\u{E000}.example/", Code::IprivateOutsideQuery);
    // Allowed in the query.
    let s = "http://example.org/?\u{E000}";
    no(s, Code::IprivateOutsideQuery);
    assert_eq!(run(s).valid, Some(true));
}

#[test]
fn pct_overlong_utf8_rfc3987_8() {
    // "A sequence such as "%C0%AF.." may pass some security tests and then
    // be interpreted as "/.." in a path."
    let s = "http://example.org/a%C0%AF..";
    let f = yes(s, Code::PctOverlongUtf8);
    assert_eq!(at(s, &f), "%C0%AF");
    assert_eq!(f.detail.as_deref(), Some("U+002F '/'"));
    assert_eq!(f.severity, Severity::Error);
    for (enc, cp) in [
        ("%c0%ae", "U+002E '.'"),
        ("%E0%80%AF", "U+002F '/'"),
        ("%F0%80%80%AF", "U+002F '/'"),
        ("%F8%80%80%80%AF", "U+002F '/'"),
        ("%FC%80%80%80%80%AF", "U+002F '/'"),
        ("%C1%9C", "U+005C '\\'"),
    ] {
        let s = format!("http://a/{enc}");
        let f = yes(&s, Code::PctOverlongUtf8);
        assert_eq!(
            (at(&s, &f), f.detail.unwrap()),
            (enc.to_owned(), cp.to_owned())
        );
        no(&s, Code::PctInvalidUtf8);
    }
    no("http://a/%C3%A9", Code::PctOverlongUtf8);
    no("http://a/%2F", Code::PctOverlongUtf8);
}

#[test]
fn pct_invalid_utf8() {
    // RFC 3987 §3.2.1: "http://www.example.org/r%E9sum%E9.html" (Latin-1).
    let s = "http://www.example.org/r%E9sum%E9.html";
    let r = run(s);
    let fs: Vec<_> = r.with_code(Code::PctInvalidUtf8).collect();
    assert_eq!(fs.len(), 2);
    assert_eq!(at(s, fs[0]), "%E9");
    // A run is one finding; surrogates (CESU-8), > U+10FFFF, truncation.
    let s = "http://a/%FF%FE%FD";
    assert_eq!(at(s, &yes(s, Code::PctInvalidUtf8)), "%FF%FE%FD");
    yes("http://a/%ED%A0%80", Code::PctInvalidUtf8);
    yes("http://a/%F4%90%80%80", Code::PctInvalidUtf8);
    yes("http://a/%E2%82", Code::PctInvalidUtf8);
    yes("http://a/?%80", Code::PctInvalidUtf8);
    yes("http://a%FF.example/", Code::PctInvalidUtf8);
    no("http://www.example.org/D%C3%BCrst", Code::PctInvalidUtf8);
    no("http://a/%F0%90%8C%80", Code::PctInvalidUtf8);
}

#[test]
fn pct_nul_rfc3986_7_3() {
    let s = "http://a/file.txt%00.jpg";
    let f = yes(s, Code::PctNul);
    assert_eq!((at(s, &f).as_str(), f.component), ("%00", Part::Path));
    yes("http://a/?x=%00", Code::PctNul);
    no("http://a/%0A%000", Code::PctInvalidUtf8);
    no("http://a/%10", Code::PctNul);
}

#[test]
fn pct_dot_segment_rfc3986_7_3() {
    let s = "http://a/static/%2e%2e/%2E%2E/etc/passwd";
    let r = run(s);
    let fs: Vec<_> = r.with_code(Code::PctDotSegment).collect();
    assert_eq!(fs.len(), 2, "{}", dump(&r));
    assert_eq!(at(s, fs[0]), "%2e%2e");
    assert_eq!(fs[0].detail.as_deref(), Some(".."));
    yes("http://a/.%2e/x", Code::PctDotSegment);
    assert_eq!(
        yes("http://a/%2E/x", Code::PctDotSegment).detail.as_deref(),
        Some(".")
    );
    no("http://a/../x", Code::PctDotSegment); // literal: resolution removes it
    no("http://a/%2e%2e%2e/x", Code::PctDotSegment);
    no("http://a/x?%2e%2e", Code::PctDotSegment);
}

// ---------------------------------------------------------------- authority

#[test]
fn userinfo_present() {
    let s = "ftp://anonymous@ftp.example.org/";
    let f = yes(s, Code::UserinfoPresent);
    assert_eq!(at(s, &f), "anonymous");
    assert_eq!(f.severity, Severity::Info);
    yes("http://@example.org/", Code::UserinfoPresent);
    no("http://example.org/@x", Code::UserinfoPresent);
    no("mailto:user@example.org", Code::UserinfoPresent);
}

#[test]
fn userinfo_password_rfc3986_3_2_1() {
    let s = "ftp://user:secret@ftp.example.org/";
    let f = yes(s, Code::UserinfoPassword);
    assert_eq!(
        (at(s, &f).as_str(), f.severity),
        ("secret", Severity::Error)
    );
    assert!(!f.message.contains("secret") && f.detail.is_none());
    // "unless the data after the colon is the empty string (indicating no password)"
    no("ftp://user:@ftp.example.org/", Code::UserinfoPassword);
    no("ftp://user@ftp.example.org/", Code::UserinfoPassword);
    yes("http://:x@a/", Code::UserinfoPassword);
}

#[test]
fn userinfo_looks_like_host_rfc3986_7_6() {
    // The RFC's example: the host is 10.0.0.1, not cnn.example.com.
    let s = "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm";
    let f = yes(s, Code::UserinfoLooksLikeHost);
    assert_eq!(at(s, &f), "cnn.example.com&story=breaking_news");
    assert_eq!(f.detail.as_deref(), Some("cnn.example.com"));
    yes(
        "http://www.example.com@evil.example/",
        Code::UserinfoLooksLikeHost,
    );
    yes(
        "http://www.example.com:443@evil.example/",
        Code::UserinfoLooksLikeHost,
    );
    yes("http://10.0.0.1@evil.example/", Code::UserinfoLooksLikeHost);
    yes("http://0x7f.1@evil.example/", Code::UserinfoLooksLikeHost);
    yes(
        "http://www%2Eexample%2Ecom@evil.example/",
        Code::UserinfoLooksLikeHost,
    );
    yes("http://[::1]@evil.example/", Code::UserinfoLooksLikeHost);
    // Invalid input, split where a browser splits: at the last '@'.
    let s = "http://good.example@x@evil.example/";
    assert_eq!(run(s).valid, Some(false));
    yes(s, Code::UserinfoLooksLikeHost);
    no("http://user@example.com/", Code::UserinfoLooksLikeHost);
    no("http://user:pw@example.com/", Code::UserinfoLooksLikeHost);
    no("http://42@example.com/", Code::UserinfoLooksLikeHost);
    no("http://a.1@example.com/", Code::UserinfoLooksLikeHost);
}

#[test]
fn rare_ip_form_rfc3986_7_4() {
    for (host, form, addr) in [
        ("0177.0.0.1", "octal", "127.0.0.1"),
        ("0x7f.1", "hexadecimal", "127.0.0.1"),
        ("0x7F000001", "hexadecimal", "127.0.0.1"),
        ("127.1", "fewer than four parts", "127.0.0.1"),
        // "a dotted form of three numbers ... the last part is a 16-bit quantity"
        ("192.168.257", "fewer than four parts", "192.168.1.1"),
        // "a dotted form of two numbers ... a 24-bit quantity"
        ("10.65537", "fewer than four parts", "10.1.0.1"),
        // "a single number (without dots) ... a 32-bit quantity"
        ("2130706433", "a single integer", "127.0.0.1"),
        ("127.0.0.1.", "trailing dot", "127.0.0.1"),
        ("%31%32%37.0.0.1", "percent-encoded", "127.0.0.1"),
        ("010.0.0.1", "octal", "8.0.0.1"),
    ] {
        let s = format!("http://{host}/");
        let f = yes(&s, Code::RareIpForm);
        assert_eq!((at(&s, &f).as_str(), f.component), (host, Part::Host));
        assert_eq!(f.detail.as_deref(), Some(addr), "{host}");
        assert!(f.message.contains(form), "{host}: {}", f.message);
    }
    for (lit, addr) in [
        ("[::ffff:127.0.0.1]", "127.0.0.1"),
        ("[::FFFF:7f00:1]", "127.0.0.1"),
        ("[::10.0.0.1]", "10.0.0.1"),
        ("[::ffff:0:10.0.0.1]", "10.0.0.1"),
        ("[64:ff9b::10.0.0.1]", "10.0.0.1"),
    ] {
        let s = format!("http://{lit}/");
        assert_eq!(
            yes(&s, Code::RareIpForm).detail.as_deref(),
            Some(addr),
            "{lit}"
        );
    }
    yes("http://[v1.fe80::a+en1]/", Code::RareIpForm);
    for ok in [
        "http://127.0.0.1/",
        "http://[::1]/",
        "http://[::]/",
        "http://[2001:db8::1]/",
        "http://256.1.1.1/",
        "http://1.2.3.4.5/",
        "http://example.com/",
        "http://08.1.1.1/",
        "http://123.example/",
    ] {
        no(ok, Code::RareIpForm);
    }
}

#[test]
fn well_known_port_rfc3986_7_2() {
    // "a protocol-based scheme with a port component of "25""
    let s = "http://example.org:25/";
    let f = yes(s, Code::WellKnownPort);
    assert_eq!(
        (at(s, &f).as_str(), f.detail.as_deref()),
        ("25", Some("25"))
    );
    yes("https://example.org:80/", Code::WellKnownPort);
    yes("HTTP://example.org:0022/", Code::WellKnownPort);
    no("http://example.org:80/", Code::WellKnownPort);
    no("http://example.org:0080/", Code::WellKnownPort);
    no("http://example.org:8080/", Code::WellKnownPort);
    no("http://example.org:/", Code::WellKnownPort);
    no("foo://example.org:25/", Code::WellKnownPort); // unknown scheme
}

#[test]
fn port_out_of_range() {
    let s = "http://example.org:65536/";
    assert_eq!(at(s, &yes(s, Code::PortOutOfRange)), "65536");
    yes(
        &format!("http://a:{}/", "9".repeat(1000)),
        Code::PortOutOfRange,
    );
    no("http://example.org:65535/", Code::PortOutOfRange);
    no("http://example.org:000000000080/", Code::PortOutOfRange);
}

// ---------------------------------------------------------------- IDNA / DNS

#[test]
fn idna_invalid_uts46() {
    let s = "http://ok.\u{0378}.example/"; // unassigned
    let f = yes(s, Code::IdnaInvalid);
    assert_eq!((at(s, &f).as_str(), f.component), ("\u{0378}", Part::Host));
    // RFC 5893 bidi rule (checked by UTS #46 CheckBidi).
    yes("http://\u{05D0}1\u{05D1}a.example/", Code::IdnaInvalid);
    no("http://résumé.example.org/", Code::IdnaInvalid);
    no("http://_dmarc.example.org/", Code::IdnaInvalid); // ASCII: not UTS #46's business
                                                         // ... unless the profile checks ASCII (UseSTD3ASCIIRules and friends).
    let strict = LintOptions {
        idna_profile: irinorm::idn::IdnaProfile::CONFORMANCE,
        ..LintOptions::default()
    };
    let s = "http://_dmarc.example.org/";
    let r = lint(s, &strict);
    check_invariants(s, &r);
    let f = r
        .with_code(Code::IdnaInvalid)
        .next()
        .expect("STD3 refuses '_'");
    assert_eq!(f.text(s), "_dmarc");
    no("http://r%C3%A9sum%C3%A9.example.org/", Code::IdnaInvalid);
}

#[test]
fn idna_bad_punycode() {
    let s = "http://a.xn--a-.example/";
    let f = yes(s, Code::IdnaBadPunycode);
    assert_eq!(at(s, &f), "xn--a-");
    yes("http://xn--zz.example/", Code::IdnaBadPunycode);
    no("http://xn--rsum-bpad.example.org/", Code::IdnaBadPunycode);
}

#[test]
fn idna_not_utf8() {
    let s = "http://r%E9sum%E9.example.org/";
    let f = yes(s, Code::IdnaNotUtf8);
    assert_eq!(at(s, &f), "r%E9sum%E9");
    no("http://r%C3%A9sum%C3%A9.example.org/", Code::IdnaNotUtf8);
}

#[test]
fn idna_too_long_is_decided_before_uts46() {
    let host = "é".repeat(600); // 1200 bytes
    let s = format!("http://{host}/");
    let f = yes(&s, Code::IdnaTooLong);
    assert_eq!(at(&s, &f), host);
    no(&s, Code::IdnaInvalid);
    no("http://résumé.example.org/", Code::IdnaTooLong);
    // An ASCII host is its own A-label form: no UTS #46, exact DNS lengths.
    let s = format!("http://{}.com/", "a".repeat(2000));
    no(&s, Code::IdnaTooLong);
    yes(&s, Code::DnsLabelTooLong);
}

#[test]
fn idna_encoded_ascii() {
    let s = "http://r%C3%A9sum%C3%A9%2C.example/";
    let f = yes(s, Code::IdnaEncodedAscii);
    assert_eq!(at(s, &f), "r%C3%A9sum%C3%A9%2C");
    yes("http://é%2Fx.example/", Code::IdnaEncodedAscii);
    // Unreserved triplets are decoded by any normalization: fine.
    no(
        "http://r%C3%A9sum%C3%A9%2D1.example/",
        Code::IdnaEncodedAscii,
    );
    // ASCII hosts are not IDNs.
    no("http://a%2Cb.example/", Code::IdnaEncodedAscii);
}

#[test]
fn idna_empty() {
    // Only U+00AD SOFT HYPHEN, which UTS #46 ignores.
    for s in ["http://\u{AD}/", "http://%C2%AD%C2%AD/"] {
        let f = yes(s, Code::IdnaEmpty);
        assert_eq!((f.offset, f.len), (7, s.len() - 8), "{s}");
    }
    no("http://\u{AD}a.example/", Code::IdnaEmpty);
    no("http:///", Code::IdnaEmpty);
}

#[test]
fn dns_label_too_long() {
    let l63 = "a".repeat(63);
    let l64 = "a".repeat(64);
    let s = format!("http://{l64}.example/");
    let f = yes(&s, Code::DnsLabelTooLong);
    assert_eq!((at(&s, &f), f.detail.as_deref()), (l64.clone(), Some("64")));
    no(&format!("http://{l63}.example/"), Code::DnsLabelTooLong);
    // In A-label form: 20 "é" are 40 bytes of UTF-8 but a shorter A-label,
    // 59 of them a longer one.
    let a_len = |n: usize| {
        let u = "é".repeat(n);
        let l = irinorm::idn::to_ascii(&u, &Default::default()).unwrap();
        l.len()
    };
    assert!(a_len(20) <= 63 && a_len(59) > 63);
    no(
        &format!("http://{}.example/", "é".repeat(20)),
        Code::DnsLabelTooLong,
    );
    let s = format!("http://{}.example/", "é".repeat(59));
    let f = yes(&s, Code::DnsLabelTooLong);
    assert_eq!(f.detail, Some(a_len(59).to_string()));
    // Percent-encoded: decoded length counts.
    no(
        &format!("http://{}.example/", "%61".repeat(63)),
        Code::DnsLabelTooLong,
    );
    yes(
        &format!("http://{}.example/", "%61".repeat(64)),
        Code::DnsLabelTooLong,
    );
}

#[test]
fn dns_name_too_long() {
    let label = "a".repeat(63);
    let name253 = format!("{label}.{label}.{label}.{}", "b".repeat(61));
    assert_eq!(name253.len(), 253);
    no(&format!("http://{name253}/"), Code::DnsNameTooLong);
    no(&format!("http://{name253}./"), Code::DnsNameTooLong); // root dot
    let s = format!("http://{name253}b/");
    let f = yes(&s, Code::DnsNameTooLong);
    assert_eq!((f.offset, f.len), (7, 254));
    // In A-label form: "é" is 2 bytes, "xn--9ca" 7 octets.
    let tail = format!("{}.{label}.{label}.{label}", "c".repeat(60));
    assert_eq!(tail.len(), 252);
    let s = format!("http://é.{tail}/");
    assert_eq!(yes(&s, Code::DnsNameTooLong).detail.as_deref(), Some("260"));
}

#[test]
fn dns_empty_label() {
    let s = "http://a..example/";
    let f = yes(s, Code::DnsEmptyLabel);
    assert_eq!((f.offset, f.len), (9, 0));
    yes("http://.example/", Code::DnsEmptyLabel);
    yes("http://example../", Code::DnsEmptyLabel);
    no("http://example./", Code::DnsEmptyLabel);
    no("http:///path", Code::DnsEmptyLabel); // empty host
    no("file:///etc/hosts", Code::DnsEmptyLabel);
}

// ---------------------------------------------------------------- docs and JSON

#[test]
fn findings_serialize_with_the_cli_fields() {
    let s = "http://user:pw@p\u{430}ypal.com/";
    let r = run(s);
    for f in &r.findings {
        let json = serde_json::to_string(f).unwrap();
        let keys = [
            "code",
            "severity",
            "component",
            "offset",
            "len",
            "message",
            "detail",
        ];
        let pos: Vec<usize> = keys
            .iter()
            .map(|k| {
                json.find(&format!("\"{k}\":"))
                    .unwrap_or_else(|| panic!("{k} in {json}"))
            })
            .collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{json}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v.as_object().unwrap().len(), keys.len(), "{json}");
    }
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["findings"][0]["severity"], "info");
    assert_eq!(v["findings"][0]["component"], "userinfo");
    let line = r.findings[0].to_string();
    assert!(
        line.starts_with("info[userinfo-present] userinfo@7+7: "),
        "{line}"
    );
}

#[test]
fn docs_describe_every_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/lint.md");
    let doc = std::fs::read_to_string(path).expect("docs/lint.md");
    for &c in Code::ALL {
        let head = format!("### `{}`", c.as_str());
        let at = doc
            .find(&head)
            .unwrap_or_else(|| panic!("docs/lint.md has no section {head}"));
        let section = &doc[at..];
        let section = &section[..section[4..].find("\n### ").map_or(section.len(), |p| p + 4)];
        assert!(
            section.contains(&format!("Severity: {}", c.severity())),
            "docs/lint.md: {} severity",
            c.as_str()
        );
        assert!(
            section.contains("Example"),
            "docs/lint.md: {} example",
            c.as_str()
        );
    }
}

// ---------------------------------------------------------------- corpora

#[test]
fn every_finding_lies_inside_the_input_on_the_corpora() {
    let Some(corpora) = irinorm_testdata::text_corpora("lint_corpora") else {
        return;
    };
    let opts = LintOptions::default();
    let mut lines = 0usize;
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for (name, text) in &corpora {
        for line in text {
            let r = lint(line, &opts);
            check_invariants(line, &r);
            for f in &r.findings {
                *counts.entry(f.code).or_default() += 1;
            }
            lines += 1;
        }
        eprintln!("{name}: {} lines", text.len());
    }
    if let Some(pairs) = irinorm_testdata::relative_pairs("lint_corpora") {
        for (base, rel) in &pairs {
            for line in [base, rel] {
                let r = lint(line, &opts);
                check_invariants(line, &r);
                for f in &r.findings {
                    *counts.entry(f.code).or_default() += 1;
                }
                lines += 1;
            }
        }
    }
    eprintln!("lint on {lines} corpus lines: {counts:?}");
    assert!(lines > 0);
}
