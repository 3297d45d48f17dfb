//! Rung 3 over arbitrary evidence: the input is lines; all but the last two
//! are observations `url<TAB>status<TAB>target`, the last two are URLs. The
//! classifier and the chains never panic; rung 3 is idempotent, monotone over
//! rung 2, equal to rung 2 without evidence, and a chain never exceeds the hop
//! limit (LADDER.md "Rung 3"; docs/evidence.md). The same byte also picks
//! a preset whose rules run over rung 3 (`--rung protocol --preset`,
//! irinorm-rules `over_protocol.rs`): that normal form is idempotent, its key
//! is the key of its output, and URLs equal under the rules at rung 2 are
//! equal at rung 3 (docs/rules.md "Over rung 3").

#![no_main]

use irinorm::ladder::{Normalizer, Options};
use irinorm::protocol::{
    classify, MemoryEvidence, Protocol, ProtocolOptions, RawObservation, RedirectPolicy, Stop,
    MAX_HOPS,
};
use irinorm_rules::{Pipeline, Preset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let lines: Vec<&str> = text.split('\n').collect();
    if lines.len() < 2 {
        return;
    }
    let (obs, urls) = lines.split_at(lines.len() - 2);
    let mut m = MemoryEvidence::default();
    for (i, l) in obs.iter().enumerate() {
        let mut f = l.split('\t');
        let (Some(u), Some(s)) = (f.next(), f.next()) else {
            continue;
        };
        let Ok(status) = s.parse::<u16>() else {
            continue;
        };
        let mut o = match f.next() {
            Some(t) => RawObservation::redirect(u, status, t),
            None => RawObservation::status(u, status),
        };
        o.offset = i as u64;
        if let (Some(a), Some(b)) = (Some(u), o.target.as_deref()) {
            let _ = classify(a, b);
        }
        m.add(o);
    }
    let opts = ProtocolOptions {
        redirects: RedirectPolicy::ALL[(first % 3) as usize],
        min_host_support: u32::from(first >> 2) % 4,
    };
    let p = Protocol::new(Options::default(), m.build(), opts);
    let none = Protocol::new(Options::default(), MemoryEvidence::default().build(), opts);
    let n2 = Normalizer::default();
    let rules = Pipeline::preset(
        [
            Preset::Rfc,
            Preset::Fetch,
            Preset::Crawler,
            Preset::Aggressive,
        ][usize::from(first >> 4) % 4],
    );
    for u in urls {
        if let Ok(once) = rules.normalize_over_protocol(&p, u) {
            assert_eq!(
                rules
                    .normalize_over_protocol(&p, &once)
                    .expect("normal form parses"),
                once,
                "rules over rung 3 not idempotent: {u:?}"
            );
            assert_eq!(
                rules.key_over_protocol(&p, &once).unwrap(),
                rules.key_over_protocol(&p, u).unwrap(),
                "key of the normal form of {u:?}"
            );
        }
    }
    if let (Ok(ka), Ok(kb)) = (rules.key(urls[0]), rules.key(urls[1])) {
        if ka == kb {
            assert_eq!(
                rules.key_over_protocol(&p, urls[0]).unwrap(),
                rules.key_over_protocol(&p, urls[1]).unwrap(),
                "rules over rung 3 not monotone"
            );
        }
    }
    for u in urls {
        let Ok(once) = p.normalize(u) else {
            assert!(
                n2.normalize(u).is_err(),
                "rung 3 rejects what rung 2 accepts: {u:?}"
            );
            continue;
        };
        assert_eq!(
            p.normalize(&once).expect("normal form parses"),
            once,
            "not idempotent: {u:?}"
        );
        assert_eq!(
            none.normalize(u).unwrap(),
            n2.normalize(u).unwrap(),
            "{u:?}"
        );
        let ch = p.chain(u).unwrap();
        assert!(ch.hops.len() <= MAX_HOPS + 1);
        if ch.stop == Stop::TooLong {
            assert_eq!(ch.end, ch.start);
        }
    }
    if let (Ok(ka), Ok(kb)) = (n2.key(urls[0]), n2.key(urls[1])) {
        if ka == kb {
            assert_eq!(
                p.key(urls[0]).unwrap(),
                p.key(urls[1]).unwrap(),
                "not monotone"
            );
        }
    }
});
