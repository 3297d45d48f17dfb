//! Batches over a Python sequence of `str`/`bytes`/`None`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;

use super::{run_entry, Entry, Job, Rejects, Source, KEY_CHUNK};
use crate::engine::Engine;

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
            match s.to_cow() {
                Ok(t) => input.buf.extend_from_slice(t.as_bytes()),
                // Lone surrogates: bytes that are not UTF-8, rejected for
                // this entry alone (`invalid-utf8` at the surrogate's
                // offset), not the whole batch (crate::text::str_bytes).
                Err(_) => input.buf.extend_from_slice(&crate::text::str_bytes(s)?),
            }
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
