//! Safe Browsing keys: `canonicalize_bytes` never panics; a key is ASCII,
//! starts with `http://` or `https://`, has a host and a path, holds no byte
//! <= 0x20, >= 0x7F or `#`, and is a fixpoint (the key of a key is itself).

#![no_main]

use irinorm_rules::safebrowsing::canonicalize_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(k) = canonicalize_bytes(data) else { return };
    assert!(k.iter().all(|&c| c > 0x20 && c < 0x7f && c != b'#'), "{data:?} -> {k:?}");
    assert!(k.starts_with(b"http://") || k.starts_with(b"https://"), "{k:?}");
    let again = canonicalize_bytes(&k).expect("a key is a valid input");
    assert_eq!(again, k, "not a fixpoint: {data:?}");
});
