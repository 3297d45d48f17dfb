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

use irinorm::ParseError;
use irinorm_rules::RuleName;

use crate::engine::Engine;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;

use crate::errors::{message, usage};

/// Entries per unit of parallel work: large enough that scheduling costs
/// nothing beside ~100 ns per entry, small enough to balance two cores.
const CHUNK: usize = 8192;

/// What is computed per entry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Job {
    Normalize,
    Key,
}

/// The results of one chunk.
#[derive(Default)]
struct Part {
    /// Normalized text of every valid entry, end to end (normalize), or 16
    /// bytes per entry (key).
    data: Vec<u8>,
    /// End of each entry in `data` (normalize only).
    ends: Vec<usize>,
    /// Whether each entry has a result.
    valid: Vec<bool>,
    /// `(index in chunk, message)` of each reject.
    errs: Vec<(usize, String)>,
}

fn run_one(
    p: &Engine,
    job: Job,
    input: Option<&[u8]>,
    part: &mut Part,
    scratch: &mut String,
    applied: &mut Vec<RuleName>,
    i: usize,
) {
    let res: Option<Result<(), ParseError>> = input.map(|b| {
        let s = match std::str::from_utf8(b) {
            Ok(s) => s,
            Err(_) => {
                // The kind and offset of the first bad byte.
                return irinorm::parse_bytes(b, irinorm::Grammar::IriReference).map(|_| ());
            }
        };
        let s = p.prep(s);
        let s: &str = &s;
        match job {
            Job::Normalize => {
                scratch.clear();
                applied.clear();
                p.normalize_into(s, scratch, applied)
            }
            Job::Key => p.digest(s).map(|k| {
                scratch.clear();
                part.data.extend_from_slice(&k.0.to_be_bytes());
            }),
        }
    });
    match res {
        Some(Ok(())) => {
            if let Job::Normalize = job {
                part.data.extend_from_slice(scratch.as_bytes());
            }
            part.valid.push(true);
        }
        Some(Err(e)) => {
            if let Job::Key = job {
                part.data.extend_from_slice(&[0; 16]);
            }
            part.errs.push((i, message(&e)));
            part.valid.push(false);
        }
        None => {
            if let Job::Key = job {
                part.data.extend_from_slice(&[0; 16]);
            }
            part.valid.push(false);
        }
    }
    if let Job::Normalize = job {
        part.ends.push(part.data.len());
    }
}

/// Runs `job` on entries `0..n`, `get(i)` giving entry `i` (None: null),
/// in parallel chunks; the parts in order.
fn run<'a, G>(p: &Engine, job: Job, n: usize, get: G) -> Vec<Part>
where
    G: Fn(usize) -> Option<&'a [u8]> + Sync,
{
    let chunks = n.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = (lo + CHUNK).min(n);
            // Outputs are about as long as inputs: one allocation per chunk.
            let bytes: usize = (lo..hi).map(|i| get(i).map_or(0, <[u8]>::len)).sum();
            let mut part = Part {
                valid: Vec::with_capacity(hi - lo),
                ends: Vec::with_capacity(hi - lo),
                data: Vec::with_capacity(match job {
                    Job::Normalize => bytes + bytes / 8,
                    Job::Key => 16 * (hi - lo),
                }),
                ..Part::default()
            };
            let mut scratch = String::new();
            let mut applied = Vec::new();
            for i in lo..hi {
                run_one(
                    p,
                    job,
                    get(i),
                    &mut part,
                    &mut scratch,
                    &mut applied,
                    i - lo,
                );
            }
            part
        })
        .collect()
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

/// Arrow string buffers: (validity, null count, offsets, data, large).
type Buffers = (Vec<u8>, usize, Vec<u8>, Vec<u8>, bool);

fn string_buffers(
    n: usize,
    items: impl Iterator<Item = Option<Vec<u8>>>,
    force_large: bool,
) -> Buffers {
    let mut data = Vec::new();
    let mut ends = Vec::with_capacity(n);
    let mut valid = Vec::with_capacity(n);
    for it in items {
        valid.push(it.is_some());
        if let Some(b) = it {
            data.extend_from_slice(&b);
        }
        ends.push(data.len());
    }
    let (bits, nulls) = bitmap(valid.into_iter(), n);
    let (offsets, large) = offsets_of(&ends, force_large);
    (bits, nulls, offsets, data, large)
}

/// Offsets `0, ends...` as i32 (or i64 when asked or past 2 GiB).
fn offsets_of(ends: &[usize], force_large: bool) -> (Vec<u8>, bool) {
    let large = force_large || ends.last().is_some_and(|&e| e > i32::MAX as usize);
    let mut out = Vec::with_capacity((ends.len() + 1) * if large { 8 } else { 4 });
    let mut push = |v: usize| {
        if large {
            out.extend_from_slice(&(v as i64).to_le_bytes());
        } else {
            out.extend_from_slice(&(v as i32).to_le_bytes());
        }
    };
    push(0);
    for &e in ends {
        push(e);
    }
    (out, large)
}

/// Reads Arrow `string`/`binary` (32-bit offsets) or `large_*` (64-bit)
/// buffers: entry `i` of a slice starting at `offset`.
struct ArrowIn<'a> {
    offset: usize,
    offsets: &'a [u8],
    large: bool,
    data: &'a [u8],
    validity: Option<&'a [u8]>,
}

impl<'a> ArrowIn<'a> {
    fn off(&self, j: usize) -> Option<usize> {
        if self.large {
            let b = self.offsets.get(j * 8..j * 8 + 8)?;
            usize::try_from(i64::from_le_bytes(b.try_into().ok()?)).ok()
        } else {
            let b = self.offsets.get(j * 4..j * 4 + 4)?;
            usize::try_from(i32::from_le_bytes(b.try_into().ok()?)).ok()
        }
    }

    fn get(&self, i: usize) -> Option<&'a [u8]> {
        let j = self.offset + i;
        if let Some(v) = self.validity {
            if v.get(j / 8).is_none_or(|b| b & (1 << (j % 8)) == 0) {
                return None;
            }
        }
        let (a, b) = (self.off(j)?, self.off(j + 1)?);
        self.data.get(a..b)
    }

    fn check(&self, n: usize) -> PyResult<()> {
        let w: usize = if self.large { 8 } else { 4 };
        let end = self.offset.checked_add(n).and_then(|e| e.checked_add(1));
        if end
            .and_then(|e| e.checked_mul(w))
            .is_none_or(|b| self.offsets.len() < b)
        {
            return Err(usage("offsets buffer shorter than the array"));
        }
        if let Some(v) = self.validity {
            if v.len().saturating_mul(8) < self.offset + n {
                return Err(usage("validity buffer shorter than the array"));
            }
        }
        Ok(())
    }
}

/// The result of a batch over Arrow buffers, for `irinorm._batch`:
/// `(large, validity, null_count, offsets, data, errors)` where `errors`
/// is itself `(validity, null_count, offsets, data, large)` and `offsets`
/// is empty for keys (`fixed_size_binary(16)`).
pub(crate) type ArrowOut<'py> = (
    bool,
    Bound<'py, PyBytes>,
    usize,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    (
        Bound<'py, PyBytes>,
        usize,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        bool,
    ),
);

#[allow(clippy::too_many_arguments)]
pub(crate) fn arrow<'py>(
    py: Python<'py>,
    p: &Engine,
    job: Job,
    n: usize,
    offset: usize,
    offsets: &Bound<'py, PyBytes>,
    large: bool,
    data: &Bound<'py, PyBytes>,
    validity: Option<&Bound<'py, PyBytes>>,
) -> PyResult<ArrowOut<'py>> {
    let input = ArrowIn {
        offset,
        offsets: offsets.as_bytes(),
        large,
        data: data.as_bytes(),
        validity: validity.map(|v| v.as_bytes()),
    };
    input.check(n)?;
    let (bits, nulls, offs, large_out, datas, errs) = py.detach(|| {
        let parts = run(p, job, n, |i| input.get(i));
        assemble(parts, job, n, large)
    });
    let total = datas.iter().map(Vec::len).sum();
    let data = PyBytes::new_with(py, total, |buf| {
        let mut at = 0;
        for d in &datas {
            buf[at..at + d.len()].copy_from_slice(d);
            at += d.len();
        }
        Ok(())
    })?;
    let (eb, en, eo, ed, el) = errs;
    Ok((
        large_out,
        PyBytes::new(py, &bits),
        nulls,
        PyBytes::new(py, &offs),
        data,
        (
            PyBytes::new(py, &eb),
            en,
            PyBytes::new(py, &eo),
            PyBytes::new(py, &ed),
            el,
        ),
    ))
}

/// The parts joined: validity, null count, offsets, large, the data of
/// each part (in order, copied once into the result by the caller), and
/// the error buffers.
type Joined = (Vec<u8>, usize, Vec<u8>, bool, Vec<Vec<u8>>, Buffers);

fn assemble(parts: Vec<Part>, job: Job, n: usize, large: bool) -> Joined {
    let mut ends = Vec::with_capacity(n);
    let mut valid = Vec::with_capacity(n);
    let mut errs: Vec<Option<Vec<u8>>> = vec![None; n];
    let mut datas = Vec::with_capacity(parts.len());
    let mut base = 0;
    for (c, part) in parts.into_iter().enumerate() {
        if let Job::Normalize = job {
            ends.extend(part.ends.iter().map(|e| e + base));
        }
        base += part.data.len();
        valid.extend_from_slice(&part.valid);
        for (i, m) in part.errs {
            errs[c * CHUNK + i] = Some(m.into_bytes());
        }
        datas.push(part.data);
    }
    let (bits, nulls) = bitmap(valid.into_iter(), n);
    let (offsets, large_out) = match job {
        Job::Normalize => offsets_of(&ends, large),
        Job::Key => (Vec::new(), false),
    };
    (
        bits,
        nulls,
        offsets,
        large_out,
        datas,
        string_buffers(n, errs.into_iter(), false),
    )
}

/// A batch over a Python sequence of `str`/`bytes`/`None`: `(results,
/// errors)`, two lists of the same length. Results have the type of their
/// input (`str`, `bytes`); keys are 16 `bytes`.
pub(crate) fn list<'py>(
    py: Python<'py>,
    p: &Engine,
    job: Job,
    items: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    // One copy of every input, so that the GIL can be released.
    let mut buf: Vec<u8> = Vec::new();
    let mut spans: Vec<Option<(usize, usize, bool)>> = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        if item.is_none() {
            spans.push(None);
        } else if let Ok(s) = item.cast::<PyString>() {
            let a = buf.len();
            buf.extend_from_slice(s.to_cow()?.as_bytes());
            spans.push(Some((a, buf.len(), false)));
        } else if let Ok(b) = item.cast::<PyBytes>() {
            let a = buf.len();
            buf.extend_from_slice(b.as_bytes());
            spans.push(Some((a, buf.len(), true)));
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "entry {} is {}, expected str, bytes or None",
                spans.len(),
                item.get_type().name()?
            )));
        }
    }
    let n = spans.len();
    let (parts, bytes_flags): (Vec<Part>, Vec<bool>) = py.detach(|| {
        let parts = run(p, job, n, |i| spans[i].map(|(a, b, _)| &buf[a..b]));
        (
            parts,
            spans.iter().map(|s| s.is_some_and(|x| x.2)).collect(),
        )
    });
    let results = PyList::empty(py);
    let errors = PyList::empty(py);
    for part in parts {
        let mut start = 0;
        let mut e = part.errs.into_iter().peekable();
        for (i, ok) in part.valid.iter().enumerate() {
            let global = results.len();
            let err = match e.peek() {
                Some((j, _)) if *j == i => e.next().map(|x| x.1),
                _ => None,
            };
            match job {
                Job::Normalize => {
                    let end = part.ends[i];
                    if *ok {
                        let t = &part.data[start..end];
                        if bytes_flags[global] {
                            results.append(PyBytes::new(py, t))?;
                        } else {
                            // The normalizer writes only UTF-8.
                            results.append(PyString::new(py, &String::from_utf8_lossy(t)))?;
                        }
                    } else {
                        results.append(py.None())?;
                    }
                    start = end;
                }
                Job::Key => {
                    if *ok {
                        results.append(PyBytes::new(py, &part.data[i * 16..i * 16 + 16]))?;
                    } else {
                        results.append(py.None())?;
                    }
                }
            }
            match err {
                Some(m) => errors.append(m)?,
                None => errors.append(py.None())?,
            }
        }
    }
    Ok((results, errors))
}
