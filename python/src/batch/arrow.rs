//! Arrow arrays in and out, as their buffers: `bytes` read in place, or
//! pyarrow `Buffer`s read a window at a time.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;

use super::place::{keys_into, texts_into, write_offsets, Commit, Done};
use super::{run_entry, Entry, Job, Rejects, Source, TEXT_CHUNK};
use crate::engine::Engine;
use crate::errors::usage;

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
                        end = Some(s.finish());
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
