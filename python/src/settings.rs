//! The options of `normalize`, `compare`, `key`... as the CLI reads them
//! (crates/irinorm-cli/src/ladder_args.rs), turned into an
//! `irinorm_rules::Pipeline`. Same names, same defaults, same order of
//! precedence: `rung` else the preset's rung else `scheme`; rules are the
//! preset's plus `rules`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use irinorm::ladder::{CharNorm, Form, Normalizer, Options, Rung, DEFAULT_MAX_LEN};
use irinorm::scheme::SchemeRegistry;
use irinorm_rules::{load_toml, Config, Pipeline, Preset, RuleSet};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::engine::Engine;
use crate::engine::Rung3;
use crate::errors::usage;
use irinorm::protocol::{Protocol, ProtocolOptions, RedirectPolicy, DEFAULT_MIN_HOST_SUPPORT};
use irinorm_evidence::{open_lookups, Lookups, Store};

/// Everything that decides a pipeline, as given from Python.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Settings {
    pub(crate) rung: Option<String>,
    pub(crate) form: Option<String>,
    pub(crate) preset: Option<String>,
    pub(crate) rules: Option<String>,
    pub(crate) ignore_fragment: bool,
    pub(crate) nfc: bool,
    pub(crate) nfkc: bool,
    pub(crate) max_len: Option<usize>,
    pub(crate) repair: bool,
    /// Rung 3: which redirects are edges (the CLI's `--redirects`).
    pub(crate) redirects: Option<String>,
    /// Rung 3: the CLI's `--min-host-support`.
    pub(crate) min_host_support: Option<u32>,
}

/// `rules` as a comma-separated string or a sequence of names.
pub(crate) fn rules_text(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(r) = rules else { return Ok(None) };
    if r.is_none() {
        return Ok(None);
    }
    if let Ok(s) = r.cast::<PyString>() {
        return Ok(Some(s.to_cow()?.into_owned()));
    }
    let mut names = Vec::new();
    for item in r.try_iter()? {
        names.push(item?.extract::<String>()?);
    }
    Ok(Some(names.join(",")))
}

fn list(v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s
            .to_cow()?
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_owned)
            .collect());
    }
    v.try_iter()?.map(|i| i?.extract::<String>()).collect()
}

/// The rule parameters and scheme overrides of `config`: a path to a
/// settings file (TOML, docs/rules.md) or a mapping with the keys
/// `query_params`, `directory_index`, `session_ids`,
/// `case_insensitive_hosts` (lists of names) and `ip_to_host` (a mapping),
/// plus `toml` (the text of a settings file, read first).
fn config_of(
    py: Python<'_>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Config, SchemeRegistry)> {
    let mut cfg = Config::default();
    let mut schemes = SchemeRegistry::builtin();
    let Some(c) = config else {
        return Ok((cfg, schemes));
    };
    if c.is_none() {
        return Ok((cfg, schemes));
    }
    if let Ok(d) = c.cast::<PyDict>() {
        if let Some(t) = d.get_item("toml")? {
            let text: String = t.extract()?;
            load_toml(&text, &mut cfg, &mut schemes)
                .map_err(|e| usage(format!("config['toml']: {e}")))?;
        }
        for (k, v) in d.iter() {
            let k: String = k.extract()?;
            match k.as_str() {
                "toml" => {}
                "query_params" => cfg.query_params = list(&v)?,
                "directory_index" => cfg.directory_index = list(&v)?,
                "session_ids" => cfg.session_ids = list(&v)?,
                "case_insensitive_hosts" => cfg.case_insensitive_hosts = list(&v)?,
                "ip_to_host" => {
                    let m = v.cast::<PyDict>().map_err(|_| {
                        usage("config['ip_to_host'] must be a mapping of IP to host")
                    })?;
                    for (ip, host) in m.iter() {
                        cfg.ip_to_host.insert(
                            ip.extract::<String>()?.trim().to_owned(),
                            host.extract::<String>()?.trim().to_owned(),
                        );
                    }
                }
                "learned_rules" => {
                    // A rules file of `irinorm learn` ([[host-rule]]
                    // sections, docs/learning.md): read after `toml`, as
                    // the CLI reads --config after --schemes.
                    let path = fspath(py, &v)?;
                    load_toml(&read(&path)?, &mut cfg, &mut schemes)
                        .map_err(|e| usage(format!("{path}: {e}")))?;
                }
                other => {
                    return Err(usage(format!(
                        "unknown config key {other:?} (toml, learned_rules, query_params, \
                         directory_index, session_ids, case_insensitive_hosts, ip_to_host)"
                    )))
                }
            }
        }
        return Ok((cfg, schemes));
    }
    // A path (str or os.PathLike): the settings file of `--config`,
    // `[[host-rule]]` sections included.
    let path = fspath(py, c)?;
    load_toml(&read(&path)?, &mut cfg, &mut schemes).map_err(|e| usage(format!("{path}: {e}")))?;
    Ok((cfg, schemes))
}

/// `os.fspath(v)` as a string: a `str` or an `os.PathLike`.
fn fspath(py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<String> {
    py.import("os")?
        .call_method1("fspath", (v,))?
        .extract::<String>()
}

fn read(path: &str) -> PyResult<String> {
    std::fs::read_to_string(path)
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{path}: {e}")))
}

/// The evidence store of `evidence=` (the CLI's `--evidence`) and its
/// rung-3 lookups, as the CLI opens them (`open_lookups`): mapped from the
/// lookup file beside the store when it is current, otherwise read from
/// the store once and the file written for later calls.
fn load_evidence(py: Python<'_>, evidence: &Bound<'_, PyAny>) -> PyResult<Arc<Lookups>> {
    let path = fspath(py, evidence)?;
    if !std::path::Path::new(&path).is_file() {
        return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
            "evidence {path:?}: no such store (see `irinorm evidence ingest`)"
        )));
    }
    let ev = py.detach(|| {
        let db = std::path::Path::new(&path);
        let store = Store::open(db)?;
        open_lookups(&store, db).map(|(lookups, _note)| lookups)
    });
    ev.map(Arc::new)
        .map_err(|e| usage(format!("evidence {path:?}: {e}")))
}

impl Settings {
    /// Whether `rung="protocol"` (rung 3) was asked for.
    fn is_protocol(&self) -> bool {
        self.rung
            .as_deref()
            .is_some_and(|r| r.eq_ignore_ascii_case("protocol"))
    }

    /// The ladder rung of the pipeline: `protocol` builds on `scheme`, as
    /// the CLI's `--rung protocol`.
    fn rung(&self, preset: Option<Preset>) -> PyResult<Rung> {
        match &self.rung {
            _ if self.is_protocol() => Ok(Rung::Scheme),
            Some(r) => r.parse::<Rung>().map_err(usage),
            None => Ok(preset.map(|p| p.rung()).unwrap_or(Rung::Scheme)),
        }
    }

    fn preset(&self) -> PyResult<Option<Preset>> {
        self.preset
            .as_deref()
            .map(|p| p.parse::<Preset>().map_err(usage))
            .transpose()
    }

    /// The output form (`uri` unless given).
    pub(crate) fn form(&self) -> PyResult<Form> {
        match &self.form {
            Some(f) => f.parse::<Form>().map_err(usage),
            None => Ok(Form::Uri),
        }
    }

    /// The pipeline, as the CLI builds it from the same flags.
    pub(crate) fn pipeline(
        &self,
        py: Python<'_>,
        config: Option<&Bound<'_, PyAny>>,
        base: Option<&str>,
        evidence: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Engine> {
        let evidence = evidence.filter(|e| !e.is_none());
        if self.is_protocol() && evidence.is_none() {
            return Err(usage(
                "rung='protocol' needs evidence= (a store of `irinorm evidence ingest`)",
            ));
        }
        if !self.is_protocol()
            && (evidence.is_some() || self.redirects.is_some() || self.min_host_support.is_some())
        {
            // The CLI ignores --evidence without --rung protocol; a
            // silently ignored store would be worse than an error here.
            return Err(usage(
                "evidence=, redirects= and min_host_support= are options of rung='protocol'",
            ));
        }
        if self.nfc && self.nfkc {
            return Err(usage("nfc and nfkc cannot be combined"));
        }
        let preset = self.preset()?;
        if let Some(p) = preset.filter(|p| p.is_lookup_key()) {
            // A lookup key has its own fixed algorithm (docs/rules.md), as
            // the CLI says: nothing to combine it with.
            if self.rules.is_some()
                || self.rung.is_some()
                || base.is_some()
                || self.form()? == Form::Iri
            {
                return Err(usage(format!(
                    "preset {:?} is a lookup key: it takes no rules, rung, base or form='iri'",
                    p.name()
                )));
            }
        }
        let listed = match &self.rules {
            Some(s) => RuleSet::parse_list(s).map_err(usage)?,
            None => RuleSet::EMPTY,
        };
        let rules = preset
            .map(|p| p.rule_set())
            .unwrap_or_default()
            .union(listed)
            .map_err(usage)?;
        let (cfg, schemes) = config_of(py, config)?;
        let opts = Options {
            rung: self.rung(preset)?,
            form: self.form()?,
            ignore_fragment: self.ignore_fragment,
            char_norm: if self.nfc {
                CharNorm::Nfc
            } else if self.nfkc {
                CharNorm::Nfkc
            } else {
                CharNorm::None
            },
            schemes,
            max_len: self.max_len.unwrap_or(DEFAULT_MAX_LEN),
            ..Options::default()
        };
        let proto = match evidence {
            None => None,
            Some(e) => {
                let popts = ProtocolOptions {
                    redirects: match &self.redirects {
                        Some(r) => r.parse::<RedirectPolicy>().map_err(usage)?,
                        None => RedirectPolicy::default(),
                    },
                    min_host_support: self.min_host_support.unwrap_or(DEFAULT_MIN_HOST_SUPPORT),
                };
                let mut p = Protocol::new(opts.clone(), load_evidence(py, e)?, popts);
                if let Some(b) = base {
                    p = p
                        .with_base(b)
                        .map_err(|e| usage(format!("base {b:?} is not an absolute IRI: {e}")))?;
                }
                Some(Rung3 {
                    p,
                    with_rules: !rules.is_empty(),
                })
            }
        };
        let mut n = Normalizer::new(opts);
        if let Some(b) = base {
            n = n
                .with_base(b)
                .map_err(|e| usage(format!("base {b:?} is not an absolute IRI: {e}")))?;
        }
        let p = Pipeline::new(n, rules, cfg);
        let p = match preset {
            Some(preset) => p.with_lookup_key(preset),
            None => p,
        };
        // The base's scheme decides how repair reads `//x` and `http:x`.
        let repair = self.repair.then(|| {
            base.and_then(|b| b.split_once(':'))
                .map(|(s, _)| s.to_owned())
        });
        Ok(Engine { p, repair, proto })
    }
}

/// Pipelines of the module-level functions, by settings, for calls without
/// `config` or `base` (a dozen at most in practice: the options are names).
static CACHE: Mutex<Option<HashMap<Settings, Arc<Engine>>>> = Mutex::new(None);

/// The pipeline of a call without options: no lock, no hashing.
static DEFAULT: OnceLock<Arc<Engine>> = OnceLock::new();

/// The pipeline for one call of a module-level function: cached when it
/// depends only on names, built afresh otherwise (use `Normalizer` then).
pub(crate) fn cached(
    py: Python<'_>,
    s: &Settings,
    config: Option<&Bound<'_, PyAny>>,
    base: Option<&str>,
    evidence: Option<&Bound<'_, PyAny>>,
) -> PyResult<Arc<Engine>> {
    // With a store, every call opens it again (it may have changed; a current
    // lookup file is only mapped): use
    // a `Normalizer` for repeated calls.
    let plain = config.is_none_or(|c| c.is_none())
        && base.is_none()
        && evidence.is_none_or(|e| e.is_none());
    if !plain {
        return Ok(Arc::new(s.pipeline(py, config, base, evidence)?));
    }
    if *s == Settings::default() {
        if let Some(p) = DEFAULT.get() {
            return Ok(p.clone());
        }
        let p = Arc::new(s.pipeline(py, None, None, None)?);
        return Ok(DEFAULT.get_or_init(|| p).clone());
    }
    let mut guard = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    if let Some(p) = map.get(s) {
        return Ok(p.clone());
    }
    let p = Arc::new(s.pipeline(py, None, None, None)?);
    if map.len() < 256 {
        map.insert(s.clone(), p.clone());
    }
    Ok(p)
}

/// A `(kind, value)` list for `__repr__`.
pub(crate) fn repr_items(s: &Settings) -> Vec<(String, String)> {
    let mut v = Vec::new();
    for (k, x) in [
        ("rung", &s.rung),
        ("form", &s.form),
        ("preset", &s.preset),
        ("rules", &s.rules),
        ("redirects", &s.redirects),
    ] {
        if let Some(x) = x {
            v.push((k.to_owned(), format!("{x:?}")));
        }
    }
    if let Some(n) = s.min_host_support {
        v.push(("min_host_support".into(), n.to_string()));
    }
    if s.ignore_fragment {
        v.push(("ignore_fragment".into(), "True".into()));
    }
    if s.repair {
        v.push(("repair".into(), "True".into()));
    }
    v
}
