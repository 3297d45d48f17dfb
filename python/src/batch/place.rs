//! Units of work and their places in the result buffers: keys straight to
//! their place (16 bytes each), texts into a buffer of the unit's that is
//! copied to its place as soon as every earlier unit has taken its own.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::{pieces, run_entry, Job, Rejects, Source, KEY_CHUNK, TEXT_CHUNK};
use crate::engine::Engine;

/// Keys of entries `lo..hi` into `vals` (16 bytes each) and `bits` (Arrow
/// validity, LSB first), the slices of those entries: each unit writes its
/// own slices. `lo` is a multiple of 8.
pub(crate) fn keys_into<S: Source>(
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
pub(crate) struct Done {
    /// The unit's results, end to end.
    pub(crate) text: String,
    /// End of each entry in `text`.
    pub(crate) ends: Vec<usize>,
    /// Validity of each entry.
    pub(crate) bits: Vec<u8>,
    pub(crate) errs: Rejects,
}

/// Where finished units go, in order.
pub(crate) struct Commit<'b> {
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
    pub(crate) fn new(
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

    /// The bytes of values (spilled ones included), the rejects in order,
    /// and the units that did not fit.
    pub(crate) fn finish(self) -> (usize, Rejects, Vec<Done>) {
        (self.at, self.errs, self.spilled)
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
pub(crate) fn write_offsets(out: &mut [u8], base: usize, ends: &[usize], w: usize) {
    for (o, &e) in out.chunks_exact_mut(w).zip(ends) {
        o.copy_from_slice(&((base + e) as u64).to_le_bytes()[..w]);
    }
}

/// Normalizes entries `lo..hi` (`lo` a multiple of [`TEXT_CHUNK`]) into
/// the buffers of `state`, on every core. Units are claimed in order; a
/// unit finished before an earlier one waits in `Commit::waiting` (its
/// worker goes on to the next unit), and whichever worker places the
/// earlier one places it too. No worker ever waits for another.
pub(crate) fn texts_into<S: Source>(
    p: &Engine,
    src: &S,
    lo: usize,
    hi: usize,
    state: &Mutex<Commit<'_>>,
) {
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
