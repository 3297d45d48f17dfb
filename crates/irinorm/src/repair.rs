//! Repair: what browsers accept, turned into an RFC 3987 `IRI-reference`
//! before the ladder, each change named ([`Step`]).
//!
//! The exact parser refuses what RFC 3986/3987 refuse; pages contain
//! `href`s with spaces, tabs, `\`, `|`, quotes and bare `%` that every
//! browser follows. [`repair`] applies the WHATWG URL Standard's reading of
//! such input where the RFCs have no reading at all, and leaves everything
//! the RFCs do read as they read it (docs/repair.md lists each step with
//! its source, and where the two readings differ, which one is followed
//! and why). Repair is opt-in (`--repair`); without it nothing changes.
//!
//! What repair never does: guess a scheme, change a host's meaning (no
//! WHATWG IPv4 number parsing: `0x7f.1` stays a reg-name, RFC 3986
//! §3.2.2), decode anything, or drop characters other than the
//! surrounding C0 controls and spaces and the tabs and newlines inside,
//! which the WHATWG URL Standard removes too (§4.4 "basic URL parser").

use std::fmt;

use crate::ucs::{is_iprivate, is_ucschar};

/// One kind of change that [`repair`] made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Leading and trailing C0 controls and spaces removed (WHATWG URL
    /// §4.4 step 1; RFC 3986 Appendix C: delimit URIs, strip surroundings).
    TrimC0Space,
    /// Tabs, CRs and LFs inside removed (WHATWG URL §4.4 step 3; RFC 3986
    /// Appendix C: line breaks inserted by line wrapping are removed).
    RemoveTabNewline,
    /// `\` read as `/` before the query in a special scheme (http, https,
    /// ws, wss, ftp, file), as the WHATWG URL Standard does.
    BackslashToSlash,
    /// The slashes after `scheme:` of a special scheme made exactly two
    /// (`http:/a`, `http:///a` -> `http://a`; `file:/p` -> `file:///p`).
    SchemeSlashes,
    /// `http:g` against an `http` base read as the relative `g` (RFC 3986
    /// §5.4.2's "for backward compatibility" non-strict reading; WHATWG).
    SameSchemeRelative,
    /// `./` put before a relative path whose first segment has a `:`
    /// (RFC 3986 §4.2: it would read as a scheme; WHATWG reads a path).
    DotSlashColon,
    /// Every `@` of the authority but the last encoded as `%40` (WHATWG:
    /// the last `@` ends the userinfo; RFC 3986 §3.2.1 has no `@` in it).
    EncodeUserinfoAt,
    /// Characters that no component allows (space, `"`, `<`, `>`, `` ` ``,
    /// `{`, `}`, `|`, `\`, `^`, `[`/`]` outside an IP literal, controls,
    /// non-characters) percent-encoded as UTF-8 (RFC 3986 §2.1, RFC 3987
    /// §3.1 step 2).
    EncodeDisallowed,
    /// A `#` after the fragment's `#` encoded as `%23` (RFC 3986 §3.5).
    EncodeSecondHash,
    /// A `%` not followed by two hex digits encoded as `%25` (RFC 3986 §2.4).
    EncodeBarePercent,
}

impl Step {
    /// Every step, in the order the pass applies them.
    pub const ALL: [Step; 10] = [
        Step::TrimC0Space,
        Step::RemoveTabNewline,
        Step::BackslashToSlash,
        Step::SchemeSlashes,
        Step::SameSchemeRelative,
        Step::DotSlashColon,
        Step::EncodeUserinfoAt,
        Step::EncodeDisallowed,
        Step::EncodeSecondHash,
        Step::EncodeBarePercent,
    ];

    /// The step's name in reports (`repaired` in jsonl, `explain`).
    pub const fn name(self) -> &'static str {
        match self {
            Step::TrimC0Space => "trim-c0-space",
            Step::RemoveTabNewline => "remove-tab-newline",
            Step::BackslashToSlash => "backslash-to-slash",
            Step::SchemeSlashes => "scheme-slashes",
            Step::SameSchemeRelative => "same-scheme-relative",
            Step::DotSlashColon => "dot-slash-colon",
            Step::EncodeUserinfoAt => "encode-userinfo-at",
            Step::EncodeDisallowed => "encode-disallowed",
            Step::EncodeSecondHash => "encode-second-hash",
            Step::EncodeBarePercent => "encode-bare-percent",
        }
    }

    /// What the step is based on.
    pub const fn reason(self) -> &'static str {
        match self {
            Step::TrimC0Space => "WHATWG URL 4.4 step 1; RFC 3986 Appendix C",
            Step::RemoveTabNewline => "WHATWG URL 4.4 step 3; RFC 3986 Appendix C",
            Step::BackslashToSlash => "WHATWG URL: \\ is / in special schemes",
            Step::SchemeSlashes => "WHATWG URL: special authority ignore slashes state",
            Step::SameSchemeRelative => "RFC 3986 5.4.2 non-strict resolution; WHATWG URL",
            Step::DotSlashColon => "RFC 3986 4.2; WHATWG URL relative path",
            Step::EncodeUserinfoAt => "WHATWG URL authority state; RFC 3986 3.2.1",
            Step::EncodeDisallowed => "RFC 3986 2.1; RFC 3987 3.1",
            Step::EncodeSecondHash => "RFC 3986 3.5",
            Step::EncodeBarePercent => "RFC 3986 2.4",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of [`repair`]: the text and the steps that changed it (each
/// once, in the order of [`Step::ALL`]); no steps means `text` is the input.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Repaired {
    /// The repaired reference.
    pub text: String,
    /// The steps that changed something.
    pub steps: Vec<Step>,
}

impl Repaired {
    /// Whether anything changed.
    pub fn changed(&self) -> bool {
        !self.steps.is_empty()
    }
}

/// The schemes with the WHATWG URL Standard's special parsing.
fn is_special(scheme: &str) -> bool {
    ["http", "https", "ws", "wss", "ftp", "file"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

/// The scheme of `s` (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`,
/// RFC 3986 §3.1), without the colon.
fn scheme_of(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .count();
    (b.get(n) == Some(&b':')).then(|| &s[..n])
}

/// `ALPHA (":" / "|")` then the end, `/`, `\\`, `?` or `#`: a Windows
/// drive letter (WHATWG URL; RFC 8089 Appendix E.2).
fn starts_with_drive(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && matches!(b[1], b':' | b'|')
        && b.get(2)
            .is_none_or(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'))
}

/// Repairs `input` into an RFC 3987 `IRI-reference`. `base_scheme` is the
/// scheme of the base the result will be resolved against, if any (it
/// decides [`Step::SameSchemeRelative`]).
///
/// ```
/// use irinorm::repair::{repair, Step};
/// let r = repair("  http:\\\\example.com\\a b|c?q=\"x\"#f#g%zz\n", None);
/// assert_eq!(r.text, "http://example.com/a%20b%7Cc?q=%22x%22#f%23g%25zz");
/// assert!(r.steps.contains(&Step::BackslashToSlash));
/// ```
pub fn repair(input: &str, base_scheme: Option<&str>) -> Repaired {
    let mut steps = Vec::new();
    let note = |s: Step, steps: &mut Vec<Step>| {
        if !steps.contains(&s) {
            steps.push(s);
        }
    };
    // Step 1: C0 controls and spaces around.
    let c0sp = |c: char| c <= ' ';
    let trimmed = input.trim_matches(c0sp);
    if trimmed.len() != input.len() {
        note(Step::TrimC0Space, &mut steps);
    }
    // Step 2: tabs and newlines inside.
    let mut s: String = if trimmed.contains(['\t', '\n', '\r']) {
        note(Step::RemoveTabNewline, &mut steps);
        trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect()
    } else {
        trimmed.to_owned()
    };

    let scheme = scheme_of(&s).map(str::to_owned);
    let special = scheme.as_deref().is_some_and(is_special);
    // A reference without a scheme is special when its base is (WHATWG
    // parses it in the base's scheme).
    let special_ctx = special || (scheme.is_none() && base_scheme.is_some_and(is_special));

    // Step 3: `\` is `/` before the query of a special URL.
    if special_ctx {
        let end = s.find(['?', '#']).unwrap_or(s.len());
        if s[..end].contains('\\') {
            note(Step::BackslashToSlash, &mut steps);
            let head = s[..end].replace('\\', "/");
            s.replace_range(..end, &head);
        }
    }

    // Steps 4-5: what follows `scheme:` in a special scheme.
    if let (true, Some(sch)) = (special, scheme.as_deref()) {
        let rest = &s[sch.len() + 1..];
        let slashes = rest.bytes().take_while(|&c| c == b'/').count();
        let same_base = base_scheme.is_some_and(|b| b.eq_ignore_ascii_case(sch));
        let is_file = sch.eq_ignore_ascii_case("file");
        if same_base && slashes < 2 {
            note(Step::SameSchemeRelative, &mut steps);
            // WHATWG file state: `file:c:/x` keeps the base host but not
            // its path (a drive letter starts a new path).
            let drive = is_file && starts_with_drive(&rest[slashes..]);
            let with = if drive && slashes == 0 { "/" } else { "" };
            s.replace_range(..=sch.len(), with);
        } else if is_file {
            // file: an empty host unless `//` starts an authority.
            let insert = match slashes {
                0 => "///",
                1 => "//",
                _ => "",
            };
            if !insert.is_empty() {
                note(Step::SchemeSlashes, &mut steps);
                s.insert_str(sch.len() + 1, insert);
            }
        } else if slashes != 2 {
            note(Step::SchemeSlashes, &mut steps);
            s.replace_range(sch.len() + 1..sch.len() + 1 + slashes, "//");
        }
    }

    // A relative path whose first segment has a `:` is no relative-ref.
    if scheme_of(&s).is_none() {
        let first = s.find(['/', '?', '#']).unwrap_or(s.len());
        if s[..first].contains(':') {
            note(Step::DotSlashColon, &mut steps);
            s.insert_str(0, "./");
        }
    }

    // One pass over the components, encoding what they refuse.
    let mut out = String::with_capacity(s.len() + 8);
    let b = s.as_bytes();
    let mut i = 0;
    // Where the authority is, if any: after `scheme://` or a leading `//`.
    let after_scheme = scheme_of(&s).map_or(0, |x| x.len() + 1);
    let auth = if s[after_scheme..].starts_with("//") {
        let a = after_scheme + 2;
        let e = s[a..].find(['/', '?', '#']).map_or(s.len(), |e| a + e);
        Some((a, e))
    } else {
        None
    };
    let last_at = auth.and_then(|(a, e)| s[a..e].rfind('@').map(|x| a + x));
    // A host browsers refuse (`a b`, `a<b`: WHATWG's forbidden host code
    // points, and in special schemes controls and `%`) stays as it is, so
    // the parser refuses it too: never a reg-name of `%20`s. What browsers
    // keep in a host but RFC 3986 §3.2.2 does not allow is encoded.
    let host = auth.map(|(a, e)| (last_at.map_or(a, |x| x + 1), e));
    let mut in_fragment = false;
    let mut in_query = false;
    for (pos, c) in s.char_indices() {
        if pos < i {
            continue;
        }
        i = pos + c.len_utf8();
        let in_auth = auth.is_some_and(|(a, e)| pos >= a && pos < e);
        if host.is_some_and(|(h, e)| pos >= h && pos < e) {
            let opaque_ok = !special
                && (c.is_ascii_control() || (c == '%' && crate::pct::triplet(b, pos).is_none()));
            if matches!(c, '"' | '`' | '{' | '}') || opaque_ok {
                note(Step::EncodeDisallowed, &mut steps);
                crate::pct::push_char_encoded(&mut out, c);
            } else {
                out.push(c);
            }
            continue;
        }
        match c {
            '#' if in_fragment => {
                note(Step::EncodeSecondHash, &mut steps);
                out.push_str("%23");
            }
            '#' => {
                in_fragment = true;
                out.push('#');
            }
            '?' => {
                in_query = !in_fragment;
                out.push('?');
            }
            '%' => {
                let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
                if hex(pos + 1) && hex(pos + 2) {
                    out.push('%');
                } else {
                    note(Step::EncodeBarePercent, &mut steps);
                    out.push_str("%25");
                }
            }
            '@' if in_auth && Some(pos) != last_at => {
                note(Step::EncodeUserinfoAt, &mut steps);
                out.push_str("%40");
            }
            ' ' | '"' | '<' | '>' | '`' | '{' | '}' | '|' | '\\' | '^' | '[' | ']' => {
                note(Step::EncodeDisallowed, &mut steps);
                crate::pct::push_char_encoded(&mut out, c);
            }
            c if c.is_ascii_control() => {
                note(Step::EncodeDisallowed, &mut steps);
                crate::pct::push_char_encoded(&mut out, c);
            }
            c if !(c.is_ascii()
                || is_ucschar(c as u32)
                || (in_query && !in_fragment && is_iprivate(c as u32))) =>
            {
                // RFC 3987 §2.2: only ucschar (and iprivate in the query)
                // may appear unencoded; §3.1 encodes the rest as UTF-8.
                note(Step::EncodeDisallowed, &mut steps);
                crate::pct::push_char_encoded(&mut out, c);
            }
            c => out.push(c),
        }
    }
    steps.sort();
    Repaired { text: out, steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(r: &Repaired) -> Vec<&'static str> {
        r.steps.iter().map(|s| s.name()).collect()
    }

    /// Each step alone, with the WHATWG URL Standard's `href` of the same
    /// input where the two agree (urltestdata.json cases).
    #[test]
    fn each_step() {
        let cases: [(&str, Option<&str>, &str, &[&str]); 16] = [
            (
                "\u{1}  http://a/ \u{1f}",
                None,
                "http://a/",
                &["trim-c0-space"],
            ),
            (
                "http://example\t.\norg",
                None,
                "http://example.org",
                &["remove-tab-newline"],
            ),
            (
                "http:\\\\a\\b\\c?d\\e",
                None,
                "http://a/b/c?d%5Ce",
                &["backslash-to-slash", "encode-disallowed"],
            ),
            ("\\\\a\\b", Some("http"), "//a/b", &["backslash-to-slash"]),
            (
                "\\\\a\\b",
                Some("mailto"),
                "%5C%5Ca%5Cb",
                &["encode-disallowed"],
            ),
            ("http:/a/b", None, "http://a/b", &["scheme-slashes"]),
            ("https:////a/b", None, "https://a/b", &["scheme-slashes"]),
            ("http:a/b", Some("http"), "a/b", &["same-scheme-relative"]),
            ("http:a/b", Some("https"), "http://a/b", &["scheme-slashes"]),
            ("file:c:/x", None, "file:///c:/x", &["scheme-slashes"]),
            (
                "http://u@v@h/",
                None,
                "http://u%40v@h/",
                &["encode-userinfo-at"],
            ),
            (
                "a b\"<>`{}|^[]",
                None,
                "a%20b%22%3C%3E%60%7B%7D%7C%5E%5B%5D",
                &["encode-disallowed"],
            ),
            ("#a#b#c", None, "#a%23b%23c", &["encode-second-hash"]),
            (
                "/%zz%4%41%",
                None,
                "/%25zz%254%41%25",
                &["encode-bare-percent"],
            ),
            ("a:b/c", None, "a:b/c", &[]),
            ("1a:b/c", Some("http"), "./1a:b/c", &["dot-slash-colon"]),
        ];
        for (input, base, want, steps) in cases {
            let r = repair(input, base);
            assert_eq!(r.text, want, "{input:?}");
            assert_eq!(names(&r), steps, "{input:?}");
        }
    }

    #[test]
    fn hosts_are_never_repaired() {
        // A host browsers refuse stays refused by the parser.
        for s in ["http://a b/", "http://a<b/", "http://a%zz/", "http://u@[x/"] {
            let r = repair(s, None);
            assert_eq!(r.text, s);
        }
        assert_eq!(repair("http://a b@c d/", None).text, "http://a%20b@c d/");
    }

    #[test]
    fn valid_references_are_unchanged() {
        for s in [
            "http://[::1]:80/a?b#c",
            "mailto:a@b",
            "http://résumé.example/é?\u{E000}",
            "",
            "//a/b",
            "urn:x:y",
            "http://a/%41",
        ] {
            let r = repair(s, Some("http"));
            assert_eq!(r.text, s);
            assert!(!r.changed(), "{s:?}: {:?}", r.steps);
        }
    }

    #[test]
    fn a_new_authority_gets_its_at_signs_encoded() {
        // Found by the fuzz target: valid RFC syntax (a path) that WHATWG
        // reads as an authority whose userinfo holds an `@`.
        let r = repair("http:@http:@5--", None);
        assert_eq!(r.text, "http://%40http:@5--");
        assert_eq!(r.steps, [Step::SchemeSlashes, Step::EncodeUserinfoAt]);
    }

    #[test]
    fn non_characters_and_private_use() {
        // U+FFFE is no ucschar; U+E000 is iprivate, allowed only in the query.
        let r = repair("http://a/\u{FFFE}\u{E000}?\u{E000}", None);
        assert_eq!(r.text, "http://a/%EF%BF%BE%EE%80%80?\u{E000}");
    }
}
