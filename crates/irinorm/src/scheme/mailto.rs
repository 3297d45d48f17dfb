//! `mailto` (RFC 6068): the domain of each address is case-insensitive
//! and, in `uri` form, written with A-labels (`iri` form: U-labels), like
//! any DNS name (RFC 6068 §5 allows both percent-encoded UTF-8 and A-labels
//! for IDNs); header field names are case-insensitive (RFC 5322 §1.2.2).
//! Local parts and header values are never touched: their case may matter.
//! The address list is split as the grammar says (quoted-strings and
//! domain literals hide their `,` and `@`), see `addresses` below.

use super::{lower_outside_triplets, rule_path};
use crate::idn::IdnaProfile;
use crate::norm::domain::{idn_convert, may_need_idn};
use crate::norm::{Form, Warning};

/// Rung 2 for a normalized `mailto` reference; `None` when nothing changes.
pub(crate) fn normalize(
    s: &str,
    form: Form,
    profile: &IdnaProfile,
    warnings: &mut Vec<Warning>,
) -> Option<String> {
    let (m, path) = rule_path(s)?;
    let mut out = String::with_capacity(s.len());
    out.push_str(m.scheme(s)?);
    out.push(':');
    // to = addr-spec *("," addr-spec)  (RFC 6068 §2)
    for (k, (addr, at)) in addresses(path).enumerate() {
        if k > 0 {
            out.push(',');
        }
        match at {
            // A domain that holds a `/` is no DNS name (RFC 1034 §3.5:
            // letters, digits, hyphens and dots; RFC 6068 §2 wants a
            // domain that resolves), only text after an `@` in a path
            // with segments: `mailto:/a@B.COM/x` has the segments
            // `a@B.COM` and `x`, and resolution (RFC 3986 §5.2.3)
            // merges against them, so lower-casing `B.COM/x` broke
            // invariant 4 (B = `mailto:/a@B.COM/`, R = `a@B.COM`: the
            // target's domain is the last `B.COM`, N(B)'s was the first).
            Some(at) if at + 1 < addr.len() && !addr[at + 1..].contains('/') => {
                out.push_str(&addr[..=at]);
                out.push_str(&domain(&addr[at + 1..], form, profile, warnings));
            }
            _ => out.push_str(addr),
        }
    }
    // hfields = "?" hfield *( "&" hfield ); hfield = hfname "=" hfvalue
    if let Some(q) = m.query(s) {
        out.push('?');
        for (k, field) in q.split('&').enumerate() {
            if k > 0 {
                out.push('&');
            }
            let (name, rest) = field.split_at(field.find('=').unwrap_or(field.len()));
            out.push_str(&lower_outside_triplets(name));
            out.push_str(rest);
        }
    }
    if let Some(f) = m.fragment(s) {
        out.push('#');
        out.push_str(f);
    }
    (out != s).then_some(out)
}

/// The addresses of `to = addr-spec *("," addr-spec)` (RFC 6068 §2), each
/// with the offset of the `@` that separates its local part from its
/// domain, split the way the grammar does: a `,` or `@` inside a
/// quoted-string local part (RFC 5322 §3.2.4: `DQUOTE *(qtext /
/// quoted-pair) DQUOTE`) or inside a domain literal (`[` ... `]`) is data,
/// not a separator. In a URI the `"` is written `%22`, `\` `%5C`, `[` `%5B`
/// and `]` `%5D` (RFC 6068 §2: characters outside `pchar` are
/// percent-encoded), so those triplets are the delimiters here; a
/// quoted-pair (`%5C` then one character or triplet) never ends a quote.
/// An unterminated quote runs to the end: the rest is one address with no
/// domain, which nothing lower-cases (a demanding reading: only what is
/// certainly a domain is touched).
fn addresses(to: &str) -> impl Iterator<Item = (&str, Option<usize>)> {
    let b = to.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut at) = (0, None);
    let (mut quoted, mut literal) = (false, false);
    let mut i = 0;
    let triplet = |i: usize| -> Option<u8> {
        if b.get(i) == Some(&b'%') && i + 2 < b.len() {
            u8::from_str_radix(to.get(i + 1..i + 3)?, 16).ok()
        } else {
            None
        }
    };
    while i < b.len() {
        let t = triplet(i);
        let step = if t.is_some() { 3 } else { 1 };
        let c = t.unwrap_or(b[i]);
        if quoted {
            match c {
                b'\\' => {
                    // quoted-pair: skip the escaped character or triplet.
                    let j = i + step;
                    i = j + if triplet(j).is_some() { 3 } else { 1 };
                    continue;
                }
                b'"' => quoted = false,
                _ => {}
            }
        } else if literal {
            if c == b']' {
                literal = false;
            }
        } else {
            match c {
                b'"' => quoted = true,
                b'[' => literal = true,
                b'@' if t.is_none() => at = Some(i - start),
                b',' if t.is_none() => {
                    out.push((&to[start..i], at));
                    start = i + 1;
                    at = None;
                }
                _ => {}
            }
        }
        i += step;
    }
    out.push((&to[start..], at));
    out.into_iter()
}

/// `domain = dot-atom-text / "[" *dtext-no-obs "]"` (RFC 6068 §2).
fn domain(d: &str, form: Form, profile: &IdnaProfile, warnings: &mut Vec<Warning>) -> String {
    let lower = lower_outside_triplets(d);
    if d.starts_with('[') || !may_need_idn(&lower, profile) {
        return lower;
    }
    match idn_convert(&lower, form, profile) {
        // UTS #46 without STD3 rules maps some characters to ASCII
        // delimiters (U+FF0C FULLWIDTH COMMA to `,`): in an address list a
        // `,` separates addresses (RFC 6068 §2), so `x@a，b`, one address,
        // would become two. A mapping that yields ASCII other than letters,
        // digits, `-`, `.` (RFC 1034 §3.5) and `_` (kept: found in DNS
        // names, and no delimiter) keeps the domain as rung 1 left it, as
        // a refused one is (docs/ladder.md decision 23).
        Ok(Some(x))
            if x.bytes().any(|c| {
                c.is_ascii() && !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
            }) =>
        {
            lower
        }
        Ok(Some(x)) => x,
        Ok(None) => lower,
        Err(error) => {
            warnings.push(Warning::Idna {
                offset: None,
                error,
            });
            lower
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str, form: Form) -> Option<String> {
        normalize(s, form, &IdnaProfile::default(), &mut Vec::new())
    }

    #[test]
    fn domains_and_header_names() {
        assert_eq!(
            n("mailto:Joe@Example.COM", Form::Uri).as_deref(),
            Some("mailto:Joe@example.com")
        );
        assert_eq!(n("mailto:joe@example.com", Form::Uri), None);
        assert_eq!(
            n("mailto:A@X.org,B@Y.ORG?Subject=Hi&CC=C@Z.ORG", Form::Uri).as_deref(),
            Some("mailto:A@x.org,B@y.org?subject=Hi&cc=C@Z.ORG")
        );
        assert_eq!(
            n("mailto:user@%C3%A9xample.org", Form::Uri).as_deref(),
            Some("mailto:user@xn--xample-9ua.org")
        );
        assert_eq!(n("mailto:user@éxample.org", Form::Iri), None);
        assert_eq!(
            n("mailto:user@xn--xample-9ua.org", Form::Iri).as_deref(),
            Some("mailto:user@éxample.org")
        );
        assert_eq!(
            n("mailto:%22a@b%22@X.org", Form::Uri).as_deref(),
            Some("mailto:%22a@b%22@x.org")
        );
    }

    /// Round 8: dot-segment removal can drop the closing quote and keep
    /// the opening one: `%22a/b%22/../c@D` resolves (RFC 3986 §5.2.2) to
    /// `%22a/c@D`, an unterminated quote whose `D` is no domain, while
    /// the rule lower-cased it in the reference itself.
    #[test]
    fn paths_with_dot_segments_are_left_alone() {
        for form in [Form::Uri, Form::Iri] {
            assert_eq!(n("mailto:%22a/b%22/../c@D", form), None);
            assert_eq!(n("mailto:a@B.COM/./x@Y", form), None);
        }
    }

    /// Round 8 (found by hand while checking the neighbours of the
    /// scheme-rule defects): U+FF0C FULLWIDTH COMMA maps to `,` under
    /// UTS #46 without STD3 rules, which split one address into two.
    #[test]
    fn mapping_never_makes_a_delimiter() {
        assert_eq!(n("mailto:x@a%EF%BC%8Cb", Form::Uri), None);
        assert_eq!(n("mailto:x@a%EF%BC%8Cb", Form::Iri), None);
        assert_eq!(
            n("mailto:x@a%EF%BC%8CB,y@C", Form::Uri).as_deref(),
            Some("mailto:x@a%EF%BC%8Cb,y@c")
        );
        // Fullwidth letters and dots still map (UTS #46 §4.1), and `_`
        // is no delimiter.
        assert_eq!(
            n("mailto:x@a_b.b%C3%BCcher.de", Form::Uri).as_deref(),
            Some("mailto:x@a_b.xn--bcher-kva.de")
        );
        assert_eq!(
            n("mailto:x@%EF%BD%81%EF%BC%8E%EF%BD%82", Form::Uri).as_deref(),
            Some("mailto:x@a.b")
        );
    }

    /// prop_ladder's `resolution_commutes_for_scheme_rules` (round 8):
    /// `mailto:/a@B.COM/` with `a@B.COM` resolves to
    /// `mailto:/a@B.COM/a@B.COM`, whose domain is the last `B.COM`; the
    /// base's own `B.COM/` holds a `/` and is a path, not a domain, so
    /// lower-casing it made N(resolve(B, R)) differ from
    /// N(resolve(N(B), N(R))). Domains without `/` are still lower-cased,
    /// in rooted paths too.
    #[test]
    fn a_domain_holding_a_slash_is_left_alone() {
        for form in [Form::Uri, Form::Iri] {
            assert_eq!(n("mailto:/a@B.COM/", form), None);
            assert_eq!(n("mailto:a@B.COM/x", form), None);
            assert_eq!(
                n("mailto:/a@B.COM/a@B.COM", form).as_deref(),
                Some("mailto:/a@B.COM/a@b.com")
            );
            assert_eq!(
                n("mailto:/a@B.COM,x/y", form).as_deref(),
                Some("mailto:/a@b.com,x/y")
            );
        }
    }

    /// Issue 16: the `,` inside the quoted local part `"a@B,c"` split the
    /// address, and `B` was lower-cased as if it were a domain.
    #[test]
    fn quoted_local_parts_are_not_split() {
        assert_eq!(
            n("mailto:%22a@B,c%22@D.com", Form::Uri).as_deref(),
            Some("mailto:%22a@B,c%22@d.com")
        );
        assert_eq!(n("mailto:%22a@B,c%22@d.com", Form::Uri), None);
        for form in [Form::Uri, Form::Iri] {
            // An escaped quote (quoted-pair `\"`) does not end the quote.
            assert_eq!(
                n("mailto:%22a%5C%22@B,c%22@D.com,X@Y.COM", form).as_deref(),
                Some("mailto:%22a%5C%22@B,c%22@d.com,X@y.com")
            );
            // An unterminated quote: no domain, nothing lower-cased.
            assert_eq!(n("mailto:%22a@B,C@D", form), None);
            // Before the quote, addresses are split as usual.
            assert_eq!(
                n("mailto:X@Y.COM,%22a@B,C@D", form).as_deref(),
                Some("mailto:X@y.com,%22a@B,C@D")
            );
            // A domain literal keeps its `,` (dtext) and is lower-cased whole.
            assert_eq!(
                n("mailto:a@%5BIPv6:A,B%5D,C@D.E", form).as_deref(),
                Some("mailto:a@%5Bipv6:a,b%5D,C@d.e")
            );
            // `%2C` is data, never a separator.
            assert_eq!(
                n("mailto:a%2CB@C.D", form).as_deref(),
                Some("mailto:a%2CB@c.d")
            );
        }
    }

    /// The class, against an independent walk of the grammar on every
    /// sequence of up to 5 tokens: the addresses are split only at literal
    /// `,` outside quoted-strings and domain literals, and exactly the
    /// domains (after the last top-level `@` of each address) are
    /// lower-cased; local parts are never touched.
    #[test]
    fn only_domains_change() {
        let tokens = ["a", "B", ",", "@", "%22", "%5C", "%5B", "%5D", "%2C"];
        let mut stack: Vec<Vec<&str>> = vec![vec![]];
        while let Some(seq) = stack.pop() {
            if seq.len() < 5 {
                for t in tokens {
                    let mut next = seq.clone();
                    next.push(t);
                    stack.push(next);
                }
            }
            // The model: per token, whether it is in a domain.
            let (mut state, mut escaped) = (' ', false);
            let mut addrs: Vec<Vec<(&str, bool)>> = vec![vec![]];
            for &t in &seq {
                let top = state == ' ';
                match (state, t) {
                    _ if escaped => escaped = false,
                    ('"', "%5C") => escaped = true,
                    ('"', "%22") | ('[', "%5D") => state = ' ',
                    (' ', "%22") => state = '"',
                    (' ', "%5B") => state = '[',
                    _ => {}
                }
                if top && t == "," {
                    addrs.push(vec![]);
                    continue;
                }
                addrs.last_mut().unwrap().push((t, top && t == "@"));
            }
            let mut want = String::new();
            for (k, a) in addrs.iter().enumerate() {
                if k > 0 {
                    want.push(',');
                }
                let last_at = a.iter().rposition(|&(_, at)| at);
                for (i, &(t, _)) in a.iter().enumerate() {
                    let domain = last_at.is_some_and(|p| i > p);
                    want.push_str(&if domain {
                        t.to_ascii_lowercase()
                    } else {
                        t.to_owned()
                    });
                }
            }
            let s: String = seq.concat();
            let got = n(&format!("mailto:{s}"), Form::Uri).unwrap_or_else(|| format!("mailto:{s}"));
            // Triplets keep their case (`%5B`); letters in domains do not.
            let want = format!(
                "mailto:{}",
                want.replace("%5b", "%5B")
                    .replace("%5d", "%5D")
                    .replace("%5c", "%5C")
                    .replace("%2c", "%2C")
            );
            assert_eq!(got, want, "{s:?}");
        }
    }
}
