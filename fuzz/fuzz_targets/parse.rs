//! Parser: never panics on any bytes under any grammar; errors point inside
//! the input; every successful parse recomposes to the input, re-parses to
//! the same structure and matches the RFC 3986 Appendix B split; the
//! trusted splitter agrees on IRI-references; the grammar inclusions hold;
//! the wide scanner of already-normal references changes nothing:
//! `parse` equals `parse_full` (the table-driven parser alone), `Meta`
//! and errors, under every grammar (issue 14), also where `parse` goes
//! on from where the scanner stopped; and `parse_full`, whose path, query
//! and fragment loops run on the SIMD kernels, equals `parse_table`, the
//! same parser with its own table loops (issue 14, round 4).
#![no_main]

use irinorm::parse::{parse_full, parse_table};
use irinorm::{parse, parse_bytes, split_trusted, Components, Grammar};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/irinorm/tests/support/model.rs"]
#[allow(dead_code)]
mod model;

fuzz_target!(|data: &[u8]| {
    for g in Grammar::ALL {
        if let Err(e) = parse_bytes(data, g) {
            assert!(e.offset() <= data.len(), "{g}: {e:?}");
        }
    }
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let mut ok = [false; 8];
    for (k, g) in Grammar::ALL.into_iter().enumerate() {
        assert_eq!(parse(s, g), parse_full(s, g), "{g}: the fast path differs");
        assert_eq!(parse_full(s, g), parse_table(s, g), "{g}: the wide loops differ");
        match parse(s, g) {
            Err(e) => {
                assert!(
                    e.offset() <= s.len() && s.is_char_boundary(e.offset()),
                    "{g}: {e:?}"
                );
                assert_eq!(parse_bytes(data, g), Err(e));
            }
            Ok(m) => {
                ok[k] = true;
                let c = Components::of(s, &m);
                let mut r = String::new();
                c.recompose(&mut r);
                assert_eq!(r, s, "{g}");
                assert!(parse(&r, g).unwrap().same_structure(&m));
                let b = model::split(s);
                assert_eq!(c.scheme, b.scheme.as_deref());
                assert_eq!(c.authority, b.authority.as_deref());
                assert_eq!(c.path, b.path);
                assert_eq!(c.query, b.query.as_deref());
                assert_eq!(c.fragment, b.fragment.as_deref());
                if let Some(a) = b.authority.as_deref() {
                    let (ui, h, p) = model::split_authority(a);
                    assert_eq!((c.userinfo, c.host, c.port), (ui, Some(h), p));
                    let is_v4 = c.host_kind == Some(irinorm::HostKind::Ipv4);
                    assert_eq!(is_v4, model::is_ipv4address(h), "{h:?}");
                }
            }
        }
    }
    let [uri, uri_ref, abs_uri, rel, iri, iri_ref, abs_iri, irel] = ok;
    let no_frag = !s.contains('#');
    assert_eq!(uri_ref, uri || rel);
    assert_eq!(iri_ref, iri || irel);
    assert!(!(uri && rel) && !(iri && irel));
    assert_eq!(abs_uri, uri && no_frag);
    assert_eq!(abs_iri, iri && no_frag);
    assert_eq!(uri, iri && s.is_ascii());
    assert_eq!(uri_ref, iri_ref && s.is_ascii());
    assert_eq!(abs_uri, abs_iri && s.is_ascii());
    assert_eq!(rel, irel && s.is_ascii());
    if iri_ref {
        let m = parse(s, Grammar::IriReference).unwrap();
        assert!(m.same_structure(&split_trusted(s)));
    }
});
