//! Rung 3 over arbitrary evidence: the input is lines; all but the last two
//! are observations `url<TAB>status<TAB>target`, the last two are URLs. The
//! classifier and the chains never panic; rung 3 is idempotent, monotone over
//! rung 2, equal to rung 2 without evidence, and a chain never exceeds the hop
//! limit (LADDER.md "Rung 3"; docs/evidence.md).

#![no_main]

use irinorm::ladder::{Normalizer, Options};
use irinorm::protocol::{
    classify, MemoryEvidence, Protocol, ProtocolOptions, RawObservation, RedirectPolicy, Stop,
    MAX_HOPS,
};
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
