//! The options of the commands that normalize or compare: rung, form,
//! comparison options, scheme registry, named rules and presets. One
//! definition, flattened into `normalize`, `compare`, `explain` and
//! `dedupe`, so the same flags mean the same everywhere.

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use irinorm::ladder::{CharNorm, Form, Normalizer, Options, Rung, DEFAULT_MAX_LEN};
use irinorm::scheme::SchemeRegistry;
use irinorm_rules::{load_toml, Config, Pipeline, Preset, RuleSet};

use crate::common::{usage, CliError};

/// Normalization options (docs/cli.md, "Normalization").
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Normalization")]
pub(crate) struct LadderArgs {
    /// Highest rung of the comparison ladder: `string` (the identity),
    /// `syntax` (RFC 3986 §6.2.2: case, percent-encoding, dot segments) or
    /// `scheme` (§6.2.3: ports, empty paths, IDN, scheme rules). Default
    /// `scheme`.
    #[arg(long, value_name = "RUNG", value_parser = clap::builder::PossibleValuesParser::new(["string", "syntax", "scheme"]).map(|s| s.parse::<Rung>().unwrap_or_default()))]
    pub(crate) rung: Option<Rung>,

    /// Output alphabet: `uri` (ASCII: percent-encoded UTF-8, A-labels) or
    /// `iri` (readable: decoded UTF-8, U-labels). Comparison keys are
    /// always `uri`.
    #[arg(long, value_name = "FORM", default_value = "uri", value_parser = clap::builder::PossibleValuesParser::new(["uri", "iri"]).map(|s| s.parse::<Form>().unwrap_or_default()))]
    pub(crate) form: Form,

    /// Leave fragments out (RFC 3986 §6.1: comparing for a network action).
    #[arg(long)]
    pub(crate) ignore_fragment: bool,

    /// Resolve each reference against this base IRI first (RFC 3986 §5.2).
    #[arg(long, value_name = "BASE")]
    pub(crate) base: Option<String>,

    /// Apply Unicode NFC (RFC 3987 §5.3.2.2 forbids it by default).
    #[arg(long, conflicts_with = "nfkc")]
    pub(crate) nfc: bool,

    /// Apply Unicode NFKC (compatibility characters too).
    #[arg(long)]
    pub(crate) nfkc: bool,

    /// Scheme registry overrides, TOML `[schemes.NAME]` tables
    /// (docs/schemes.md).
    #[arg(long, value_name = "FILE")]
    pub(crate) schemes: Option<PathBuf>,

    /// Settings file (TOML): rule parameters, per-host settings, scheme
    /// overrides (docs/rules.md).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,

    /// A preset: `rfc` (rung scheme), `fetch` (+ remove-fragment),
    /// `crawler` (+ host dot, IPv4 forms, tracking parameters),
    /// `aggressive` (+ every unsafe rule with a default), `safebrowsing`
    /// (Google Safe Browsing's canonicalization: a lookup key, not an RFC
    /// normal form; no rung, no rules). See `irinorm presets`.
    #[arg(long, value_name = "PRESET", value_parser = clap::builder::PossibleValuesParser::new(["rfc", "fetch", "crawler", "aggressive", "safebrowsing"]).map(|s| s.parse::<Preset>().unwrap_or(Preset::Rfc)))]
    pub(crate) preset: Option<Preset>,

    /// Named normalizations, comma-separated (any of `irinorm presets
    /// --rules`); added to the preset's. They run in one fixed order
    /// whatever order they are listed in.
    #[arg(long, value_name = "RULES")]
    pub(crate) apply: Option<String>,

    /// Parameter names or globs for remove-query-params, comma-separated
    /// (replaces the tracking list).
    #[arg(long, value_name = "LIST")]
    pub(crate) query_params: Option<String>,

    /// File names for remove-directory-index, comma-separated.
    #[arg(long, value_name = "LIST")]
    pub(crate) directory_index: Option<String>,

    /// Names or globs for remove-session-ids, comma-separated.
    #[arg(long, value_name = "LIST")]
    pub(crate) session_ids: Option<String>,

    /// Hosts (or `*.suffix`) whose paths are case-insensitive, for
    /// lowercase-path, comma-separated.
    #[arg(long, value_name = "LIST")]
    pub(crate) case_insensitive_hosts: Option<String>,

    /// `IP=HOST` for ip-to-host; repeatable.
    #[arg(long, value_name = "IP=HOST")]
    pub(crate) ip_to_host: Vec<String>,

    /// Longer identifiers are rejected (too-long).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LEN)]
    pub(crate) max_len: usize,

    /// Repair what browsers accept but RFC 3986/3987 refuse (spaces, tabs,
    /// `\`, `|`, quotes, a bare `%`, `a#b#c`, `http:/a`...) before the
    /// ladder, naming each step (docs/repair.md). Off by default: exact.
    #[arg(long)]
    pub(crate) repair: bool,
}

/// `--repair`: the pass before the ladder, with the base's scheme (which
/// decides `same-scheme-relative`) and the count for the summary line.
#[derive(Debug, Default)]
pub(crate) struct Repairer {
    base_scheme: Option<String>,
}

impl Repairer {
    /// The repaired input, or `None` when repair changed nothing.
    pub(crate) fn run(&self, input: &str) -> Option<irinorm::repair::Repaired> {
        let r = irinorm::repair::repair(input, self.base_scheme.as_deref());
        if r.changed() {
            crate::common::count_repaired();
            Some(r)
        } else {
            None
        }
    }
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_owned)
        .collect()
}

fn read(path: &PathBuf) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))
}

impl LadderArgs {
    /// The rung in effect: `--rung`, else the preset's, else `scheme`.
    pub(crate) fn rung(&self) -> Rung {
        self.rung
            .or(self.preset.map(|p| p.rung()))
            .unwrap_or(Rung::Scheme)
    }

    /// The named rules in effect: the preset's and `--apply`'s.
    pub(crate) fn rules(&self) -> Result<RuleSet, CliError> {
        let preset = self.preset.map(|p| p.rule_set()).unwrap_or_default();
        let listed = match &self.apply {
            Some(s) => RuleSet::parse_list(s).map_err(CliError::Usage)?,
            None => RuleSet::EMPTY,
        };
        preset.union(listed).map_err(CliError::Usage)
    }

    /// The ladder options and rule parameters.
    pub(crate) fn parts(&self, form: Form) -> Result<(Options, Config), CliError> {
        let mut config = Config::default();
        let mut schemes = SchemeRegistry::builtin();
        for path in [&self.schemes, &self.config].into_iter().flatten() {
            load_toml(&read(path)?, &mut config, &mut schemes)
                .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        }
        if let Some(s) = &self.query_params {
            config.query_params = list(s);
        }
        if let Some(s) = &self.directory_index {
            config.directory_index = list(s);
        }
        if let Some(s) = &self.session_ids {
            config.session_ids = list(s);
        }
        if let Some(s) = &self.case_insensitive_hosts {
            config.case_insensitive_hosts = list(s);
        }
        for pair in &self.ip_to_host {
            let Some((ip, host)) = pair.split_once('=') else {
                return usage(format!("--ip-to-host wants IP=HOST, not {pair:?}"));
            };
            config
                .ip_to_host
                .insert(ip.trim().to_owned(), host.trim().to_owned());
        }
        let char_norm = if self.nfc {
            CharNorm::Nfc
        } else if self.nfkc {
            CharNorm::Nfkc
        } else {
            CharNorm::None
        };
        let opts = Options {
            rung: self.rung(),
            form,
            ignore_fragment: self.ignore_fragment,
            char_norm,
            schemes,
            max_len: self.max_len,
            ..Options::default()
        };
        Ok((opts, config))
    }

    /// The normalizer with its base.
    /// The repair pass, when `--repair` is on.
    pub(crate) fn repairer(&self) -> Option<Repairer> {
        if !self.repair {
            return None;
        }
        crate::common::enable_repair_count();
        let base_scheme = self
            .base
            .as_deref()
            .and_then(|b| b.split_once(':'))
            .map(|(s, _)| s.to_owned());
        Some(Repairer { base_scheme })
    }

    pub(crate) fn normalizer(&self, opts: Options) -> Result<Normalizer, CliError> {
        let n = Normalizer::new(opts);
        match &self.base {
            Some(b) => n
                .with_base(b)
                .map_err(|e| CliError::Usage(format!("--base {b:?}: {e}"))),
            None => Ok(n),
        }
    }

    /// The full pipeline for output in `form`.
    pub(crate) fn pipeline(&self, form: Form) -> Result<Pipeline, CliError> {
        if let Some(p) = self.preset.filter(|p| p.is_lookup_key()) {
            // A lookup key has its own fixed algorithm: nothing to combine.
            if self.apply.is_some()
                || self.rung.is_some()
                || self.base.is_some()
                || form == Form::Iri
            {
                return usage(format!(
                    "--preset {p} is a lookup key (docs/rules.md): it takes no --apply, --rung, --base or --form iri"
                ));
            }
        }
        let (opts, config) = self.parts(form)?;
        let rules = self.rules()?;
        let p = Pipeline::new(self.normalizer(opts)?, rules, config);
        Ok(match self.preset {
            Some(preset) => p.with_lookup_key(preset),
            None => p,
        })
    }
}
