//! The options every entry point takes, parsed from a call's arguments in
//! one place: the module functions (`normalize`, `key`, `compare`,
//! `equivalent`, `explain`), `Normalizer`, and through it the batches
//! (`normalize_many`, `key_many`) and `irinorm.spark`. The vocabulary and
//! defaults are the CLI's (docs/cli.md, docs/python.md):
//!
//! - positional or keyword, in this order: `rung`, `form` (not for the
//!   functions that compare, whose keys are always in `uri` form),
//!   `preset`, `rules`, `config`, `base`;
//! - keyword only: `ignore_fragment`, `nfc`, `nfkc`, `max_len`, `repair`,
//!   and rung 3's `evidence`, `redirects`, `min_host_support`.
//!
//! `None` for any of them is the default. An unknown keyword, too many
//! positional options or one given twice is a `TypeError`, as for a
//! Python function; a value of the wrong type too, naming the option.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::engine::Engine;
use crate::settings::{cached, rules_text, Settings};

/// The options taken positionally, after the inputs, by the entry points
/// that have an output form.
pub(crate) const WITH_FORM: &[&str] = &["rung", "form", "preset", "rules", "config", "base"];

/// ... and by those that compare (`key`, `compare`, `equivalent`,
/// `key_many`).
pub(crate) const COMPARING: &[&str] = &["rung", "preset", "rules", "config", "base"];

/// The keyword-only options.
const KEYWORD_ONLY: &[&str] = &[
    "ignore_fragment",
    "nfc",
    "nfkc",
    "max_len",
    "repair",
    "evidence",
    "redirects",
    "min_host_support",
];

/// One call's options: the names that decide a pipeline (`Settings`,
/// hashable, for the cache of the module functions) and the objects that
/// are read when it is built.
#[derive(Default)]
pub(crate) struct Options<'py> {
    pub(crate) settings: Settings,
    /// A settings file (path) or a mapping (`settings::config_of`).
    pub(crate) config: Option<Bound<'py, PyAny>>,
    pub(crate) base: Option<String>,
    /// The evidence store of rung 3 (a path).
    pub(crate) evidence: Option<Bound<'py, PyAny>>,
}

impl<'py> Options<'py> {
    /// The options of a call of `func`, which takes `positional` after its
    /// inputs.
    pub(crate) fn parse(
        func: &str,
        positional: &[&str],
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Self> {
        let mut o = Options::default();
        if args.len() > positional.len() {
            return Err(PyTypeError::new_err(format!(
                "{func}() takes at most {} positional options ({}), {} given",
                positional.len(),
                positional.join(", "),
                args.len()
            )));
        }
        for (name, v) in positional.iter().zip(args.iter()) {
            o.set(func, name, &v)?;
        }
        let Some(kwargs) = kwargs else { return Ok(o) };
        for (k, v) in kwargs.iter() {
            let k = k.cast::<PyString>()?.to_cow()?;
            let Some(name) = positional
                .iter()
                .chain(KEYWORD_ONLY)
                .find(|n| **n == k.as_ref())
            else {
                return Err(PyTypeError::new_err(format!(
                    "{func}() got an unexpected keyword argument '{k}' (options: {}, {})",
                    positional.join(", "),
                    KEYWORD_ONLY.join(", ")
                )));
            };
            if positional[..args.len()].contains(name) {
                return Err(PyTypeError::new_err(format!(
                    "{func}() got multiple values for argument '{name}'"
                )));
            }
            o.set(func, name, &v)?;
        }
        Ok(o)
    }

    fn set(&mut self, func: &str, name: &str, v: &Bound<'py, PyAny>) -> PyResult<()> {
        if v.is_none() {
            return Ok(());
        }
        let bad = |e: PyErr| PyTypeError::new_err(format!("{func}() argument '{name}': {e}"));
        let s = &mut self.settings;
        match name {
            "rung" => s.rung = Some(v.extract().map_err(bad)?),
            "form" => s.form = Some(v.extract().map_err(bad)?),
            "preset" => s.preset = Some(v.extract().map_err(bad)?),
            "rules" => s.rules = rules_text(Some(v)).map_err(bad)?,
            "config" => self.config = Some(v.clone()),
            "base" => self.base = Some(v.extract().map_err(bad)?),
            "ignore_fragment" => s.ignore_fragment = v.extract().map_err(bad)?,
            "nfc" => s.nfc = v.extract().map_err(bad)?,
            "nfkc" => s.nfkc = v.extract().map_err(bad)?,
            "max_len" => s.max_len = Some(v.extract().map_err(bad)?),
            "repair" => s.repair = v.extract().map_err(bad)?,
            "evidence" => self.evidence = Some(v.clone()),
            "redirects" => s.redirects = Some(v.extract().map_err(bad)?),
            "min_host_support" => s.min_host_support = Some(v.extract().map_err(bad)?),
            other => {
                // Names come from the lists above; kept total anyway.
                return Err(PyTypeError::new_err(format!(
                    "{func}(): no option '{other}'"
                )));
            }
        }
        Ok(())
    }

    /// The pipeline of one call of a module function: cached when it
    /// depends only on names (`settings::cached`).
    pub(crate) fn engine(&self, py: Python<'py>) -> PyResult<Arc<Engine>> {
        cached(
            py,
            &self.settings,
            self.config.as_ref(),
            self.base.as_deref(),
            self.evidence.as_ref(),
        )
    }

    /// A pipeline of its own (for `Normalizer`).
    pub(crate) fn build(&self, py: Python<'py>) -> PyResult<Engine> {
        self.settings.pipeline(
            py,
            self.config.as_ref(),
            self.base.as_deref(),
            self.evidence.as_ref(),
        )
    }
}
