//! SURT keys: `surt_bytes` never panics on any bytes with any options; a
//! key is ASCII (every other byte is escaped) unless it is the `filedesc`
//! pass-through; the same input always gives the same verdict with and
//! without options (only blank inputs and bad ports are refused).

#![no_main]

use irinorm::surt::{surt_bytes, SurtOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, url)) = data.split_first() else { return };
    let o = SurtOptions {
        with_scheme: sel & 1 != 0,
        trailing_comma: sel & 2 != 0,
        reverse_ipaddr: sel & 4 != 0,
        host_massage: sel & 8 != 0,
    };
    let r = surt_bytes(url, o);
    let d = surt_bytes(url, SurtOptions::default());
    assert_eq!(r.is_ok(), d.is_ok(), "options changed the verdict: {url:?}");
    if let Ok(k) = r {
        if !url.starts_with(b"filedesc") {
            assert!(k.is_ascii(), "{url:?} -> {k:?}");
        }
    }
});
