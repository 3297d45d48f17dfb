//! The rung-3 lookup file (`FILE.db.lookup`, irinorm-evidence `mapped.rs`)
//! from arbitrary bytes: the input is the file. The store stamp is taken
//! from the input's own header so that mutations get past the stamp check
//! into the sections and records. Opening and every lookup never panic
//! and never read out of bounds; a file refused at open is fine; answers
//! from a damaged file may be wrong (docs/evidence.md, "Lookups": no
//! checksum), but rung 3 over them still terminates.

#![no_main]

use irinorm::ladder::Options;
use irinorm::protocol::{origin, Evidence, Protocol, ProtocolOptions};
use irinorm_evidence::{MappedEvidence, Stamp};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let stamp = Stamp {
        store_id: data
            .get(16..32)
            .map_or(0, |b| u128::from_le_bytes(b.try_into().unwrap())),
        generation: data
            .get(32..40)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap())),
    };
    let path = std::env::temp_dir().join(format!("irinorm-fuzz-{}.lookup", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let Ok(m) = MappedEvidence::open(&path, stamp) else {
        return;
    };
    let p = Protocol::new(Options::default(), &m, ProtocolOptions::default());
    for k in [
        "http://a.example/1",
        "http://a.example/1/",
        "http://www.a.example/",
        "https://a.example/x?y",
        "urn:x:y",
    ] {
        let _ = m.may_have(k, origin(k));
        let _ = m.latest(k);
        if let Some(o) = origin(k) {
            let _ = m.host_conventions(o);
        }
        let _ = p.normalize(k);
        let _ = p.chain(k);
    }
});
