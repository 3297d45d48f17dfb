//! The settings' text written as the ladder writes it, in the pipeline's
//! form (LADDER.md invariant 5, "forms agree": `to_uri(N_iri(x)) ==
//! N_uri(x)` for every option).
//!
//! The rules compare the settings' hosts, paths, names and values with the
//! bytes of the ladder's output, and those bytes differ by form: the host
//! `bücher.example` is `xn--bcher-kva.example` in the `uri` form (RFC 3987
//! §3.1: IDNA's ToASCII), the parameter `ß` is `%C3%9F`; in the `iri` form
//! (RFC 3987 §3.2) it is the other way round; `%7e` is `~` and `%c3%9f` is
//! `%C3%9F` in both (RFC 3986 §6.2.2.1-§6.2.2.2). A setting written in one
//! spelling used to match in one form only: a rules file with
//! `host = "bücher.example"` or `name = "ß"` changed the `iri` form and left
//! the `uri` form as it was, so the two forms of one URL disagreed.
//! [`crate::Pipeline::new`] now writes each text setting through the
//! pipeline's own normalizer, in the place of a URL where the rules look
//! for it: a host as a host, a path prefix as a path, a parameter name or
//! value as query text.
//!
//! Text the ladder would reject, or whose meaning the embedding would
//! change (a path holding a dot segment, which rung 1 removes; a host with
//! a port or userinfo), is left as written: the normal forms never hold it
//! anyway. ASCII text without `%` (every default list), and hosts of
//! lower-case ASCII labels, are kept without a call: the ladder leaves them
//! as they are in both forms.

use std::borrow::Cow;

use irinorm::ladder::Normalizer;

use crate::host_rules::{HostRule, HostRuleKind};
use crate::Config;

/// Where the rules look for a piece of text in a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A host (exact; `*.suffix` is handled by [`host_pattern`]).
    Host,
    /// Path text: a prefix, a segment, part of a segment.
    Path,
    /// Query text: a parameter's name or value.
    Query,
}

/// `text` as `norm` writes it at `place` (see the module's doc), or `text`
/// itself when the ladder would not keep it whole.
pub(crate) fn piece<'a>(norm: &Normalizer, place: Place, text: &'a str) -> Cow<'a, str> {
    let plain = match place {
        Place::Host => plain_host(text),
        Place::Path | Place::Query => text.is_ascii() && !text.contains('%'),
    };
    if text.is_empty() || plain {
        return Cow::Borrowed(text);
    }
    written(norm, place, text).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// Whether the ladder writes the host `text` as it is in both forms: labels
/// of lower-case ASCII letters, digits, `-` and `_` that start with a
/// letter (no IPv4 form, no upper case, no A-label, which the `iri` form
/// writes as its U-label).
fn plain_host(text: &str) -> bool {
    text.split('.').all(|l| {
        l.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
            && !l.starts_with("xn--")
            && l.bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_')
    })
}

/// A host: `http://HOST/` normalized, the host taken back. A host with
/// `/`, `?`, `#`, `@` or a port is left alone (the embedding would read
/// part of it as another component).
fn host(norm: &Normalizer, text: &str) -> Option<String> {
    let bare = text.strip_prefix('[').map_or(text, |_| "");
    if text.contains(['/', '?', '#', '@', '\\']) || bare.contains(':') {
        return None;
    }
    let url = format!("http://{text}/");
    let out = norm.normalize(&url).ok()?;
    let h = out.strip_prefix("http://")?.strip_suffix('/')?;
    (!h.is_empty() && !h.contains(['/', '@'])).then(|| h.to_owned())
}

/// Path text: between two `_` (so that neither end can be read as a dot
/// segment, RFC 3986 §5.2.4) in the path of `http://h/`. Left alone when
/// it holds `?` or `#`, or when the ladder removed a segment (a dot
/// segment inside it: no normal path holds one).
fn path(norm: &Normalizer, text: &str) -> Option<String> {
    if text.contains(['?', '#']) {
        return None;
    }
    let url = format!("http://h/_{text}_");
    let out = norm.normalize(&url).ok()?;
    let inner = out.strip_prefix("http://h/_")?.strip_suffix('_')?;
    (inner.matches('/').count() == text.matches('/').count()).then(|| inner.to_owned())
}

/// Query text: the query of `http://h/?TEXT`. Left alone when it holds
/// `#` (it would end the query).
fn query(norm: &Normalizer, text: &str) -> Option<String> {
    if text.contains('#') {
        return None;
    }
    let url = format!("http://h/?{text}");
    let out = norm.normalize(&url).ok()?;
    out.strip_prefix("http://h/?").map(str::to_owned)
}

/// A host or a `*.suffix` pattern.
pub(crate) fn host_pattern(norm: &Normalizer, pattern: &str) -> String {
    match pattern.strip_prefix("*.") {
        Some(suffix) => format!("*.{}", piece(norm, Place::Host, suffix)),
        None => piece(norm, Place::Host, pattern).into_owned(),
    }
}

/// A host rule's `host` as [`host_pattern`] writes it, or `None` when no
/// URL's normal form has such a host: a rule on `a b`, `a.example:80` or
/// `[::1` was kept and never applied, without a word (round 22). The host
/// is written by a call (RFC 3986 §3.2.2 reg-name or IP literal, UTS #46
/// for a DNS name) unless it is plain ([`plain_host`]).
fn rule_host(norm: &Normalizer, pattern: &str) -> Option<String> {
    let (star, h) = match pattern.strip_prefix("*.") {
        Some(suffix) => ("*.", suffix),
        None => ("", pattern),
    };
    if h.is_empty() {
        return None;
    }
    if plain_host(h) {
        return Some(pattern.to_owned());
    }
    written(norm, Place::Host, h).map(|w| format!("{star}{w}"))
}

/// `path?query` text (a substitution's `from` and `to`): the part before
/// the first `?` as path text, the rest as query text; `None` when the
/// ladder does not write a part whole.
fn path_query(norm: &Normalizer, text: &str) -> Option<String> {
    match text.split_once('?') {
        Some((p, q)) => Some(format!(
            "{}?{}",
            written(norm, Place::Path, p)?,
            written(norm, Place::Query, q)?
        )),
        None => written(norm, Place::Path, text),
    }
}

/// `text` as the ladder writes it at `place`, always by a call (no ASCII
/// shortcut: this also checks that the text is valid there), or `None`.
fn written(norm: &Normalizer, place: Place, text: &str) -> Option<String> {
    if text.is_empty() {
        return Some(String::new());
    }
    match place {
        Place::Host => host(norm, text),
        Place::Path => path(norm, text),
        Place::Query => query(norm, text),
    }
}

/// One host rule in the form of `norm`, or why it cannot be. Text a rule
/// writes into the output (a substitution's `to`, an `alias-host` or
/// `alias-scheme` target) must be text the ladder writes whole in its
/// place: `to = "%"` or `"a b"` would make the output invalid (a
/// substitution's `from` likewise, so that the two compare as written). A
/// substitution must still shorten the text once both sides are written
/// so (`%7E%7E%7E` -> `abcdefgh` is `~~~` -> `abcdefgh`, which would not
/// terminate; as written it never matched a normal form, none holds
/// `%7E`). The settings loader reports these; [`in_form`] drops them from
/// a [`Config`] built in code.
pub(crate) fn host_rule(norm: &Normalizer, r: &HostRule) -> Result<HostRule, String> {
    let q = |s: &str| piece(norm, Place::Query, s).into_owned();
    let bad = |what: &str, text: &str| {
        format!(
            "[[host-rule]] {} for {}: {what} {text:?} is not text a normal form can hold there",
            r.kind.name(),
            r.host
        )
    };
    let kind = match &r.kind {
        HostRuleKind::AliasHost { to } => HostRuleKind::AliasHost {
            to: written(norm, Place::Host, to).ok_or_else(|| bad("`to`", to))?,
        },
        HostRuleKind::AliasScheme { to } => {
            if !crate::config::is_scheme_name(to) {
                return Err(bad("`to`", to));
            }
            HostRuleKind::AliasScheme {
                to: to.to_ascii_lowercase(),
            }
        }
        HostRuleKind::Substitute { from, to } => {
            let f = path_query(norm, from).ok_or_else(|| bad("`from`", from))?;
            let t = path_query(norm, to).ok_or_else(|| bad("`to`", to))?;
            if !(t.len() < f.len() || (t.len() == f.len() && t < f)) {
                return Err(format!(
                    "[[host-rule]] substitute {from:?} -> {to:?} for {}: written as the normal form writes them ({f:?} -> {t:?}), `to` is not shorter than `from` (or as long and smaller), so the rule would not terminate",
                    r.host
                ));
            }
            HostRuleKind::Substitute { from: f, to: t }
        }
        HostRuleKind::DirectoryIndex { name } => HostRuleKind::DirectoryIndex {
            name: piece(norm, Place::Path, name).into_owned(),
        },
        HostRuleKind::IgnoreParam { name } => HostRuleKind::IgnoreParam { name: q(name) },
        HostRuleKind::DefaultParam { name, value } => HostRuleKind::DefaultParam {
            name: q(name),
            value: q(value),
        },
        k @ (HostRuleKind::LowercasePath
        | HostRuleKind::RemoveTrailingSlash
        | HostRuleKind::AddTrailingSlash
        | HostRuleKind::SortQuery) => k.clone(),
    };
    Ok(HostRule {
        host: rule_host(norm, &r.host).ok_or_else(|| {
            format!(
                "[[host-rule]] {} for {}: `host` is not a host (or `*.` and a host) a normal form can hold",
                r.kind.name(),
                r.host
            )
        })?,
        path: piece(norm, Place::Path, &r.path).into_owned(),
        kind,
        ..r.clone()
    })
}

/// The host rules in the form of `norm` ([`host_rule`]), those that
/// cannot be written so left out.
pub(crate) fn host_rules(norm: &Normalizer, rules: &[HostRule]) -> Vec<HostRule> {
    rules
        .iter()
        .filter_map(|r| host_rule(norm, r).ok())
        .collect()
}

/// Every text setting of `config` in the form of `norm` (see the module's
/// doc). The host rules' aliases are checked again once written so (two
/// spellings of one host in a file can close a cycle that the spellings
/// hid); the settings loader refuses such a file for either form, and a
/// [`Config`] built in code that has one keeps its host rules as written.
pub(crate) fn in_form(config: &mut Config, norm: &Normalizer) {
    let path = |s: &mut String| *s = piece(norm, Place::Path, s).into_owned();
    let query = |s: &mut String| *s = piece(norm, Place::Query, s).into_owned();
    config.directory_index.iter_mut().for_each(path);
    config.query_params.iter_mut().for_each(query);
    config.session_ids.iter_mut().for_each(query);
    for h in &mut config.case_insensitive_hosts {
        *h = host_pattern(norm, h);
    }
    for d in &mut config.default_params {
        d.host = host_pattern(norm, &d.host);
        d.path = piece(norm, Place::Path, &d.path).into_owned();
        d.name = piece(norm, Place::Query, &d.name).into_owned();
        d.value = piece(norm, Place::Query, &d.value).into_owned();
    }
    // A host name `ip-to-host` would write that no normal form can hold
    // is left out (the rule then leaves that address alone).
    config.ip_to_host = std::mem::take(&mut config.ip_to_host)
        .into_iter()
        .filter_map(|(ip, name)| Some((ip, written(norm, Place::Host, &name)?)))
        .collect();
    let rules = host_rules(norm, &config.host_rules);
    if crate::host_rules::check_alias_chains(&rules).is_ok() {
        config.host_rules = rules;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use irinorm::ladder::{Form, Options, Rung};

    fn norm(form: Form) -> Normalizer {
        Normalizer::new(Options::new(Rung::Scheme, form))
    }

    #[test]
    fn pieces_in_each_form() {
        let (u, i) = (norm(Form::Uri), norm(Form::Iri));
        let cases = [
            // place, text, uri form, iri form
            (
                Place::Host,
                "BÜCHER.example",
                "xn--bcher-kva.example",
                "bücher.example",
            ),
            (
                Place::Host,
                "xn--bcher-kva.example",
                "xn--bcher-kva.example",
                "bücher.example",
            ),
            (Place::Host, "A.Example", "a.example", "a.example"),
            (Place::Query, "ß", "%C3%9F", "ß"),
            (Place::Query, "%c3%9f", "%C3%9F", "ß"),
            (Place::Query, "%7e%41", "~A", "~A"),
            // Reserved triplets are never decoded (LADDER.md invariant 6).
            (Place::Query, "a%26b%3d", "a%26b%3D", "a%26b%3D"),
            (Place::Path, "/Ä/", "/%C3%84/", "/Ä/"),
            (
                Place::Path,
                "índice.html",
                "%C3%ADndice.html",
                "índice.html",
            ),
            // Ends that would be dot segments stay: `/a/.` prefixes `/a/.well-known`.
            (Place::Path, "/a/.", "/a/.", "/a/."),
            (Place::Path, "/a/%2e%2E", "/a/..", "/a/.."),
        ];
        for (place, text, want_u, want_i) in cases {
            assert_eq!(piece(&u, place, text), want_u, "uri {place:?} {text}");
            assert_eq!(piece(&i, place, text), want_i, "iri {place:?} {text}");
        }
        // Left as written: not a host, a dot segment inside, invalid text.
        for (place, text) in [
            (Place::Host, "a.example:8080"),
            (Place::Host, "u@ü.example"),
            (Place::Path, "/é/../b"),
            (Place::Query, "é#x"),
            (Place::Query, "é x"),
        ] {
            assert_eq!(piece(&u, place, text), text, "{place:?} {text}");
        }
        assert_eq!(
            host_pattern(&u, "*.Bücher.example"),
            "*.xn--bcher-kva.example"
        );
    }

    #[test]
    fn substitutions_that_stop_shortening_are_dropped() {
        let u = norm(Form::Uri);
        let rule = |from: &str, to: &str| {
            HostRule::learned(
                "a.example",
                "/",
                HostRuleKind::Substitute {
                    from: from.to_owned(),
                    to: to.to_owned(),
                },
            )
        };
        // `ü` -> `u`: `%C3%BC` -> `u` in the uri form, kept.
        let kept = host_rule(&u, &rule("/ü?ß=", "/u?s=")).expect("kept");
        assert_eq!(
            kept.kind,
            HostRuleKind::Substitute {
                from: "/%C3%BC?%C3%9F=".into(),
                to: "/u?s=".into()
            }
        );
        // `%7E%7E%7E` (9 bytes) -> `abcdefgh` (8) is `~~~` -> `abcdefgh`.
        assert!(host_rule(&u, &rule("%7E%7E%7E", "abcdefgh"))
            .unwrap_err()
            .contains("would not terminate"));
        // Text that would make the output invalid.
        for (from, to) in [("%C3%9F", "%C3%9"), ("ab", "%"), ("abc", "a b"), ("a%", "")] {
            assert!(host_rule(&u, &rule(from, to))
                .unwrap_err()
                .contains("is not text"));
        }
    }
}
