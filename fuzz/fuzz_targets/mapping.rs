//! IRI <-> URI mapping (RFC 3987 §3.1, §3.2). For an IRI-reference: the
//! URI is the input with non-ASCII percent-encoded, a URI-reference with
//! the same components; the mapping is idempotent and the identity on URIs.
//! For a URI-reference: the IRI is an IRI-reference with the same
//! components, equal to the model of §3.2 up to hex case, and maps back to
//! the URI up to hex case and unreserved triplets. For any input that
//! `iri_to_uri` accepts, the output is a URI-reference.
#![no_main]

use irinorm::{iri_to_uri, parse, uri_to_iri, Components, Grammar, HostKind};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/irinorm/tests/support/model.rs"]
#[allow(dead_code)]
mod model;

fn presence(c: &Components<'_>) -> [bool; 6] {
    [
        c.scheme.is_some(),
        c.authority.is_some(),
        c.userinfo.is_some(),
        c.port.is_some(),
        c.query.is_some(),
        c.fragment.is_some(),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(u) = iri_to_uri(s) {
        assert!(parse(&u, Grammar::UriReference).is_ok(), "{s:?} -> {u:?}");
    }
    if let Ok(m) = parse(s, Grammar::IriReference) {
        let u = iri_to_uri(s).expect("every IRI-reference maps");
        assert_eq!(u, model::encode_non_ascii(s));
        let um = parse(&u, Grammar::UriReference).expect("a URI-reference");
        let (ci, cu) = (Components::of(s, &m), Components::of(&u, &um));
        assert_eq!(presence(&ci), presence(&cu));
        assert_eq!(ci.host_kind, cu.host_kind);
        assert_eq!(iri_to_uri(&u).unwrap(), u, "idempotent");
        if s.is_ascii() {
            assert_eq!(u, s, "identity on URIs");
        }
    }
    if let Ok(m) = parse(s, Grammar::UriReference) {
        let i = uri_to_iri(s).expect("every URI-reference converts");
        let im = parse(&i, Grammar::IriReference).expect("an IRI-reference");
        let (cu, ci) = (Components::of(s, &m), Components::of(&i, &im));
        assert_eq!(presence(&cu), presence(&ci));
        // Decoding an unreserved triplet may turn a reg-name into an IPv4
        // address (`1.255%2e5.215`, RFC 3987 §3.2 step 2); otherwise the
        // host kind stays.
        let kind = match (cu.host, cu.host_kind) {
            (Some(h), Some(HostKind::RegName)) if model::is_ipv4address(&model::canon_pct(h)) => {
                Some(HostKind::Ipv4)
            }
            (_, k) => k,
        };
        assert_eq!(kind, ci.host_kind, "{s:?} -> {i:?}");
        assert_eq!(
            model::canon_pct(&i),
            model::canon_pct(&model::uri_to_iri(s)),
            "{s:?}"
        );
        let back = iri_to_uri(&i).expect("maps back");
        assert_eq!(
            model::canon_pct(&back),
            model::canon_pct(s),
            "{s:?} -> {i:?}"
        );
        assert!(!i.chars().any(|c| model::is_bidi_format(c as u32)), "{i:?}");
    }
});
