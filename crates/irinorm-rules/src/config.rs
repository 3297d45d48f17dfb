//! The parameters of the named rules, their documented defaults, and the
//! TOML settings file the CLI reads (`--config FILE`), which can also
//! extend or override the scheme registry of rung 2.

use std::collections::BTreeMap;

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::scheme::{SchemeInfo, SchemeRegistry, Special};
use serde::Deserialize;

use crate::host_rules::{HostRule, HostRuleFile};

pub(crate) mod normal;

/// Directory-index file names `remove-directory-index` removes by default.
pub const DEFAULT_DIRECTORY_INDEX: &[&str] = &[
    "index.html",
    "index.htm",
    "index.shtml",
    "index.xhtml",
    "index.php",
    "index.asp",
    "index.aspx",
    "index.jsp",
    "index.cgi",
    "index.pl",
    "default.htm",
    "default.html",
    "default.asp",
    "default.aspx",
];

/// Query parameters `remove-query-params` removes by default: tracking and
/// click-identifier parameters of analytics and ad platforms. Names or
/// globs (`*` matches any run of bytes), compared ASCII case-insensitively.
pub const DEFAULT_TRACKING_PARAMS: &[&str] = &[
    "utm_*",       // Google Analytics campaign parameters
    "gclid",       // Google Ads click id
    "gclsrc",      // Google Ads
    "dclid",       // Google Display & Video 360
    "gbraid",      // Google Ads (iOS)
    "wbraid",      // Google Ads (web to app)
    "_ga",         // Google Analytics cross-domain
    "_gl",         // Google Analytics cross-domain linker
    "fbclid",      // Meta click id
    "igshid",      // Instagram share id
    "msclkid",     // Microsoft Advertising click id
    "yclid",       // Yandex click id
    "twclid",      // X (Twitter) click id
    "ttclid",      // TikTok click id
    "li_fat_id",   // LinkedIn
    "mc_cid",      // Mailchimp campaign id
    "mc_eid",      // Mailchimp email id
    "mkt_tok",     // Marketo
    "_hsenc",      // HubSpot
    "_hsmi",       // HubSpot
    "hsa_*",       // HubSpot ads
    "oly_anon_id", // Omeda
    "oly_enc_id",  // Omeda
    "vero_id",     // Vero
    "rb_clickid",  // Rakuten
    "s_cid",       // Adobe Analytics
    "ref_src",     // X (Twitter) referral
];

/// Session-id parameter names `remove-session-ids` removes by default, in
/// the query and as `;name=value` path parameters (globs, ASCII
/// case-insensitive).
pub const DEFAULT_SESSION_IDS: &[&str] = &[
    "jsessionid",    // Java servlets
    "phpsessid",     // PHP
    "aspsessionid*", // classic ASP (ASPSESSIONIDxxxxxxxx)
    "sid",
    "sessionid",
    "session_id",
    "cfid",    // ColdFusion
    "cftoken", // ColdFusion
    "oscsid",  // osCommerce
    "zenid",   // Zen Cart
];

/// A parameter whose value is the default for some host and path prefix:
/// `remove-default-query-params` drops `name=value` there.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DefaultParam {
    /// Host (exact, or `*.example.com` for any subdomain).
    pub host: String,
    /// Path prefix (`/` for every path).
    #[serde(default = "root")]
    pub path: String,
    /// Parameter name (exact bytes as in the normalized URL).
    pub name: String,
    /// Default value (exact bytes).
    pub value: String,
}

fn root() -> String {
    "/".to_owned()
}

/// Parameters of the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// File names for `remove-directory-index`.
    pub directory_index: Vec<String>,
    /// Names/globs for `remove-query-params`.
    pub query_params: Vec<String>,
    /// Names/globs for `remove-session-ids`.
    pub session_ids: Vec<String>,
    /// Entries for `remove-default-query-params`.
    pub default_params: Vec<DefaultParam>,
    /// Hosts (exact or `*.suffix`) for `lowercase-path`.
    pub case_insensitive_hosts: Vec<String>,
    /// IP address (as written in the normal form: dotted IPv4, `[v6]`) to
    /// host name, for `ip-to-host`.
    pub ip_to_host: BTreeMap<String, String>,
    /// `[[host-rule]]` sections, for `host-rules` (written by `irinorm
    /// learn` or by hand).
    pub host_rules: Vec<HostRule>,
}

fn owned(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

impl Default for Config {
    fn default() -> Self {
        Config {
            directory_index: owned(DEFAULT_DIRECTORY_INDEX),
            query_params: owned(DEFAULT_TRACKING_PARAMS),
            session_ids: owned(DEFAULT_SESSION_IDS),
            default_params: Vec::new(),
            case_insensitive_hosts: Vec::new(),
            ip_to_host: BTreeMap::new(),
            host_rules: Vec::new(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct FileRules {
    directory_index: Option<Vec<String>>,
    query_params: Option<Vec<String>>,
    extra_query_params: Option<Vec<String>>,
    session_ids: Option<Vec<String>>,
    case_insensitive_hosts: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct FileScheme {
    default_port: Option<u16>,
    #[serde(default)]
    dns_host: bool,
    #[serde(default)]
    empty_path_is_root: bool,
    normalizer: Option<String>,
    #[serde(default)]
    forget: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct File {
    #[serde(default)]
    rules: FileRules,
    #[serde(default)]
    ip_to_host: BTreeMap<String, String>,
    #[serde(default)]
    default_params: Vec<DefaultParam>,
    #[serde(default)]
    schemes: BTreeMap<String, FileScheme>,
    /// With their place in the file, so that a refused rule is named by
    /// its line (round 22).
    #[serde(default)]
    host_rule: Vec<toml::Spanned<HostRuleFile>>,
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    1 + text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Reads a settings file (TOML, format in docs/rules.md) into rule
/// parameters and scheme registry overrides, starting from `config` and
/// `schemes`.
pub fn load_toml(
    text: &str,
    config: &mut Config,
    schemes: &mut SchemeRegistry,
) -> Result<(), String> {
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    if let Some(v) = f.rules.directory_index {
        config.directory_index = v;
    }
    if let Some(v) = f.rules.query_params {
        config.query_params = v;
    }
    if let Some(v) = f.rules.extra_query_params {
        config.query_params.extend(v);
    }
    if let Some(v) = f.rules.session_ids {
        config.session_ids = v;
    }
    if let Some(v) = f.rules.case_insensitive_hosts {
        config.case_insensitive_hosts = v;
    }
    config.ip_to_host.extend(f.ip_to_host);
    config.default_params.extend(f.default_params);
    // Each problem of one rule is named by the line of its section (the
    // TOML parser names its own errors' lines); rules of an earlier file
    // (a `--schemes` file, then `--config`) were checked there.
    let first = config.host_rules.len();
    let mut lines = Vec::with_capacity(f.host_rule.len());
    for r in f.host_rule {
        let line = line_of(text, r.span().start);
        let rule = r
            .into_inner()
            .into_rule()
            .map_err(|e| format!("line {line}: {e}"))?;
        lines.push(line);
        config.host_rules.push(rule);
    }
    let line = |i: usize| i.checked_sub(first).and_then(|k| lines.get(k));
    crate::host_rules::check_alias_chains(&config.host_rules)?;
    // The aliases once their hosts are written as each form writes them
    // (two spellings of one host can close a cycle: `normal.rs`).
    // Each rule's text must be text the normal form can hold where the
    // rule writes it (`normal::host_rule`).
    for form in [Form::Uri, Form::Iri] {
        let norm = Normalizer::new(Options::new(Rung::Scheme, form));
        let rules = config
            .host_rules
            .iter()
            .enumerate()
            .map(|(i, r)| {
                normal::host_rule(&norm, r).map_err(|e| match line(i) {
                    Some(n) => format!("line {n}: {e}"),
                    None => e,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        crate::host_rules::check_alias_chains(&rules)
            .map_err(|e| format!("{e} (with the hosts written in the {} form)", form.name()))?;
    }
    for (name, s) in f.schemes {
        if !is_scheme_name(&name) {
            return Err(format!(
                "[schemes.{name}]: not a scheme name (RFC 3986 §3.1)"
            ));
        }
        if s.forget {
            schemes.forget(&name);
            continue;
        }
        let special = match s.normalizer.as_deref() {
            None => Special::None,
            Some(n) => Special::from_name(n).ok_or_else(|| {
                format!(
                    "[schemes.{name}] normalizer {n:?}: one of none, file, mailto, urn, tel, data"
                )
            })?,
        };
        schemes.insert(
            &name,
            SchemeInfo {
                default_port: s.default_port,
                dns_host: s.dns_host,
                empty_path_is_root: s.empty_path_is_root,
                special,
            },
        );
    }
    // With the registry as this file leaves it (a `--schemes` file is
    // loaded first): an `alias-scheme` the pipeline would leave out is
    // refused here, with the rule and the reason (round 17,
    // `host_rules::HostSchemes`).
    crate::host_rules::check_scheme_aliases(&config.host_rules, schemes)?;
    Ok(())
}

pub(crate) fn is_scheme_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_settings() {
        let text = r#"
[rules]
extra-query-params = ["ref"]
case-insensitive-hosts = ["*.example.org"]

[ip-to-host]
"127.0.0.1" = "localhost"

[[default-params]]
host = "shop.example"
path = "/list"
name = "page"
value = "1"

[schemes.myproto]
default-port = 7070
dns-host = true
empty-path-is-root = true

[schemes.gopher]
forget = true
"#;
        let mut c = Config::default();
        let mut s = SchemeRegistry::builtin();
        load_toml(text, &mut c, &mut s).unwrap();
        assert!(c.query_params.contains(&"ref".to_owned()));
        assert!(c.query_params.contains(&"utm_*".to_owned()));
        assert_eq!(c.ip_to_host["127.0.0.1"], "localhost");
        assert_eq!(c.default_params[0].path, "/list");
        assert_eq!(s.get("myproto").unwrap().default_port, Some(7070));
        assert!(s.get("gopher").is_none());
        assert!(load_toml("[rules]\nnope = 1", &mut c, &mut s).is_err());
        assert!(load_toml("[schemes.\"1x\"]\ndns-host = true", &mut c, &mut s).is_err());
    }

    /// Round 22: a host rule whose `host` no normal form holds (a space, a
    /// port, an unclosed IP literal, `*.` alone) was kept and never
    /// applied, without a word; it is refused, and every problem of one
    /// rule is named by the line of its section.
    #[test]
    fn host_rules_with_impossible_hosts_are_refused_at_their_line() {
        for host in [
            "a b",
            "a.example:80",
            "[::1",
            "*.",
            "",
            "a/b",
            "u@a.example",
        ] {
            let text = format!(
                "# rules\n\n[[host-rule]]\nhost = \"a.example\"\nrule = \"lowercase-path\"\n\n[[host-rule]]\nhost = {host:?}\nrule = \"sort-query\"\n"
            );
            let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
            let e = load_toml(&text, &mut c, &mut s).unwrap_err();
            assert!(e.starts_with("line 7: [[host-rule]]"), "{host:?}: {e}");
        }
        // Any spelling of a host, a suffix pattern, an IP literal: loaded.
        for host in [
            "B\u{fc}cher.Example",
            "*.xn--bcher-kva.example",
            "[::1]",
            "192.0.2.1",
        ] {
            let text = format!("[[host-rule]]\nhost = {host:?}\nrule = \"sort-query\"\n");
            let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
            load_toml(&text, &mut c, &mut s).unwrap_or_else(|e| panic!("{host:?}: {e}"));
        }
        // The checks of `into_rule` too.
        let text = "\n[[host-rule]]\nhost = \"a.example\"\nrule = \"nope\"\n";
        let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
        let e = load_toml(text, &mut c, &mut s).unwrap_err();
        assert!(e.starts_with("line 2: "), "{e}");
    }

    /// Two spellings of one host close an alias cycle that the spellings
    /// hide; the loader writes the hosts as each form writes them and
    /// refuses the file (`config/normal.rs`).
    #[test]
    fn alias_cycles_through_spellings_are_refused() {
        let text = r#"
[[host-rule]]
host = "bücher.example"
rule = "alias-host"
to = "a.example"

[[host-rule]]
host = "a.example"
rule = "alias-host"
to = "XN--BCHER-KVA.example"
"#;
        let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
        let e = load_toml(text, &mut c, &mut s).unwrap_err();
        assert!(
            e.contains("cycle") && e.contains("written in the uri form"),
            "{e}"
        );
        // One spelling of each host, no cycle: loaded.
        let text = text.replace("XN--BCHER-KVA.example", "c.example");
        let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
        load_toml(&text, &mut c, &mut s).unwrap();
    }
}
