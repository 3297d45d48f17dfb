//! Comparison keys: the `uri`-form normal string at a rung, projected to
//! what comparison looks at, and its 128-bit digest.

use super::{Options, Rung};
use crate::scheme::{urn, Special};

/// A 128-bit digest of a comparison key (xxh3-128). Keys that differ give
/// equal digests with probability about 2^-128; among n distinct keys the
/// chance of any collision is about n²/2^129 (10^9 keys: 1.5·10^-21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u128);

impl Key {
    /// The digest of a key string.
    #[inline]
    pub fn of(key: &str) -> Key {
        Key(xxhash_rust::xxh3::xxh3_128(key.as_bytes()))
    }
}

impl core::fmt::Display for Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// Whether `text` (a normal form: lower-case scheme) is of a scheme the
/// registry of `o` normalizes as a URN (RFC 8141).
pub(crate) fn is_urn(text: &str, o: &Options) -> bool {
    text.find(':').is_some_and(|colon| {
        o.schemes
            .get(&text[..colon])
            .is_some_and(|i| i.special == Special::Urn)
    })
}

/// What comparison ignores beyond normalization: the r/q/f-components of a
/// URN at rung 2 (RFC 8141 §3.1). (The fragment under `ignore_fragment`
/// is already left out by the normalizer.)
pub(crate) fn project(out: &mut String, start: usize, o: &Options) {
    if o.rung != Rung::Scheme {
        return;
    }
    let text = &out[start..];
    if is_urn(text, o) {
        if let Some(c) = urn::comparison_form(text) {
            out.truncate(start);
            out.push_str(&c);
        }
    }
}
