//! `mailto` (RFC 6068): the domain of each address is case-insensitive
//! and, in `uri` form, written with A-labels (`iri` form: U-labels), like
//! any DNS name (RFC 6068 §5 allows both percent-encoded UTF-8 and A-labels
//! for IDNs); header field names are case-insensitive (RFC 5322 §1.2.2).
//! Local parts and header values are never touched: their case may matter.

use super::lower_outside_triplets;
use crate::idn::IdnaProfile;
use crate::norm::domain::{idn_convert, may_need_idn};
use crate::norm::{Form, Warning};
use crate::parse::split_trusted;

/// Rung 2 for a normalized `mailto` reference; `None` when nothing changes.
pub(crate) fn normalize(
    s: &str,
    form: Form,
    profile: &IdnaProfile,
    warnings: &mut Vec<Warning>,
) -> Option<String> {
    let m = split_trusted(s);
    if m.authority(s).is_some() {
        return None;
    }
    let path = m.path(s);
    let mut out = String::with_capacity(s.len());
    out.push_str(m.scheme(s)?);
    out.push(':');
    // to = addr-spec *("," addr-spec)  (RFC 6068 §2)
    for (k, addr) in path.split(',').enumerate() {
        if k > 0 {
            out.push(',');
        }
        match addr.rfind('@') {
            Some(at) if at + 1 < addr.len() => {
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

/// `domain = dot-atom-text / "[" *dtext-no-obs "]"` (RFC 6068 §2).
fn domain(d: &str, form: Form, profile: &IdnaProfile, warnings: &mut Vec<Warning>) -> String {
    let lower = lower_outside_triplets(d);
    if d.starts_with('[') || !may_need_idn(&lower, profile) {
        return lower;
    }
    match idn_convert(&lower, form, profile) {
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
}
