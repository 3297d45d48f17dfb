//! Unit tests of rung 3: the conventional-redirect classifier (every
//! convention, alone and combined, and the moves that are not), chains,
//! cycles, the hop limit, latest-wins and host-level conventions.

use super::*;

fn c(from: &str, to: &str) -> Option<String> {
    classify(from, to).map(|c| c.to_string())
}

#[test]
fn classify_each_convention() {
    let cases = [
        (
            "http://a.example/data",
            "http://a.example/data/",
            "slash-added",
        ),
        (
            "http://a.example/data/",
            "http://a.example/data",
            "slash-removed",
        ),
        ("http://a.example/x", "https://a.example/x", "https-upgrade"),
        ("http://a.example/x", "http://www.a.example/x", "www-added"),
        (
            "http://www.a.example/x",
            "http://a.example/x",
            "www-removed",
        ),
        (
            "http://a.example/Data/X",
            "http://a.example/data/x",
            "path-case",
        ),
        (
            "http://a.example/d/index.html",
            "http://a.example/d/",
            "directory-index",
        ),
        (
            "http://a.example/d/",
            "http://a.example/d/index.php",
            "directory-index",
        ),
        (
            "http://a.example/default.aspx",
            "http://a.example/",
            "directory-index",
        ),
        (
            "http://a.example/a?sid=1&id=2",
            "http://a.example/a?id=2",
            "query-dropped",
        ),
        (
            "http://a.example/a?x=1&sid=9&y=2",
            "http://a.example/a?x=1&y=2",
            "query-dropped",
        ),
    ];
    for (f, t, want) in cases {
        assert_eq!(c(f, t).as_deref(), Some(want), "{f} -> {t}");
    }
}

#[test]
fn classify_combinations() {
    assert_eq!(
        c("http://a.example/x", "https://www.a.example/x/").as_deref(),
        Some("https-upgrade+www-added+slash-added")
    );
    assert_eq!(
        c("http://a.example/Data", "http://a.example/data/").as_deref(),
        Some("slash-added+path-case")
    );
    assert_eq!(
        c(
            "http://www.a.example/D/Index.HTML?s=1&k=2",
            "https://a.example/d/?k=2"
        )
        .as_deref(),
        Some("https-upgrade+www-removed+path-case+directory-index+query-dropped")
    );
}

#[test]
fn classify_moves_and_non_conventions() {
    let none = [
        // same key: no difference to explain
        ("http://a.example/x", "http://a.example/x"),
        ("http://a.example/x#f", "http://a.example/x"),
        // another path, the home page, a login page
        ("http://a.example/old", "http://a.example/new"),
        ("http://a.example/deep/page", "http://a.example/"),
        (
            "http://a.example/private",
            "http://a.example/login?next=/private",
        ),
        // downgrade, other scheme, other host, other port, userinfo
        ("https://a.example/x", "http://a.example/x"),
        ("http://a.example/x", "ftp://a.example/x"),
        ("http://a.example/x", "http://b.example/x"),
        ("http://a.example/x", "http://www2.a.example/x"),
        ("http://a.example/x", "http://a.example:8080/x"),
        ("http://u@a.example/x", "http://a.example/x"),
        // two slashes, an index name not in the list, a non-index file
        ("http://a.example/d", "http://a.example/d//"),
        ("http://a.example/d/home.html", "http://a.example/d/"),
        ("http://a.example/d/index.html", "http://a.example/e/"),
        // query: parameters added, reordered, changed
        ("http://a.example/a?id=2", "http://a.example/a?id=2&x=1"),
        ("http://a.example/a?a=1&b=2", "http://a.example/a?b=2&a=1"),
        ("http://a.example/a?id=2", "http://a.example/a?id=3"),
        ("http://a.example/a", "http://a.example/a?id=3"),
        // no authority
        ("mailto:a@example.com", "mailto:A@example.com"),
        ("urn:isbn:1", "urn:isbn:1/"),
    ];
    for (f, t) in none {
        assert_eq!(c(f, t), None, "{f} -> {t}");
    }
}

#[test]
fn apply_conventions() {
    let k = "http://a.example/p?q=1";
    assert_eq!(
        apply_convention(k, Conventions::HTTPS_UPGRADE).as_deref(),
        Some("https://a.example/p?q=1")
    );
    assert_eq!(
        apply_convention(k, Conventions::WWW_ADDED).as_deref(),
        Some("http://www.a.example/p?q=1")
    );
    assert_eq!(apply_convention(k, Conventions::WWW_REMOVED), None);
    assert_eq!(
        apply_convention("http://u@www.a.example:81/p", Conventions::WWW_REMOVED).as_deref(),
        Some("http://u@a.example:81/p")
    );
    assert_eq!(
        apply_convention(k, Conventions::SLASH_ADDED).as_deref(),
        Some("http://a.example/p/?q=1")
    );
    assert_eq!(
        apply_convention("http://a.example/p/", Conventions::SLASH_ADDED),
        None
    );
    assert_eq!(
        apply_convention("https://a.example/p", Conventions::HTTPS_UPGRADE),
        None
    );
}

#[test]
fn origins() {
    assert_eq!(
        origin("http://a.example:81/p?q#f"),
        Some("http://a.example:81")
    );
    assert_eq!(origin("mailto:x@y"), None);
}

fn proto(obs: Vec<RawObservation>, opts: ProtocolOptions) -> Protocol<BuiltEvidence> {
    let mut m = MemoryEvidence::default();
    for o in obs {
        m.add(o);
    }
    Protocol::new(Options::default(), m.build(), opts)
}

#[test]
fn without_evidence_rung3_is_rung2() {
    let p = proto(vec![], ProtocolOptions::default());
    for s in [
        "HTTP://A.example:80/%7ex/./y#Frag",
        "mailto:A@B.example",
        "urn:ISBN:1?+r",
    ] {
        let n2 = Normalizer::default();
        assert_eq!(p.normalize(s).unwrap(), n2.normalize(s).unwrap());
        assert_eq!(p.key(s).unwrap(), n2.key(s).unwrap());
    }
}

#[test]
fn conventional_permanent_redirect_is_an_edge_and_keeps_the_fragment() {
    let p = proto(
        vec![RawObservation::redirect(
            "http://a.example/data",
            301,
            "/data/",
        )],
        ProtocolOptions::default(),
    );
    assert_eq!(
        p.normalize("http://A.example/data#x").unwrap(),
        "http://a.example/data/#x"
    );
    let ch = p.chain("http://a.example/data").unwrap();
    assert_eq!(ch.hops.len(), 1);
    assert_eq!(ch.hops[0].conventions, Some(Conventions::SLASH_ADDED));
    assert!(matches!(
        p.compare("http://a.example/data", "http://a.example/data/")
            .unwrap(),
        Verdict::Protocol(_)
    ));
}

#[test]
fn policies() {
    let obs = || {
        vec![
            RawObservation::redirect("http://a.example/old", 301, "/new"),
            RawObservation::redirect("http://a.example/t", 302, "/t/"),
            RawObservation::redirect("http://a.example/p", 308, "/p/"),
        ]
    };
    let under = |redirects| {
        let p = proto(
            obs(),
            ProtocolOptions {
                redirects,
                min_host_support: 0,
            },
        );
        [
            "http://a.example/old",
            "http://a.example/t",
            "http://a.example/p",
        ]
        .map(|u| p.normalize(u).unwrap())
    };
    assert_eq!(
        under(RedirectPolicy::Conventional),
        [
            "http://a.example/old",
            "http://a.example/t",
            "http://a.example/p/"
        ]
    );
    assert_eq!(
        under(RedirectPolicy::Permanent),
        [
            "http://a.example/new",
            "http://a.example/t",
            "http://a.example/p/"
        ]
    );
    assert_eq!(
        under(RedirectPolicy::All),
        [
            "http://a.example/new",
            "http://a.example/t/",
            "http://a.example/p/"
        ]
    );
}

#[test]
fn unknown_target_decides_nothing() {
    let mut o = RawObservation::status("http://a.example/x", 301).at("20200101000000");
    o.target = None;
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "/x/").at("20190101000000"),
            o,
        ],
        ProtocolOptions::default(),
    );
    // The later redirect without a target is ignored: the earlier decides.
    assert_eq!(
        p.normalize("http://a.example/x").unwrap(),
        "http://a.example/x/"
    );
}

#[test]
fn latest_observation_wins_and_disagreement_is_reported() {
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "/x/").at("20190101000000"),
            RawObservation::status("http://a.example/x", 200).at("20200101000000"),
        ],
        ProtocolOptions::default(),
    );
    let ch = p.chain("http://a.example/x").unwrap();
    assert_eq!(ch.end, "http://a.example/x");
    let last = ch.last.unwrap();
    assert_eq!(last.status, 200);
    assert_eq!(last.disagreements.len(), 1);
    assert!(last.disagreements[0].starts_with("301 -> http://a.example/x/"));
    // The other order of times: the redirect is the latest.
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "/x/").at("20210101000000"),
            RawObservation::status("http://a.example/x", 200).at("20200101000000"),
        ],
        ProtocolOptions::default(),
    );
    assert_eq!(
        p.normalize("http://a.example/x").unwrap(),
        "http://a.example/x/"
    );
}

#[test]
fn chains_are_followed_to_the_end() {
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "https://a.example/x"),
            RawObservation::redirect("https://a.example/x", 301, "https://www.a.example/x"),
            RawObservation::redirect("https://www.a.example/x", 308, "/x/"),
            RawObservation::status("https://www.a.example/x/", 200),
        ],
        ProtocolOptions::default(),
    );
    let ch = p.chain("http://a.example/x").unwrap();
    assert_eq!(ch.hops.len(), 3);
    assert_eq!(ch.stop, Stop::End);
    assert_eq!(ch.end, "https://www.a.example/x/");
}

#[test]
fn cycles_end_at_their_smallest_key() {
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "/x/"),
            RawObservation::redirect("http://a.example/x/", 301, "/x"),
            RawObservation::redirect("http://a.example/y", 301, "/x"),
        ],
        ProtocolOptions {
            redirects: RedirectPolicy::Permanent,
            min_host_support: 3,
        },
    );
    for s in [
        "http://a.example/x",
        "http://a.example/x/",
        "http://a.example/y",
    ] {
        let ch = p.chain(s).unwrap();
        assert_eq!(ch.end, "http://a.example/x", "{s}");
        // The normal form and the key follow the chain on their own path
        // (keys only): the same end.
        assert_eq!(p.normalize(s).unwrap(), "http://a.example/x", "{s}");
        assert_eq!(p.key(s).unwrap(), "http://a.example/x", "{s}");
    }
    assert_eq!(p.chain("http://a.example/x/").unwrap().stop, Stop::Cycle);
}

#[test]
fn too_long_chains_decide_nothing() {
    let mut obs = Vec::new();
    for i in 0..=MAX_HOPS {
        obs.push(RawObservation::redirect(
            &format!("http://a.example/{i}"),
            301,
            &format!("/{}", i + 1),
        ));
    }
    let opts = ProtocolOptions {
        redirects: RedirectPolicy::Permanent,
        min_host_support: 0,
    };
    let p = proto(obs, opts);
    // 21 hops from /0: left at rung 2. 20 hops from /1: followed.
    let ch = p.chain("http://a.example/0").unwrap();
    assert_eq!(ch.stop, Stop::TooLong);
    assert_eq!(ch.end, "http://a.example/0");
    assert_eq!(
        p.normalize("http://a.example/0#f").unwrap(),
        "http://a.example/0#f"
    );
    assert_eq!(p.key("http://a.example/0").unwrap(), "http://a.example/0");
    assert_eq!(
        p.normalize("http://a.example/1").unwrap(),
        "http://a.example/21"
    );
}

#[test]
fn host_conventions_need_support_and_no_contradiction() {
    let up = |p: &str| {
        RawObservation::redirect(
            &format!("http://h.example/{p}"),
            301,
            &format!("https://h.example/{p}"),
        )
    };
    let p = proto(vec![up("a"), up("b")], ProtocolOptions::default());
    assert_eq!(
        p.normalize("http://h.example/unseen").unwrap(),
        "http://h.example/unseen"
    );
    let p = proto(vec![up("a"), up("b"), up("c")], ProtocolOptions::default());
    let ch = p.chain("http://h.example/unseen").unwrap();
    assert_eq!(ch.end, "https://h.example/unseen");
    match &ch.hops[0].kind {
        HopKind::Inferred(v) => {
            assert_eq!(v[0].convention, Conventions::HTTPS_UPGRADE);
            assert_eq!(v[0].support, 3);
        }
        k => panic!("{k:?}"),
    }
    // Support N=4 asked: not enough.
    let p4 = proto(
        vec![up("a"), up("b"), up("c")],
        ProtocolOptions {
            min_host_support: 4,
            ..Default::default()
        },
    );
    assert_eq!(
        p4.normalize("http://h.example/u").unwrap(),
        "http://h.example/u"
    );
    // One URL served over http contradicts it.
    let p = proto(
        vec![
            up("a"),
            up("b"),
            up("c"),
            RawObservation::status("http://h.example/d", 200),
        ],
        ProtocolOptions::default(),
    );
    assert_eq!(
        p.normalize("http://h.example/unseen").unwrap(),
        "http://h.example/unseen"
    );
    // Other hosts are not affected.
    let p = proto(vec![up("a"), up("b"), up("c")], ProtocolOptions::default());
    assert_eq!(
        p.normalize("http://other.example/u").unwrap(),
        "http://other.example/u"
    );
}

#[test]
fn host_conventions_compose_in_a_fixed_order() {
    let mut obs = Vec::new();
    for p in ["a", "b", "c"] {
        obs.push(RawObservation::redirect(
            &format!("http://h.example/{p}"),
            301,
            &format!("https://www.h.example/{p}"),
        ));
    }
    let p = proto(obs, ProtocolOptions::default());
    let ch = p.chain("http://h.example/new").unwrap();
    assert_eq!(ch.end, "https://www.h.example/new");
    assert_eq!(ch.hops.len(), 1);
}

/// Round 11: with `nfc`, a chain ends at a key of the caller's rung 2, not
/// at the stored evidence key (LADDER.md "Rung 3", invariant 1). NFC
/// composes `e` + U+0301 to U+00E9, percent-encoded `%C3%A9` in `uri` form.
#[test]
fn chains_end_at_keys_of_the_callers_options() {
    let mut ev = MemoryEvidence::default();
    ev.add(RawObservation::redirect(
        "http://h.example/x",
        301,
        "http://h.example/e\u{301}",
    ));
    let popts = ProtocolOptions {
        redirects: RedirectPolicy::Permanent,
        ..ProtocolOptions::default()
    };
    let nfc = Options {
        char_norm: CharNorm::Nfc,
        ..Options::default()
    };
    let p = Protocol::new(nfc.clone(), ev.build(), popts);
    let once = p.normalize("http://h.example/x").unwrap();
    assert_eq!(once, "http://h.example/%C3%A9");
    assert_eq!(p.normalize(&once).unwrap(), once);
    assert_eq!(p.chain("http://h.example/x").unwrap().end, once);
    // The iri form writes the same key readably.
    let pi = Protocol::new(
        Options {
            form: Form::Iri,
            ..nfc
        },
        ev.build(),
        popts,
    );
    assert_eq!(
        pi.normalize("http://h.example/x").unwrap(),
        "http://h.example/é"
    );
    // Without `nfc` the stored key is the caller's key.
    let p0 = Protocol::new(Options::default(), ev.build(), popts);
    assert_eq!(
        p0.normalize("http://h.example/x").unwrap(),
        "http://h.example/e%CC%81"
    );
}

/// Round 11: a caller's registry making 8080 http's default port (RFC 3986
/// §6.2.3: a default port is omitted) makes `http://h.example:8080/x/` the
/// key `http://h.example/x/`, a trailing slash added to the source: a
/// conventional edge, and the chain ends at that key, not at the stored
/// one with its port.
#[test]
fn a_callers_default_port_is_removed_from_targets() {
    let mut ev = MemoryEvidence::default();
    ev.add(RawObservation::redirect(
        "http://h.example/x",
        301,
        "http://h.example:8080/x/",
    ));
    let mut schemes = crate::scheme::SchemeRegistry::builtin();
    schemes.insert(
        "http",
        crate::scheme::SchemeInfo {
            default_port: Some(8080),
            ..*crate::scheme::SchemeRegistry::builtin()
                .get("http")
                .unwrap()
        },
    );
    let opts = Options {
        schemes,
        ..Options::default()
    };
    let p = Protocol::new(opts, ev.build(), ProtocolOptions::default());
    let once = p.normalize("http://h.example/x").unwrap();
    assert_eq!(once, "http://h.example/x/");
    assert_eq!(p.normalize(&once).unwrap(), once);
    // With the built-in registry the port differs: a move, no edge.
    let p0 = Protocol::new(Options::default(), ev.build(), ProtocolOptions::default());
    assert_eq!(
        p0.normalize("http://h.example/x").unwrap(),
        "http://h.example/x"
    );
}

/// Round 18: rung 2 compares a URN without its r- and q-components (RFC
/// 8141 §3.1), so evidence about `urn:example:a` is evidence about
/// `urn:example:a?=q` (invariant 3, monotone), whichever of the two the
/// record names; `compare` and the keys agree. Before, the store was keyed
/// by the normal form (`urn:example:a?=q`) and the chain started there:
/// `compare` said `equivalent (scheme)` for `urn:example:a?=q` and
/// `urn:example:a` and `different` for `urn:example:a?=q` and
/// `urn:example:b`, which `urn:example:a` redirects to.
#[test]
fn a_urns_r_and_q_components_do_not_split_its_chain() {
    let permanent = ProtocolOptions {
        redirects: RedirectPolicy::Permanent,
        min_host_support: 3,
    };
    for source in ["urn:example:a", "urn:example:a?+r", "URN:Example:a?=q"] {
        let p = proto(
            vec![RawObservation::redirect(source, 301, "urn:example:b")],
            permanent,
        );
        for s in ["urn:example:a", "urn:example:a?=q", "urn:EXAMPLE:a?+r?=q#f"] {
            assert_eq!(p.key(s).unwrap(), "urn:example:b", "{s} ({source})");
            assert_eq!(p.chain(s).unwrap().end, "urn:example:b", "{s} ({source})");
            assert!(
                !matches!(
                    p.compare(s, "urn:example:b").unwrap(),
                    Verdict::Different(_)
                ),
                "{s} ({source})"
            );
        }
        // An edge followed: the end is a key; the components went with the
        // name (the f-component stays on a URN end, whose key leaves it out).
        assert_eq!(p.normalize("urn:example:a?=q").unwrap(), "urn:example:b");
        assert_eq!(
            p.normalize("urn:example:a?+r#f").unwrap(),
            "urn:example:b#f"
        );
        // No edge: rung 2, components kept.
        assert_eq!(p.normalize("urn:example:c?=q").unwrap(), "urn:example:c?=q");
        assert_eq!(p.key("urn:example:c?=q").unwrap(), "urn:example:c");
    }
    // The store's key of a URN is its comparison key.
    assert_eq!(
        evidence_key("urn:Example:a?+r?=q#f").unwrap(),
        "urn:example:a"
    );
    assert_eq!(
        evidence_key("http://a.example/?=q#f").unwrap(),
        "http://a.example/?=q"
    );
}

/// Round 18: a URN's f-component, which rung 2 compares without (RFC 8141
/// §3.1), is not inherited by the end of its chain when that end's key
/// holds its fragment: `urn:example:b#f` and `urn:example:b` are one name
/// at rung 2 and must stay one at rung 3 (invariant 3). A URN end keeps
/// an inherited fragment (its key leaves it out), so that a URN that ends
/// a cycle gives the same text on the next pass (invariant 1).
#[test]
fn a_urns_fragment_is_not_inherited_by_a_url() {
    let permanent = ProtocolOptions {
        redirects: RedirectPolicy::Permanent,
        min_host_support: 3,
    };
    let p = proto(
        vec![RawObservation::redirect(
            "urn:example:b",
            301,
            "http://a.example/",
        )],
        permanent,
    );
    assert_eq!(p.normalize("urn:example:b#f").unwrap(), "http://a.example/");
    assert_eq!(
        p.key("urn:example:b#f").unwrap(),
        p.key("urn:example:b").unwrap()
    );
    // A URL's fragment is inherited (RFC 9110 §10.2.2), by a URL or a URN.
    let p = proto(
        vec![
            RawObservation::redirect("http://a.example/x", 301, "urn:example:a"),
            RawObservation::redirect("urn:example:a", 301, "urn:example:c"),
            RawObservation::redirect("urn:example:c", 301, "urn:example:a"),
        ],
        permanent,
    );
    let once = p.normalize("http://a.example/x#f").unwrap();
    assert_eq!(once, "urn:example:a#f");
    assert_eq!(p.normalize(&once).unwrap(), once);
    assert_eq!(
        p.key(&once).unwrap(),
        p.key("http://a.example/x#f").unwrap()
    );
}
