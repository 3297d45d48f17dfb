//! CDXJ reader: the same checks as the `cdx` target (no panic, no fatal
//! error, every bad line reported with its line, offsets at line starts,
//! counts add up), on CDXJ text.
#![no_main]

use irinorm_archive::Format;
use libfuzzer_sys::fuzz_target;

mod line_check {
    include!("line_check.rs");
}

fuzz_target!(|data: &[u8]| {
    line_check::check(data, Format::Cdxj);
});
