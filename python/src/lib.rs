//! `irinorm._native`: the Python bindings of irinorm (docs/python.md). The
//! public, typed API is the `irinorm` package (`python/irinorm`), which
//! re-exports these functions and classes.
//!
//! Vocabulary and defaults are the CLI's (docs/cli.md): `rung`, `form`,
//! `preset`, `rules` (the CLI's `--apply`), `config` (`--config`, or its
//! parameters as a mapping), `base`, `ignore_fragment`, `nfc`, `nfkc`,
//! `max_len`, `repair`, and rung 3's `evidence`, `redirects`,
//! `min_host_support`, parsed in one place (`options.rs`).

#![forbid(unsafe_code)]

mod batch;
mod calls;
mod engine;
mod errors;
mod functions;
mod lint;
mod normalizer;
mod options;
mod reference;
mod settings;
mod text;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<normalizer::PyNormalizer>()?;
    m.add_class::<reference::Reference>()?;
    m.add_function(wrap_pyfunction!(functions::normalize, m)?)?;
    m.add_function(wrap_pyfunction!(functions::key, m)?)?;
    m.add_function(wrap_pyfunction!(functions::compare, m)?)?;
    m.add_function(wrap_pyfunction!(functions::equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(functions::explain, m)?)?;
    m.add_function(wrap_pyfunction!(functions::presets, m)?)?;
    m.add_function(wrap_pyfunction!(reference::parse, m)?)?;
    m.add_function(wrap_pyfunction!(reference::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(reference::to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(reference::to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(lint::lint, m)?)?;
    m.add_function(wrap_pyfunction!(lint::_surt, m)?)?;
    Ok(())
}
