//! Round 16 (docs/testing.md): the fast answers of rounds 12-15 crossed
//! with LADDER.md's invariants "for every rung, form, preset and option".
//!
//! The generator builds near-normal `http(s)` URLs aimed at the edges of
//! the already-normal shortcut (`fast_hot`), the repair after a scanned
//! authority (`Fast::Repair`: `push_repaired`, `push_repaired_tail`,
//! `write_tail`) and the wide scanner: triplets (upper, lower, unreserved,
//! reserved, UTF-8, lone bytes) at every component boundary, dot segments
//! (`.`, `..`, `%2E`, `%2e.`, `.%2E`), non-ASCII and a bidi control in the
//! path, query and fragment, upper-case schemes and hosts, default,
//! non-default, empty and zero-padded ports, userinfo, IPv4 and IPv6
//! hosts, `%` in the host, and a filler segment that puts the length
//! around the scanner's 16-, 32-, 64- and 128-byte windows. Each is run
//! under the options a caller sets (`nfc`, `nfkc`, `ignore_fragment`, the
//! conformance IDNA profile, a scheme registry where 8080 is http's
//! default port or where http is unknown), in both forms, without rules,
//! under the presets `rfc`, `crawler` and `aggressive`, and under
//! `force-http`:
//!
//! 1. idempotent: N(N(x)) == N(x);
//! 5. forms agree: N_uri(N_iri(x)) == N_uri(x), and the ladder's mapping
//!    alone gives the same (the rules run again would hide an order);
//! 6. never decoded: a reserved triplet (and `%25`, `%C0%AF`) planted in
//!    the userinfo, path, query or fragment comes out as the same marker
//!    planted there does, upper-cased (no rules, `rfc`);
//! 3. monotone: the keys at each rung of `x` and a respelling of it are
//!    equal from the rung `compare` names on;
//! 7. the entry points agree: `normalize`, `normalize_into`,
//!    `normalize_text_into`, `normalize_text_only` (the CLI's per-line
//!    path), `key` (the `uri`-form text) and `digest` (the key's).
//!
//! `prop_presets.rs` checks the presets on URLs of the rules' pieces with
//! the default options; `prop_fast_path.rs` the shortcut against the
//! full computation with the default options (debug builds also check
//! every fast answer against `write_normal`, which `write_tail` shares:
//! only the invariants can find a defect of the shared half).
//!
//! Case counts: `PROPTEST_CASES / 4`, at least 64 (each case runs 35
//! pipelines in both forms).

#[path = "support/fast_edges.rs"]
mod fast_edges;

use fast_edges::{options, url, Variant, VARIANTS};
use irinorm::ladder::{Form, Key, Normalizer, Options, Rung};
use irinorm_rules::{Config, Pipeline, Preset, RuleSet};
use proptest::prelude::*;
use proptest::sample::select;

/// No rules (the ladder through the pipeline: the CLI's default), a
/// preset, or `force-http` (the one scheme switch no preset has).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rules {
    None,
    Preset(Preset),
    ForceHttp,
}

const PRESETS: [Rules; 5] = [
    Rules::None,
    Rules::Preset(Preset::Rfc),
    Rules::Preset(Preset::Crawler),
    Rules::Preset(Preset::Aggressive),
    Rules::ForceHttp,
];

fn pipeline(p: Rules, v: Variant, form: Form) -> Pipeline {
    let mut o = options(v, form);
    let rules = match p {
        Rules::None => RuleSet::default(),
        Rules::Preset(p) => {
            o.rung = p.rung();
            p.rule_set()
        }
        Rules::ForceHttp => RuleSet::parse_list("force-http").unwrap(),
    };
    Pipeline::new(Normalizer::new(o), rules, Config::default())
}

/// Every pipeline, built once per process (the query tables are dear).
fn pipelines() -> &'static Vec<(Rules, Variant, [Pipeline; 2])> {
    static P: std::sync::OnceLock<Vec<(Rules, Variant, [Pipeline; 2])>> =
        std::sync::OnceLock::new();
    P.get_or_init(|| {
        let mut all = Vec::new();
        for p in PRESETS {
            for v in VARIANTS {
                all.push((p, v, [Form::Uri, Form::Iri].map(|f| pipeline(p, v, f))));
            }
        }
        all
    })
}

fn n(p: &Pipeline, x: &str) -> Option<String> {
    p.normalize(x).ok().map(|o| o.text.into_owned())
}

/// Every entry point gives the same text, or all refuse.
fn entry_points_agree(p: &Pipeline, x: &str, form: Form) -> Result<(), TestCaseError> {
    let one = n(p, x);
    let mut out = String::from("<");
    let into = p
        .normalize_into(x, &mut out, &mut Vec::new())
        .ok()
        .map(|_| out[1..].to_owned());
    let mut text = String::from("<");
    let text_into = p
        .normalize_text_into(x, &mut text, &mut Vec::new())
        .ok()
        .map(|_| text[1..].to_owned());
    let mut only = String::from("<");
    let text_only = p
        .normalize_text_only(x, &mut only)
        .ok()
        .map(|_| only[1..].to_owned());
    prop_assert_eq!(&into, &one, "normalize_into {:?}", x);
    prop_assert_eq!(&text_into, &one, "normalize_text_into {:?}", x);
    prop_assert_eq!(&text_only, &one, "normalize_text_only {:?}", x);
    if one.is_none() {
        prop_assert_eq!(only.as_str(), "<", "a refused line appends nothing");
    }
    if form == Form::Uri {
        prop_assert_eq!(p.key(x).ok(), one.clone(), "key {:?}", x);
        // The digest (dedupe's sets) is the key's: the ladder's key
        // borrowed, then the rules (`Pipeline::digest`).
        prop_assert_eq!(
            p.digest(x).ok(),
            one.as_deref().map(Key::of),
            "digest {:?}",
            x
        );
    }
    Ok(())
}

proptest! {
    // Each case runs 35 pipelines in both forms: a quarter of the count,
    // at least 64 (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(64.max(ProptestConfig::default().cases / 4)))]

    /// Invariants 1 and 5 and the entry points, for every preset, option
    /// and form.
    #[test]
    fn fast_edges_idempotent_forms_agree_entry_points(x in url()) {
        for (preset, v, [u, i]) in pipelines() {
            let ctx = format!("{preset:?} {v:?}");
            let (nu, ni) = (n(u, &x), n(i, &x));
            prop_assert_eq!(nu.is_some(), ni.is_some(), "{} {:?}: {:?} / {:?}", ctx, x, nu, ni);
            for (p, out, form) in [(u, &nu, Form::Uri), (i, &ni, Form::Iri)] {
                entry_points_agree(p, &x, form)
                    .map_err(|e| TestCaseError::fail(format!("{ctx} {form:?}: {e}")))?;
                if let Some(once) = out {
                    let twice = n(p, once);
                    prop_assert_eq!(twice.as_ref(), Some(once), "{} {:?} not idempotent on {:?}", ctx, form, x);
                    entry_points_agree(p, once, form)
                        .map_err(|e| TestCaseError::fail(format!("{ctx} {form:?} on N(x): {e}")))?;
                }
            }
            let (Some(nu), Some(ni)) = (nu, ni) else { continue };
            prop_assert_eq!(n(u, &ni), Some(nu.clone()), "{} {:?}: iri form {:?}", ctx, x, ni);
            // The ladder's mapping alone (round 11: the rules run again
            // would put their order back and hide a difference).
            let ladder = Normalizer::new(options(*v, Form::Uri));
            let mapped = ladder.normalize(&ni).map(|c| c.into_owned()).ok();
            prop_assert_eq!(mapped, Some(nu), "{} {:?}: iri form {:?} mapped", ctx, x, ni);
        }
    }

    /// Invariant 6: a reserved triplet planted in a component comes out as
    /// a marker planted there does, upper-cased, at every option and form
    /// (no rules, `rfc`, `force-http`: the others may sort or drop what
/// holds it).
    #[test]
    fn fast_edges_never_decode(
        x in url(),
        slot in 0usize..4,
        t in select(&["%2F", "%2f", "%3F", "%23", "%26", "%3D", "%3d", "%25", "%40", "%2B", "%3A", "%5B", "%C0%AF", "%c0%af"][..]),
    ) {
        const MARK: &str = "zqjz";
        let marked = plant(&x, slot, MARK);
        let planted = plant(&x, slot, t);
        let upper = format!("x{}x", t.to_ascii_uppercase());
        for (preset, v, both) in pipelines() {
            if matches!(preset, Rules::Preset(Preset::Crawler | Preset::Aggressive)) {
                continue;
            }
            for p in both {
                let (Some(out), Some(outm)) = (n(p, &planted), n(p, &marked)) else { continue };
                let want = outm.replace(&format!("x{MARK}x"), &upper);
                prop_assert_eq!(&out, &want, "{:?} {:?}: {:?} (marker: {:?})", preset, v, planted, marked);
            }
        }
    }
}

/// `x` spelled another way: what rungs 1 and 2 make equal (RFC 3986
/// §6.2.2, §6.2.3) or nothing does.
fn respell(x: &str, how: usize) -> String {
    let after = x.find("://").map_or(0, |i| i + 3);
    let auth_end = x[after..]
        .find(['/', '?', '#'])
        .map_or(x.len(), |i| after + i);
    match how {
        0 => x.to_ascii_uppercase(),
        1 => format!("{}{}", x[..after].to_ascii_uppercase(), &x[after..]),
        2 => format!("{}{}", x[..auth_end].to_ascii_uppercase(), &x[auth_end..]),
        3 => x.replace("%7e", "~").replace("%7E", "%7e"),
        4 => x.replace('~', "%7E").replace("%41", "A"),
        5 => format!("{}:{}", &x[..auth_end], &x[auth_end..]),
        6 => format!("{}:80{}", &x[..auth_end], &x[auth_end..]),
        7 => format!("{}:443{}", &x[..auth_end], &x[auth_end..]),
        8 => format!("{}/./a/..{}", &x[..auth_end], &x[auth_end..]),
        9 => x.replace("%C3%A9", "é").replace("%c3%a9", "%C3%A9"),
        10 => x.replace("é", "%C3%A9"),
        11 => x.split('#').next().unwrap_or(x).to_owned(),
        _ => x.replace('/', "%2F"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64.max(ProptestConfig::default().cases / 4)))]

    /// Invariant 3 and `compare` on the fast answers' edges: the keys at
    /// each rung (a key at a rung other than the normalizer's own takes
    /// the fast path with options it judges per call) are equal from the
    /// lowest rung `compare` names on, and not below it, under every
    /// option and from both forms.
    #[test]
    fn fast_edges_compare_is_monotone(x in url(), how in 0usize..13) {
        let y = respell(&x, how);
        for v in VARIANTS {
            for form in [Form::Uri, Form::Iri] {
                let own = Normalizer::new(options(v, form));
                let Ok(lowest) = own.compare(&x, &y) else { continue };
                let mut equal = false;
                for r in Rung::ALL {
                    let at = Normalizer::new(Options { rung: r, form: Form::Uri, ..options(v, form) });
                    let (kx, ky) = (at.key(&x).unwrap(), at.key(&y).unwrap());
                    prop_assert!(!equal || kx == ky, "{:?} {:?}: {:?} {:?} equal below {} ({} / {})", v, form, x, y, r, kx, ky);
                    if kx == ky && !equal {
                        prop_assert_eq!(lowest, Some(r), "{:?} {:?}: {:?} {:?}", v, form, x, y);
                    }
                    equal |= kx == ky;
                    // The own normalizer's key at its rung is that key.
                    if r == own.options().rung && form == Form::Uri {
                        prop_assert_eq!(own.key(&x).unwrap(), kx.clone());
                    }
                }
                if !equal {
                    prop_assert_eq!(lowest, None);
                }
            }
        }
    }
}

/// `x` with `xTx` put in the userinfo (0), at the end of the path (1), in
/// the query (2) or in the fragment (3).
fn plant(x: &str, slot: usize, t: &str) -> String {
    let piece = format!("x{t}x");
    let (rest, frag) = x.split_once('#').map_or((x, None), |(a, b)| (a, Some(b)));
    let (rest, query) = rest
        .split_once('?')
        .map_or((rest, None), |(a, b)| (a, Some(b)));
    let after = rest.find("://").map_or(0, |i| i + 3);
    let mut out = String::new();
    match slot {
        0 => {
            out.push_str(&rest[..after]);
            out.push_str(&piece);
            out.push('@');
            // One userinfo: the marker's replaces any other.
            let auth = &rest[after..];
            out.push_str(auth.split_once('@').map_or(auth, |(_, h)| h));
        }
        1 => {
            out.push_str(rest);
            out.push('/');
            out.push_str(&piece);
        }
        _ => out.push_str(rest),
    }
    if let Some(q) = query.or((slot == 2).then_some("")) {
        out.push('?');
        out.push_str(q);
        if slot == 2 {
            out.push_str("&k=");
            out.push_str(&piece);
        }
    }
    if let Some(f) = frag.or((slot == 3).then_some("")) {
        out.push('#');
        out.push_str(f);
        if slot == 3 {
            out.push_str(&piece);
        }
    }
    out
}
