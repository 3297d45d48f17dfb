//! The options of the commands that normalize or compare: rung, form,
//! comparison options, scheme registry, named rules and presets. One
//! definition, flattened into `normalize`, `compare`, `explain` and
//! `dedupe`, so the same flags mean the same everywhere.

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use irinorm::ladder::{CharNorm, Form, Normalizer, Options, Rung};
use irinorm::scheme::SchemeRegistry;
use irinorm_rules::{load_toml, Config, Pipeline, Preset, RuleSet};

use crate::common::{usage, CliError};
use crate::protocol_args::{ProtocolArgs, RungArg};

/// Normalization options (docs/cli.md, "Normalization").
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Normalization")]
pub(crate) struct LadderArgs {
    /// Highest rung of the comparison ladder: `string` (the identity),
    /// `syntax` (RFC 3986 §6.2.2: case, percent-encoding, dot segments) or
    /// `scheme` (§6.2.3: ports, empty paths, IDN, scheme rules) or
    /// `protocol` (§6.2.4: rung 3, with --evidence). Default `scheme`.
    #[arg(long, value_name = "RUNG", value_parser = crate::protocol_args::rung_parser())]
    pub(crate) rung: Option<RungArg>,

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

    #[command(flatten)]
    pub(crate) protocol: ProtocolArgs,

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

/// The largest settings file read: 256 MiB, far above any written by hand
/// or by `irinorm learn` (a rule is a few hundred bytes), so that
/// `--config /dev/zero` or a crawl given by mistake is refused instead of
/// filling the memory.
const MAX_SETTINGS: u64 = 256 << 20;

/// A settings file's text. Round 22: a file that is not UTF-8 is named
/// with the line and byte of the first bad byte (it was "stream did not
/// contain valid UTF-8"), and one larger than [`MAX_SETTINGS`] is refused.
fn read(path: &PathBuf) -> Result<String, CliError> {
    use std::io::Read;
    let err = |m: String| CliError::Usage(format!("{}: {m}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SETTINGS + 1).read_to_end(&mut bytes))
        .map_err(|e| err(e.to_string()))?;
    if bytes.len() as u64 > MAX_SETTINGS {
        return Err(err(format!(
            "larger than {} MiB: not a settings file",
            MAX_SETTINGS >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let b = e.as_bytes();
        let line = 1 + b[..at].iter().filter(|&&c| c == b'\n').count();
        err(format!("line {line}, byte {at}: not UTF-8"))
    })
}

impl LadderArgs {
    /// The ladder rung in effect: `--rung`, else the preset's, else
    /// `scheme` (also for `protocol`, which builds on it).
    pub(crate) fn rung(&self) -> Rung {
        match self.rung {
            Some(RungArg::Ladder(r)) => r,
            Some(RungArg::Protocol) => Rung::Scheme,
            None => self.preset.map(|p| p.rung()).unwrap_or(Rung::Scheme),
        }
    }

    /// Whether `--rung protocol` was asked for.
    pub(crate) fn is_protocol(&self) -> bool {
        self.rung == Some(RungArg::Protocol)
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

    /// The ladder options and rule parameters; `max_len` is `--max-len`
    /// (an input option: the reader enforces it first).
    pub(crate) fn parts(&self, form: Form, max_len: usize) -> Result<(Options, Config), CliError> {
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
            max_len,
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

    /// The full pipeline for output in `form`, refusing inputs longer than
    /// `max_len` bytes.
    pub(crate) fn pipeline(&self, form: Form, max_len: usize) -> Result<Pipeline, CliError> {
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
        let (opts, config) = self.parts(form, max_len)?;
        let rules = self.rules()?;
        let p = Pipeline::new(self.normalizer(opts)?, rules, config);
        Ok(match self.preset {
            Some(preset) => p.with_lookup_key(preset),
            None => p,
        })
    }
}
