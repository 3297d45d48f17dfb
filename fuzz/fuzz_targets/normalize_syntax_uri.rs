//! The ladder at rung `syntax`, `uri` form: the invariants of
//! LADDER.md (idempotent, stable structure, forms agree, never decoded,
//! keys and compare consistent and monotone), not just the absence of
//! panics. See `ladder_check.rs`.
#![no_main]

use irinorm::ladder::{Form, Rung};
use libfuzzer_sys::fuzz_target;

mod ladder_check;

fuzz_target!(|data: &[u8]| ladder_check::check(data, Rung::Syntax, Form::Uri));
