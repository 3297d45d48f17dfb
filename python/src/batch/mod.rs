//! Batches: many inputs in, many results out, with the GIL released and the
//! work spread over all cores (rayon's global pool, one thread per core).
//!
//! Arrow arrays come in and go out as their raw buffers (validity bitmap,
//! offsets, UTF-8 data; Arrow columnar format), which the Python side takes
//! from and gives to `pyarrow` with `Array.buffers()` and
//! `Array.from_buffers()`: no Python object per URL, no dependency on an
//! Arrow crate whose version must match pyarrow's. Rejected entries are
//! nulls in the result, with the reason at the same index of a parallel
//! string array (null where there was no error, and for null inputs).
//!
//! The result buffers are allocated once, at their final size (keys) or at
//! a bound of it (text), and written in place: a unit of work normalizes
//! into a buffer that stays in the worker's cache, then copies it to its
//! place in the result as soon as every earlier unit has taken its own
//! (units are claimed in order, so the place is known by then). No buffer
//! per unit outlives it, no second pass joins them: the allocations and
//! page faults of the earlier design were a third of a batch's time
//! (BENCHMARKS.md, "Python").

mod arrow;
mod list;
mod place;

pub(crate) use arrow::{arrow, ArrowArgs, ArrowOut};
pub(crate) use list::list;

use irinorm::Grammar;
use irinorm_rules::RuleName;

use crate::engine::Engine;
use crate::errors::message;

/// Entries per unit of work for text results: a unit's output (~60 KiB at
/// the corpora's 56 bytes per URL) stays in the worker's cache until it is
/// copied to its place; claiming and committing it (one lock each) cost
/// nothing beside ~100 ns per entry. A multiple of 8, so that every unit
/// owns whole bytes of a validity bitmap.
pub(crate) const TEXT_CHUNK: usize = 1024;

/// Entries per unit of work for keys, written straight to their place (16
/// bytes each): larger units, fewer schedulings.
pub(crate) const KEY_CHUNK: usize = 8192;

/// What is computed per entry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Job {
    Normalize,
    Key,
}

/// One input entry.
#[derive(Clone, Copy)]
pub(crate) enum Entry<'a> {
    Null,
    /// Known to be UTF-8.
    Text(&'a str),
    /// Not checked yet.
    Raw(&'a [u8]),
}

/// The inputs of a batch, read by units of work from any thread.
pub(crate) trait Source: Sync {
    /// Calls `f` with entries `lo..hi`, in order.
    fn each<'s>(&'s self, lo: usize, hi: usize, f: impl FnMut(Entry<'s>));
    /// The input bytes of entries `lo..hi` (a bound of their output).
    fn bytes(&self, lo: usize, hi: usize) -> usize;
}

/// The text of an entry, or the reject message of bytes that are not
/// UTF-8 (kind `invalid-utf8` and the offset of the first bad byte, as the
/// CLI reports a line).
fn utf8(b: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(b).map_err(|e| match irinorm::parse_bytes(b, Grammar::IriReference) {
        Err(pe) => message(&pe),
        // parse_bytes fails wherever from_utf8 does; kept total anyway.
        Ok(_) => format!("invalid-utf8: invalid UTF-8 at byte {}", e.valid_up_to()),
    })
}

/// Runs `job` on one entry: `Ok(true)` when there is a result (text
/// appended to `out`, or the key), `Ok(false)` for a null entry.
pub(crate) fn run_entry(
    p: &Engine,
    job: Job,
    e: Entry<'_>,
    out: &mut String,
    applied: &mut Vec<RuleName>,
    key: &mut [u8; 16],
) -> Result<bool, String> {
    let s = match e {
        Entry::Null => return Ok(false),
        Entry::Text(s) => s,
        Entry::Raw(b) => utf8(b)?,
    };
    let s = p.prep(s);
    match job {
        Job::Normalize => {
            applied.clear();
            let start = out.len();
            p.normalize_into(&s, out, applied).map_err(|e| {
                out.truncate(start);
                message(&e)
            })?;
        }
        Job::Key => *key = p.digest(&s).map_err(|e| message(&e))?.0.to_be_bytes(),
    }
    Ok(true)
}

/// Splits `buf` into pieces of `size` bytes (the last may be shorter),
/// as many as `count` (empty pieces when `buf` runs out).
pub(crate) fn pieces(buf: &mut [u8], size: usize, count: usize) -> Vec<&mut [u8]> {
    let mut v: Vec<&mut [u8]> = buf.chunks_mut(size.max(1)).collect();
    v.resize_with(count, Default::default);
    v
}

/// The reject messages of a batch by entry index, in order.
pub(crate) type Rejects = Vec<(usize, String)>;
