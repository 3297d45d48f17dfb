//! `Normalizer`: options held for repeated use, and the batches over it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::batch::{self, ArrowArgs, ArrowOut, Job};
use crate::calls::{do_compare, do_equivalent, do_explain, do_key, do_key_text, do_normalize};
use crate::engine::Engine;
use crate::options::{Options, COMPARING, WITH_FORM};
use crate::settings::{self, Settings};

/// Options held for repeated use: built once (rules, settings file, base
/// parsed once), then `normalize`, `key`, `compare`... on many inputs.
/// Thread-safe; the batch methods release the GIL.
///
/// `rung="protocol"` with `evidence=` (a store of `irinorm evidence
/// ingest`), `redirects=` and `min_host_support=` is rung 3, as the CLI's
/// `--rung protocol --evidence`: the store's lookups are loaded once, here.
/// A settings file (`config=`) may hold learned `[[host-rule]]` sections.
///
/// >>> n = Normalizer(preset="crawler")
/// >>> n.normalize("HTTP://Example.COM.:80/a/./b?utm_source=x&id=7#top")
/// 'http://example.com/a/b?id=7'
#[pyclass(frozen, module = "irinorm", name = "Normalizer")]
pub(crate) struct PyNormalizer {
    p: Engine,
    settings: Settings,
    base: Option<String>,
}

impl PyNormalizer {
    fn of(py: Python<'_>, o: &Options<'_>) -> PyResult<Self> {
        Ok(PyNormalizer {
            p: o.build(py)?,
            settings: o.settings.clone(),
            base: o.base.clone(),
        })
    }
}

#[pymethods]
impl PyNormalizer {
    #[new]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
    fn new(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Self::of(py, &Options::parse("Normalizer", WITH_FORM, args, kwargs)?)
    }

    /// A `Normalizer` from the options of a call of `func` (for the
    /// batches: `normalize_many` takes `form`, `key_many` does not).
    #[staticmethod]
    #[pyo3(signature = (func, form, args, kwargs=None))]
    fn _for(
        py: Python<'_>,
        func: &str,
        form: bool,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let positional = if form { WITH_FORM } else { COMPARING };
        Self::of(py, &Options::parse(func, positional, args, kwargs)?)
    }

    /// The normal form of `url` (`str` or UTF-8 `bytes`; the result has
    /// the input's type). Raises `ParseError`.
    fn normalize<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        do_normalize(py, &self.p, url)
    }

    /// The 16-byte comparison key: xxh3-128 of `key_text(url)`, big-endian
    /// (the digest `irinorm dedupe --hash-keys` compares).
    fn key<'py>(&self, py: Python<'py>, url: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        do_key(py, &self.p, url)
    }

    /// The comparison key as text: what `irinorm dedupe` prints as `key`
    /// (always `uri` form; what comparison ignores is left out).
    fn key_text(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<String> {
        do_key_text(py, &self.p, url)
    }

    /// The lowest rung at which `a` and `b` are equivalent (`"string"`,
    /// `"syntax"`, `"scheme"`), or `None`; when only the named rules make
    /// them equal, the rung the rules ran on (as `irinorm compare`).
    fn compare(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<Option<&'static str>> {
        do_compare(py, &self.p, a, b)
    }

    /// Whether `a` and `b` have the same key.
    fn equivalent(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        do_equivalent(py, &self.p, a, b)
    }

    /// Every rung in both forms, each change with its rule and RFC section,
    /// and the named rules that fired: a dict.
    fn explain<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        do_explain(py, &self.p, url)
    }

    /// Batch over a sequence: `(results, errors)` lists.
    fn _normalize_list<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
        batch::list(py, &self.p, Job::Normalize, items)
    }

    fn _key_list<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
        batch::list(py, &self.p, Job::Key, items)
    }

    /// Batch over Arrow buffers (see `irinorm._batch`): `offsets`, `data`
    /// and `validity` are `bytes` or pyarrow `Buffer`s.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (n, offset, offsets, large, data, validity, key))]
    fn _arrow<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        offset: usize,
        offsets: Bound<'py, PyAny>,
        large: bool,
        data: Bound<'py, PyAny>,
        validity: Option<Bound<'py, PyAny>>,
        key: bool,
    ) -> PyResult<ArrowOut<'py>> {
        let job = if key { Job::Key } else { Job::Normalize };
        let args = ArrowArgs {
            n,
            offset,
            offsets,
            large,
            data,
            validity,
        };
        batch::arrow(py, &self.p, job, &args)
    }

    /// The rung in effect.
    #[getter]
    fn rung(&self) -> &'static str {
        if self.p.proto.is_some() {
            return "protocol";
        }
        self.p.normalizer().options().rung.name()
    }

    /// The output form.
    #[getter]
    fn form(&self) -> &'static str {
        self.p.normalizer().options().form.name()
    }

    /// The preset given, if any.
    #[getter]
    fn preset(&self) -> Option<String> {
        self.settings.preset.clone()
    }

    /// The named rules in effect (the preset's and `rules`), in the order
    /// they run.
    #[getter]
    fn rules(&self) -> Vec<&'static str> {
        self.p.rules().iter().map(|r| r.name()).collect()
    }

    /// The base references are resolved against, if any.
    #[getter]
    fn base(&self) -> Option<String> {
        self.base.clone()
    }

    fn __repr__(&self) -> String {
        let mut items: Vec<String> = settings::repr_items(&self.settings)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if let Some(b) = &self.base {
            items.push(format!("base={b:?}"));
        }
        format!("Normalizer({})", items.join(", "))
    }
}
