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

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use irinorm::Grammar;
use irinorm_rules::RuleName;

use crate::engine::Engine;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;

use crate::errors::{message, usage};

/// Entries per unit of work for text results: a unit's output (~60 KiB at
/// the corpora's 56 bytes per URL) stays in the worker's cache until it is
/// copied to its place; claiming and committing it (one lock each) cost
/// nothing beside ~100 ns per entry. A multiple of 8, so that every unit
/// owns whole bytes of a validity bitmap.
const TEXT_CHUNK: usize = 1024;

/// Entries per unit of work for keys, written straight to their place (16
/// bytes each): larger units, fewer schedulings.
const KEY_CHUNK: usize = 8192;

/// What is computed per entry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Job {
    Normalize,
    Key,
}

/// One input entry.
#[derive(Clone, Copy)]
enum Entry<'a> {
    Null,
    /// Known to be UTF-8.
    Text(&'a str),
    /// Not checked yet.
    Raw(&'a [u8]),
}

/// The inputs of a batch, read by units of work from any thread.
trait Source: Sync {
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
fn run_entry(
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
fn pieces(buf: &mut [u8], size: usize, count: usize) -> Vec<&mut [u8]> {
    let mut v: Vec<&mut [u8]> = buf.chunks_mut(size.max(1)).collect();
    v.resize_with(count, Default::default);
    v
}

/// The reject messages of a batch by entry index, in order.
type Rejects = Vec<(usize, String)>;

/// Keys of entries `lo..hi` into `vals` (16 bytes each) and `bits` (Arrow
/// validity, LSB first), the slices of those entries: each unit writes its
/// own slices. `lo` is a multiple of 8.
fn keys_into<S: Source>(
    p: &Engine,
    src: &S,
    lo: usize,
    hi: usize,
    vals: &mut [u8],
    bits: &mut [u8],
) -> Rejects {
    let units = (hi - lo).div_ceil(KEY_CHUNK);
    let v = pieces(vals, KEY_CHUNK * 16, units);
    let b = pieces(bits, KEY_CHUNK / 8, units);
    let errs: Vec<Rejects> = v
        .into_par_iter()
        .zip(b)
        .enumerate()
        .map(|(u, (v, b))| {
            let a = lo + u * KEY_CHUNK;
            let z = (a + KEY_CHUNK).min(hi);
            let mut errs = Vec::new();
            let (mut scratch, mut applied, mut key) = (String::new(), Vec::new(), [0u8; 16]);
            let mut i = a;
            src.each(a, z, |e| {
                let j = i - a;
                match run_entry(p, Job::Key, e, &mut scratch, &mut applied, &mut key) {
                    Ok(true) => {
                        v[j * 16..j * 16 + 16].copy_from_slice(&key);
                        b[j / 8] |= 1 << (j % 8);
                    }
                    Ok(false) => {}
                    Err(m) => errs.push((i, m)),
                }
                i += 1;
            });
            errs
        })
        .collect();
    errs.into_iter().flatten().collect()
}

/// One finished unit of text results, waiting for its place.
#[derive(Default)]
struct Done {
    /// The unit's results, end to end.
    text: String,
    /// End of each entry in `text`.
    ends: Vec<usize>,
    /// Validity of each entry.
    bits: Vec<u8>,
    errs: Rejects,
}

/// Where finished units go, in order.
struct Commit<'b> {
    /// The first unit not yet placed.
    next: usize,
    /// Units finished before an earlier one.
    waiting: BTreeMap<usize, Done>,
    /// The values buffer not yet given to a unit, and where it starts.
    rest: &'b mut [u8],
    at: usize,
    /// Offsets (entry ends) and validity bytes of every unit, taken when
    /// the unit is placed.
    offsets: Vec<Option<&'b mut [u8]>>,
    bits: Vec<Option<&'b mut [u8]>>,
    /// Bytes per offset.
    w: usize,
    /// The units from the first that did not fit in the values buffer on:
    /// their values go after a copy of it, at the end.
    spilled: Vec<Done>,
    errs: Rejects,
    /// Buffers of placed units, for the next units to reuse.
    spare: Vec<Done>,
}

/// A unit's place: its slices of the values, offsets and validity
/// buffers, and where its values start.
struct Place<'b> {
    vals: &'b mut [u8],
    offsets: &'b mut [u8],
    bits: &'b mut [u8],
    base: usize,
}

impl<'b> Commit<'b> {
    fn new(
        vals: &'b mut [u8],
        offsets: &'b mut [u8],
        bits: &'b mut [u8],
        w: usize,
        n: usize,
    ) -> Self {
        let units = n.div_ceil(TEXT_CHUNK);
        // offsets[0] is 0: the buffer comes zeroed.
        let offsets = offsets.get_mut(w..).unwrap_or_default();
        Commit {
            next: 0,
            waiting: BTreeMap::new(),
            rest: vals,
            at: 0,
            offsets: pieces(offsets, TEXT_CHUNK * w, units)
                .into_iter()
                .map(Some)
                .collect(),
            bits: pieces(bits, TEXT_CHUNK / 8, units)
                .into_iter()
                .map(Some)
                .collect(),
            w,
            spilled: Vec::new(),
            errs: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Takes the places of every unit that can be placed now (`d` is unit
    /// `u`, finished): the copies are made by the caller, outside the lock.
    fn take(&mut self, u: usize, d: Done) -> Vec<(Done, Place<'b>)> {
        self.waiting.insert(u, d);
        let mut ready = Vec::new();
        while let Some(mut d) = self.waiting.remove(&self.next) {
            self.errs.append(&mut d.errs);
            let len = d.text.len();
            let place = Place {
                vals: &mut [],
                offsets: self.offsets[self.next].take().unwrap_or_default(),
                bits: self.bits[self.next].take().unwrap_or_default(),
                base: self.at,
            };
            self.next += 1;
            self.at += len;
            if self.spilled.is_empty() && len <= self.rest.len() {
                let rest = std::mem::take(&mut self.rest);
                let (vals, rest) = rest.split_at_mut(len);
                self.rest = rest;
                ready.push((d, Place { vals, ..place }));
            } else {
                // Too small a bound (long rung-3 targets, `repair`...):
                // kept for the end. Offsets past what `w` bytes hold are
                // caught there.
                place_meta(&d, place, self.w);
                self.spilled.push(d);
            }
        }
        ready
    }
}

/// Writes a unit's offsets and validity into its place.
fn place_meta(d: &Done, p: Place<'_>, w: usize) {
    write_offsets(p.offsets, p.base, &d.ends, w);
    p.bits.copy_from_slice(&d.bits);
}

/// Writes a unit into its place: values, offsets, validity.
fn place(d: &Done, mut p: Place<'_>, w: usize) {
    std::mem::take(&mut p.vals).copy_from_slice(d.text.as_bytes());
    place_meta(d, p, w);
}

/// `base + end` of each entry as a `w`-byte little-endian offset (a value
/// past what `w` bytes hold is caught by the caller).
fn write_offsets(out: &mut [u8], base: usize, ends: &[usize], w: usize) {
    for (o, &e) in out.chunks_exact_mut(w).zip(ends) {
        o.copy_from_slice(&((base + e) as u64).to_le_bytes()[..w]);
    }
}

/// Normalizes entries `lo..hi` (`lo` a multiple of [`TEXT_CHUNK`]) into
/// the buffers of `state`, on every core. Units are claimed in order: the
/// unit a finished one waits for to be placed is always being worked on.
fn texts_into<S: Source>(p: &Engine, src: &S, lo: usize, hi: usize, state: &Mutex<Commit<'_>>) {
    let (first, end) = (lo / TEXT_CHUNK, hi.div_ceil(TEXT_CHUNK));
    let claim = AtomicUsize::new(first);
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    let w = lock().w;
    let work = || {
        let mut applied = Vec::new();
        let mut d = Done::default();
        loop {
            let u = claim.fetch_add(1, Ordering::Relaxed);
            if u >= end {
                break;
            }
            let a = u * TEXT_CHUNK;
            let z = (a + TEXT_CHUNK).min(hi);
            d.text.clear();
            d.text.reserve(src.bytes(a, z) + (z - a));
            d.ends.clear();
            d.bits.clear();
            d.bits.resize((z - a).div_ceil(8), 0);
            let mut i = a;
            let mut key = [0; 16];
            src.each(a, z, |e| {
                let j = i - a;
                match run_entry(p, Job::Normalize, e, &mut d.text, &mut applied, &mut key) {
                    Ok(true) => d.bits[j / 8] |= 1 << (j % 8),
                    Ok(false) => {}
                    Err(m) => d.errs.push((i, m)),
                }
                d.ends.push(d.text.len());
                i += 1;
            });
            let ready = lock().take(u, d);
            let mut back = Vec::with_capacity(ready.len());
            for (done, at) in ready {
                place(&done, at, w);
                back.push(done);
            }
            let mut s = lock();
            s.spare.extend(back);
            d = s.spare.pop().unwrap_or_default();
        }
    };
    let threads = rayon::current_num_threads().clamp(1, (end - first).max(1));
    if threads == 1 {
        work();
    } else {
        rayon::scope(|s| {
            for _ in 0..threads {
                s.spawn(|_| work());
            }
        });
    }
}

/// An Arrow validity bitmap (LSB first) and its null count.
fn bitmap(valid: impl Iterator<Item = bool>, n: usize) -> (Vec<u8>, usize) {
    let mut bits = vec![0u8; n.div_ceil(8)];
    let mut nulls = 0;
    for (i, v) in valid.enumerate() {
        if v {
            bits[i / 8] |= 1 << (i % 8);
        } else {
            nulls += 1;
        }
    }
    (bits, nulls)
}

/// Nulls among the first `n` bits of `bits`.
fn null_count(bits: &[u8], n: usize) -> usize {
    let full = n / 8;
    let mut ones: usize = bits[..full].iter().map(|b| b.count_ones() as usize).sum();
    if n % 8 != 0 {
        ones += (bits[full] & ((1u8 << (n % 8)) - 1)).count_ones() as usize;
    }
    n - ones
}

/// Offsets `0, ends...` as i32 (or i64 when asked or past 2 GiB).
fn offsets_of(ends: &[usize], force_large: bool) -> (Vec<u8>, bool) {
    let large = force_large || ends.last().is_some_and(|&e| e > i32::MAX as usize);
    let w = if large { 8 } else { 4 };
    let mut out = vec![0; (ends.len() + 1) * w];
    write_offsets(&mut out[w..], 0, ends, w);
    (out, large)
}

/// Entries per window of an Arrow array given as pyarrow `Buffer`s: the
/// window's offsets and data are copied (`Buffer.slice().to_pybytes()`;
/// the stable ABI of Python 3.9 has no buffer protocol to read them in
/// place) into `bytes` of a few MiB, which the allocator hands out again
/// for the next window. One copy of the whole array would be fresh memory
/// from the kernel every time, and its page faults cost as much as a
/// fifth of the batch. A multiple of [`TEXT_CHUNK`] and [`KEY_CHUNK`].
const WINDOW: usize = 1 << 17;

/// An Arrow `string`/`binary` (32-bit offsets) or `large_*` (64-bit)
/// array as given from Python: its length, slice offset and buffers,
/// each `bytes` (read in place) or a pyarrow `Buffer` (read a window at a
/// time).
pub(crate) struct ArrowArgs<'py> {
    pub(crate) n: usize,
    pub(crate) offset: usize,
    pub(crate) offsets: Bound<'py, PyAny>,
    pub(crate) large: bool,
    pub(crate) data: Bound<'py, PyAny>,
    pub(crate) validity: Option<Bound<'py, PyAny>>,
}

/// Bytes of a buffer argument, `len()` of a `bytes` or a `Buffer`.
fn size_of(b: &Bound<'_, PyAny>) -> PyResult<usize> {
    b.len()
}

/// `b[a..a + len]` as `bytes`: the object itself when it is whole
/// `bytes`, else a copy of the slice.
fn slice_of<'py>(b: &Bound<'py, PyAny>, a: usize, len: usize) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(x) = b.cast::<PyBytes>() {
        if a == 0 && len == x.as_bytes().len() {
            return Ok(x.clone());
        }
        return Ok(PyBytes::new(
            b.py(),
            x.as_bytes().get(a..a + len).unwrap_or_default(),
        ));
    }
    b.call_method1("slice", (a, len))?
        .call_method0("to_pybytes")?
        .cast_into::<PyBytes>()
        .map_err(|_| usage("Buffer.to_pybytes() did not return bytes"))
}

/// The inputs of one window: entries `first..first + len`.
struct Window<'py> {
    first: usize,
    /// Offsets of the window's entries (`len + 1`), from index `idx0`.
    offsets: Bound<'py, PyBytes>,
    idx0: usize,
    /// The data they point into, from byte `data_base` of the array's.
    data: Bound<'py, PyBytes>,
    data_base: usize,
}

impl<'py> ArrowArgs<'py> {
    fn w(&self) -> usize {
        if self.large {
            8
        } else {
            4
        }
    }

    /// Whether the buffers are `bytes`, read in place in one window.
    fn in_place(&self) -> bool {
        self.offsets.is_instance_of::<PyBytes>() && self.data.is_instance_of::<PyBytes>()
    }

    fn check(&self, validity: Option<&[u8]>) -> PyResult<()> {
        let w = self.w();
        let end = self
            .offset
            .checked_add(self.n)
            .and_then(|e| e.checked_add(1));
        if end
            .and_then(|e| e.checked_mul(w))
            .is_none_or(|b| size_of(&self.offsets).is_ok_and(|l| l < b))
        {
            return Err(usage("offsets buffer shorter than the array"));
        }
        if let Some(v) = validity {
            if v.len().saturating_mul(8) < self.offset + self.n {
                return Err(usage("validity buffer shorter than the array"));
            }
        }
        Ok(())
    }

    /// A reader of `win`.
    fn reader<'a>(&self, win: &'a Window<'_>, validity: Option<&'a [u8]>) -> ArrowIn<'a> {
        ArrowIn {
            first: win.first,
            idx0: win.idx0,
            offsets: win.offsets.as_bytes(),
            large: self.large,
            data: win.data.as_bytes(),
            data_base: win.data_base,
            validity,
            bit0: self.offset,
        }
    }

    /// Entries `lo..hi` with what they point into.
    fn window(&self, lo: usize, hi: usize) -> PyResult<Window<'py>> {
        let w = self.w();
        if self.in_place() {
            return Ok(Window {
                first: 0,
                offsets: self.offsets.cast::<PyBytes>()?.clone(),
                idx0: self.offset,
                data: self.data.cast::<PyBytes>()?.clone(),
                data_base: 0,
            });
        }
        let offsets = slice_of(&self.offsets, (self.offset + lo) * w, (hi - lo + 1) * w)?;
        let o = ArrowIn::off_in(offsets.as_bytes(), self.large, 0);
        let z = ArrowIn::off_in(offsets.as_bytes(), self.large, hi - lo);
        let size = size_of(&self.data)?;
        let (data, data_base) = match (o, z) {
            (Some(a), Some(b)) if a <= b && b <= size => (slice_of(&self.data, a, b - a)?, a),
            // Offsets that do not point into the data: entries with them
            // are nulls (ArrowIn::get), as for `bytes` buffers.
            _ => (PyBytes::new(self.data.py(), b""), 0),
        };
        Ok(Window {
            first: lo,
            offsets,
            idx0: 0,
            data,
            data_base,
        })
    }
}

/// Reads a window of Arrow buffers: entry `i` of the batch.
struct ArrowIn<'a> {
    first: usize,
    idx0: usize,
    offsets: &'a [u8],
    large: bool,
    data: &'a [u8],
    data_base: usize,
    /// The whole validity bitmap, and the bit of entry 0.
    validity: Option<&'a [u8]>,
    bit0: usize,
}

impl<'a> ArrowIn<'a> {
    fn off_in(offsets: &[u8], large: bool, j: usize) -> Option<usize> {
        if large {
            let b = offsets.get(j * 8..j * 8 + 8)?;
            usize::try_from(i64::from_le_bytes(b.try_into().ok()?)).ok()
        } else {
            let b = offsets.get(j * 4..j * 4 + 4)?;
            usize::try_from(i32::from_le_bytes(b.try_into().ok()?)).ok()
        }
    }

    /// Where entry `i` starts (`i` may be one past the last), in `data`.
    fn off(&self, i: usize) -> Option<usize> {
        Self::off_in(
            self.offsets,
            self.large,
            self.idx0 + i.checked_sub(self.first)?,
        )?
        .checked_sub(self.data_base)
    }

    /// Entry `i`: where it starts in `data`, and its bytes (None: null,
    /// or offsets that are not an entry of `data`).
    fn get(&self, i: usize) -> Option<(usize, &'a [u8])> {
        if let Some(v) = self.validity {
            let j = self.bit0 + i;
            if v.get(j / 8).is_none_or(|b| b & (1 << (j % 8)) == 0) {
                return None;
            }
        }
        let (a, b) = (self.off(i)?, self.off(i + 1)?);
        Some((a, self.data.get(a..b)?))
    }
}

impl Source for ArrowIn<'_> {
    fn each<'s>(&'s self, lo: usize, hi: usize, mut f: impl FnMut(Entry<'s>)) {
        // One UTF-8 check for the unit's data (Arrow `string` data is
        // UTF-8) instead of one per entry; entries are then slices of it.
        // Nulls with bytes that are not UTF-8, or `binary` data, fall back
        // to a check per entry.
        let whole = match (self.off(lo), self.off(hi)) {
            (Some(a), Some(b)) if a <= b => self
                .data
                .get(a..b)
                .and_then(|d| std::str::from_utf8(d).ok())
                .map(|s| (a, s)),
            _ => None,
        };
        for i in lo..hi {
            f(match self.get(i) {
                None => Entry::Null,
                Some((x, b)) => match whole {
                    Some((a, s)) if x >= a => s
                        .get(x - a..x - a + b.len())
                        .map_or(Entry::Raw(b), Entry::Text),
                    _ => Entry::Raw(b),
                },
            });
        }
    }

    fn bytes(&self, lo: usize, hi: usize) -> usize {
        match (self.off(lo), self.off(hi)) {
            (Some(a), Some(b)) => b.saturating_sub(a).min(self.data.len()),
            _ => 0,
        }
    }
}

/// The result of a batch over Arrow buffers, for `irinorm._batch`:
/// `(large, validity, null_count, offsets, data, used, errors)` where
/// `data[:used]` holds the values, `errors` is itself `(validity,
/// null_count, offsets, data, large)` and `offsets` is empty for keys
/// (`fixed_size_binary(16)`).
pub(crate) type ArrowOut<'py> = (
    bool,
    Bound<'py, PyBytes>,
    usize,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
    ErrorsOut<'py>,
);

/// The errors array's buffers: `(validity, null_count, offsets, data,
/// large)`.
pub(crate) type ErrorsOut<'py> = (
    Bound<'py, PyBytes>,
    usize,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    bool,
);

/// The reject messages as an Arrow string array of `n` entries.
fn errors_out<'py>(py: Python<'py>, n: usize, errs: &Rejects) -> PyResult<ErrorsOut<'py>> {
    let total: usize = errs.iter().map(|e| e.1.len()).sum();
    let large = total > i32::MAX as usize;
    let w = if large { 8 } else { 4 };
    let bits = PyBytes::new_with(py, n.div_ceil(8), |b| {
        for (i, _) in errs {
            b[i / 8] |= 1 << (i % 8);
        }
        Ok(())
    })?;
    let offsets = PyBytes::new_with(py, (n + 1) * w, |o| {
        // Offsets stay 0 up to the first reject; each run between two
        // rejects is one value, repeated.
        let mut end = 0u64;
        let mut next = 1;
        for (i, m) in errs {
            fill(&mut o[next * w..(i + 1) * w], end, w);
            end += m.len() as u64;
            next = i + 1;
        }
        fill(&mut o[next * w..], end, w);
        Ok(())
    })?;
    let data = PyBytes::new_with(py, total, |d| {
        let mut at = 0;
        for (_, m) in errs {
            d[at..at + m.len()].copy_from_slice(m.as_bytes());
            at += m.len();
        }
        Ok(())
    })?;
    Ok((bits, n - errs.len(), offsets, data, large))
}

/// Every `w`-byte offset of `out` set to `v`.
fn fill(out: &mut [u8], v: u64, w: usize) {
    if v == 0 {
        return; // the buffer comes zeroed
    }
    let b = v.to_le_bytes();
    for o in out.chunks_exact_mut(w) {
        o.copy_from_slice(&b[..w]);
    }
}

pub(crate) fn arrow<'py>(
    py: Python<'py>,
    p: &Engine,
    job: Job,
    a: &ArrowArgs<'py>,
) -> PyResult<ArrowOut<'py>> {
    let validity = match &a.validity {
        Some(v) if !v.is_none() => Some(slice_of(v, 0, size_of(v)?)?),
        _ => None,
    };
    let validity = validity.as_ref().map(|v| v.as_bytes());
    a.check(validity)?;
    let n = a.n;
    let step = if a.in_place() { n.max(1) } else { WINDOW };
    match job {
        Job::Key => {
            let mut errs = Vec::new();
            let mut bits_out = None;
            let vals = PyBytes::new_with(py, n * 16, |v| {
                bits_out = Some(PyBytes::new_with(py, n.div_ceil(8), |b| {
                    for lo in (0..n).step_by(step) {
                        let hi = (lo + step).min(n);
                        let win = a.window(lo, hi)?;
                        let src = a.reader(&win, validity);
                        let (v, b) = (&mut v[lo * 16..hi * 16], &mut b[lo / 8..hi.div_ceil(8)]);
                        errs.extend(py.detach(|| keys_into(p, &src, lo, hi, v, b)));
                    }
                    Ok(())
                })?);
                Ok(())
            })?;
            let bits = bits_out.unwrap_or_else(|| PyBytes::new(py, &[]));
            let nulls = null_count(bits.as_bytes(), n);
            let errors = errors_out(py, n, &errs)?;
            Ok((
                false,
                bits,
                nulls,
                PyBytes::new(py, &[]),
                vals,
                n * 16,
                errors,
            ))
        }
        Job::Normalize => {
            // The values buffer is sized by a bound of the results: the
            // input's bytes and one per entry (for a `/` the normalizer
            // may add), and a sixteenth more (percent-encoding, IDNA...).
            // Results past it are kept aside and joined at the end.
            let total = arrow_bytes(a)?;
            let cap = total + total / 16 + n + 64;
            let large_out = a.large || cap > i32::MAX as usize;
            let w = if large_out { 8 } else { 4 };
            let (mut offs_out, mut bits_out) = (None, None);
            let mut end = None;
            let vals = PyBytes::new_with(py, cap, |v| {
                offs_out = Some(PyBytes::new_with(py, (n + 1) * w, |o| {
                    bits_out = Some(PyBytes::new_with(py, n.div_ceil(8), |b| {
                        let state = Mutex::new(Commit::new(v, o, b, w, n));
                        for lo in (0..n).step_by(step) {
                            let hi = (lo + step).min(n);
                            let win = a.window(lo, hi)?;
                            let src = a.reader(&win, validity);
                            py.detach(|| texts_into(p, &src, lo, hi, &state));
                        }
                        let s = state.into_inner().unwrap_or_else(|e| e.into_inner());
                        end = Some((s.at, s.errs, s.spilled));
                        Ok(())
                    })?);
                    Ok(())
                })?);
                Ok(())
            })?;
            let (Some((used, errs, spilled)), Some(offs), Some(bits)) = (end, offs_out, bits_out)
            else {
                return Err(usage("batch interrupted"));
            };
            if !large_out && used > i32::MAX as usize {
                // Spilled past what 32-bit offsets hold: again, the slow
                // way (offsets chosen at the end).
                return arrow_growing(py, p, a, validity);
            }
            let vals = if spilled.is_empty() {
                vals
            } else {
                let kept = used - spilled.iter().map(|d| d.text.len()).sum::<usize>();
                PyBytes::new_with(py, used, |out| {
                    out[..kept].copy_from_slice(&vals.as_bytes()[..kept]);
                    let mut at = kept;
                    for d in &spilled {
                        out[at..at + d.text.len()].copy_from_slice(d.text.as_bytes());
                        at += d.text.len();
                    }
                    Ok(())
                })?
            };
            let nulls = null_count(bits.as_bytes(), n);
            let errors = errors_out(py, n, &errs)?;
            Ok((large_out, bits, nulls, offs, vals, used, errors))
        }
    }
}

/// The data bytes of the array's entries (from its first offset to its
/// last).
fn arrow_bytes(a: &ArrowArgs<'_>) -> PyResult<usize> {
    let w = a.w();
    let first = slice_of(&a.offsets, a.offset * w, w)?;
    let last = slice_of(&a.offsets, (a.offset + a.n) * w, w)?;
    let o = ArrowIn::off_in(first.as_bytes(), a.large, 0);
    let z = ArrowIn::off_in(last.as_bytes(), a.large, 0);
    Ok(match (o, z) {
        (Some(o), Some(z)) => z.saturating_sub(o).min(size_of(&a.data)?),
        _ => 0,
    })
}

/// `normalize` over Arrow buffers when the results did not fit the
/// bound: every unit into its own buffer, then joined.
fn arrow_growing<'py>(
    py: Python<'py>,
    p: &Engine,
    a: &ArrowArgs<'py>,
    validity: Option<&[u8]>,
) -> PyResult<ArrowOut<'py>> {
    let n = a.n;
    let mut text = String::new();
    let mut ends = Vec::with_capacity(n);
    let mut valid = Vec::with_capacity(n);
    let mut errs = Vec::new();
    let step = if a.in_place() { n.max(1) } else { WINDOW };
    for lo in (0..n).step_by(step) {
        let hi = (lo + step).min(n);
        let win = a.window(lo, hi)?;
        let src = a.reader(&win, validity);
        let parts: Vec<Done> = py.detach(|| {
            (lo / TEXT_CHUNK..hi.div_ceil(TEXT_CHUNK))
                .into_par_iter()
                .map(|u| {
                    let (x, z) = (u * TEXT_CHUNK, (u * TEXT_CHUNK + TEXT_CHUNK).min(hi));
                    // `bits` holds one byte per entry here.
                    let mut d = Done::default();
                    let (mut applied, mut key) = (Vec::new(), [0; 16]);
                    let mut i = x;
                    src.each(x, z, |e| {
                        match run_entry(p, Job::Normalize, e, &mut d.text, &mut applied, &mut key) {
                            Ok(ok) => d.bits.push(u8::from(ok)),
                            Err(m) => {
                                d.bits.push(0);
                                d.errs.push((i, m));
                            }
                        }
                        d.ends.push(d.text.len());
                        i += 1;
                    });
                    d
                })
                .collect()
        });
        for d in parts {
            let base = text.len();
            text.push_str(&d.text);
            ends.extend(d.ends.iter().map(|x| x + base));
            valid.extend(d.bits.iter().map(|&b| b == 1));
            errs.extend(d.errs);
        }
    }
    let (bits, nulls) = bitmap(valid.into_iter(), n);
    let (offsets, large_out) = offsets_of(&ends, a.large);
    let errors = errors_out(py, n, &errs)?;
    Ok((
        large_out,
        PyBytes::new(py, &bits),
        nulls,
        PyBytes::new(py, &offsets),
        PyBytes::new(py, text.as_bytes()),
        text.len(),
        errors,
    ))
}

/// The inputs of a list batch: every entry's bytes, copied once so that
/// the GIL can be released.
struct ListIn {
    buf: Vec<u8>,
    /// Span of each entry in `buf` (None: `None`).
    spans: Vec<Option<(usize, usize)>>,
}

impl Source for ListIn {
    fn each<'s>(&'s self, lo: usize, hi: usize, mut f: impl FnMut(Entry<'s>)) {
        for s in &self.spans[lo..hi] {
            f(match *s {
                None => Entry::Null,
                Some((a, b)) => Entry::Raw(&self.buf[a..b]),
            });
        }
    }

    fn bytes(&self, lo: usize, hi: usize) -> usize {
        self.spans[lo..hi]
            .iter()
            .flatten()
            .map(|(a, b)| b - a)
            .sum()
    }
}

/// The results of one unit of a list batch.
struct ListPart {
    text: String,
    ends: Vec<usize>,
    valid: Vec<bool>,
    errs: Rejects,
    keys: Vec<[u8; 16]>,
}

/// A batch over a Python sequence of `str`/`bytes`/`None`: `(results,
/// errors)`, two lists of the same length. Results have the type of their
/// input (`str`, `bytes`), and are the input object itself when it was
/// already normal; keys are 16 `bytes`.
pub(crate) fn list<'py>(
    py: Python<'py>,
    p: &Engine,
    job: Job,
    items: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let mut input = ListIn {
        buf: Vec::new(),
        spans: Vec::new(),
    };
    let mut objs: Vec<Bound<'py, PyAny>> = Vec::new();
    let mut is_bytes: Vec<bool> = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        let a = input.buf.len();
        if item.is_none() {
            input.spans.push(None);
            is_bytes.push(false);
        } else if let Ok(s) = item.cast::<PyString>() {
            input.buf.extend_from_slice(s.to_cow()?.as_bytes());
            input.spans.push(Some((a, input.buf.len())));
            is_bytes.push(false);
        } else if let Ok(b) = item.cast::<PyBytes>() {
            input.buf.extend_from_slice(b.as_bytes());
            input.spans.push(Some((a, input.buf.len())));
            is_bytes.push(true);
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "entry {} is {}, expected str, bytes or None",
                input.spans.len(),
                item.get_type().name()?
            )));
        }
        objs.push(item);
    }
    let n = input.spans.len();
    let parts: Vec<ListPart> = py.detach(|| {
        let chunk = KEY_CHUNK;
        (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|u| {
                let lo = u * chunk;
                let hi = (lo + chunk).min(n);
                let mut part = ListPart {
                    text: match job {
                        Job::Normalize => String::with_capacity(input.bytes(lo, hi) + (hi - lo)),
                        Job::Key => String::new(),
                    },
                    ends: Vec::with_capacity(hi - lo),
                    valid: Vec::with_capacity(hi - lo),
                    errs: Vec::new(),
                    keys: Vec::new(),
                };
                let (mut applied, mut key) = (Vec::new(), [0; 16]);
                let mut i = lo;
                input.each(lo, hi, |e| {
                    match run_entry(p, job, e, &mut part.text, &mut applied, &mut key) {
                        Ok(ok) => part.valid.push(ok),
                        Err(m) => {
                            part.valid.push(false);
                            part.errs.push((i, m));
                        }
                    }
                    if let Job::Key = job {
                        part.keys.push(key);
                    }
                    part.ends.push(part.text.len());
                    i += 1;
                });
                part
            })
            .collect()
    });
    let mut results: Vec<Bound<'py, PyAny>> = Vec::with_capacity(n);
    let mut errors: Vec<Option<String>> = Vec::with_capacity(n);
    let mut i = 0;
    for part in parts {
        let mut start = 0;
        let mut e = part.errs.into_iter().peekable();
        for (j, ok) in part.valid.iter().enumerate() {
            let end = part.ends[j];
            let r = if !*ok {
                py.None().into_bound(py)
            } else if let Job::Key = job {
                PyBytes::new(py, &part.keys[j]).into_any()
            } else {
                let t = &part.text[start..end];
                let span = input.spans[i].unwrap_or_default();
                if t.as_bytes() == &input.buf[span.0..span.1] {
                    // Already normal: the input itself (str and bytes are
                    // immutable), no new object.
                    objs[i].clone()
                } else if is_bytes[i] {
                    PyBytes::new(py, t.as_bytes()).into_any()
                } else {
                    PyString::new(py, t).into_any()
                }
            };
            results.push(r);
            start = end;
            errors.push(match e.peek() {
                Some((k, _)) if *k == i => e.next().map(|x| x.1),
                _ => None,
            });
            i += 1;
        }
    }
    Ok((PyList::new(py, results)?, PyList::new(py, errors)?))
}
