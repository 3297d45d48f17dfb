//! CDX, redirect-log and digest-list readers (first byte: which; the rest
//! is the file): no panic; no fatal error on in-memory text; every bad line
//! is reported with a line number that exists; every observation's offset
//! is the start of a line holding its URL; lines read = observations +
//! skipped + bad.
#![no_main]

use irinorm_archive::Format;
use libfuzzer_sys::fuzz_target;

mod line_check {
    include!("line_check.rs");
}

fuzz_target!(|input: &[u8]| {
    let Some((&mode, data)) = input.split_first() else {
        return;
    };
    let format = match mode % 3 {
        0 => Format::Cdx,
        1 => Format::RedirectTsv,
        _ => Format::DigestTsv,
    };
    line_check::check(data, format);
});
