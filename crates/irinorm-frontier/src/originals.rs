//! The originals of a frontier: corpus URLs (and a few built-in IDN/IRI
//! ones) that parse as http(s) IRIs with a name host, normalized with the
//! `rfc` preset, and made distinct under every configuration by keeping one
//! URL per `aggressive` key.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use irinorm::ladder::Key;
use irinorm::{parse, Grammar, HostKind};
use irinorm_rules::{Pipeline, Preset};
use serde::Serialize;

use crate::plant::Parts;

/// Text that marks the repeated passes of a frontier (see
/// [`crate::generate`]); corpus lines containing it are left out so that a
/// marked original can never equal a corpus one.
pub const PASS_MARKER: &str = "irn-pass";

/// Unicode hosts of the built-in originals (each is valid under UTS #46 and
/// maps back to itself from its A-labels).
pub const IDN_HOSTS: &[&str] = &[
    "bücher.example",
    "www.bücher.example",
    "résumé.example",
    "例え.jp",
    "пример.рф",
    "münchen.de",
    "straße.de",
    "café.fr",
    "日本語.jp",
    "ελλάδα.gr",
];

/// IRI paths (and queries) of the built-in originals.
pub const IRI_PATHS: &[&str] = &[
    "/été/naïve-café",
    "/日本語/ページ.html",
    "/путь/к/файлу",
    "/ñandú?q=pingüino",
    "/Ωmega/ζήτα/",
    "/emoji/😀/",
    "/carte/résumé?lang=fr&t=é",
    "/straße/ärger/",
];

/// One built-in original for every this many corpus originals.
pub const SYNTHETIC_EVERY: usize = 16;

/// What loading the originals kept and left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LoadStats {
    /// Corpus lines read.
    pub corpus_lines: u64,
    /// Left out: not an http(s) IRI with an authority.
    pub not_http: u64,
    /// Left out: not an IRI at all.
    pub invalid: u64,
    /// Left out: an IP address or a host without letters.
    pub not_name_host: u64,
    /// Left out: irinorm reported a warning (a host UTS #46 refused).
    pub warnings: u64,
    /// Left out: contained the pass marker.
    pub marker: u64,
    /// Left out: the `aggressive` key of an earlier original.
    pub duplicates: u64,
    /// Originals from the corpora.
    pub corpus_originals: u64,
    /// Built-in IDN/IRI originals kept.
    pub synthetic_originals: u64,
}

/// The originals, in corpus order, then the built-in ones.
#[derive(Debug)]
pub struct Originals {
    urls: Vec<String>,
    /// `aggressive` digest -> index (every original has its own).
    pub(crate) aggressive: HashMap<u128, u32>,
    /// String digest -> index.
    pub(crate) strings: HashMap<u128, u32>,
    stats: LoadStats,
    rfc: Pipeline,
    aggr: Pipeline,
}

impl Originals {
    /// From corpora as [`load_corpora`] (or `irinorm_testdata::text_corpora`)
    /// returns them: (name, lines), in order.
    pub fn from_corpora(corpora: &[(String, Vec<String>)]) -> Originals {
        Originals::from_lines(
            corpora
                .iter()
                .flat_map(|(_, l)| l.iter().map(String::as_str)),
        )
    }

    /// From URL lines.
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Originals {
        let mut o = Originals {
            urls: Vec::new(),
            aggressive: HashMap::new(),
            strings: HashMap::new(),
            stats: LoadStats::default(),
            rfc: Pipeline::preset(Preset::Rfc),
            aggr: Pipeline::preset(Preset::Aggressive),
        };
        for line in lines {
            o.stats.corpus_lines += 1;
            if o.consider(line) {
                o.stats.corpus_originals += 1;
            }
        }
        // Built-in IDN hosts and IRI paths, combined with corpus originals.
        let corpus = o.urls.len();
        for (j, i) in (0..corpus).step_by(SYNTHETIC_EVERY).enumerate() {
            let Some(p) = Parts::split(&o.urls[i]) else {
                continue;
            };
            let host = IDN_HOSTS[j % IDN_HOSTS.len()];
            let iri = IRI_PATHS[(j / 3) % IRI_PATHS.len()];
            let tail = |q: &Option<String>| q.as_ref().map(|q| format!("?{q}")).unwrap_or_default();
            let line = match j % 3 {
                0 => format!("{}://{host}{}{}", p.scheme, p.path, tail(&p.query)),
                1 => format!("{}://{}{iri}", p.scheme, p.host),
                _ => format!("{}://{host}{iri}", p.scheme),
            };
            if o.consider(&line) {
                o.stats.synthetic_originals += 1;
            }
        }
        o
    }

    fn consider(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return false;
        }
        if line.contains(PASS_MARKER) {
            self.stats.marker += 1;
            return false;
        }
        let Ok(m) = parse(line, Grammar::Iri) else {
            self.stats.invalid += 1;
            return false;
        };
        let http = m
            .scheme(line)
            .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"));
        if !http || m.authority(line).is_none() {
            self.stats.not_http += 1;
            return false;
        }
        let host_ok = |m: &irinorm::Meta, s: &str| {
            m.host_kind() == HostKind::RegName
                && m.host(s)
                    .is_some_and(|h| h.bytes().any(|b| b.is_ascii_alphabetic() || b >= 0x80))
        };
        if !host_ok(&m, line) {
            self.stats.not_name_host += 1;
            return false;
        }
        let Ok(out) = self.rfc.normalize(line) else {
            self.stats.invalid += 1;
            return false;
        };
        if !out.warnings.is_empty() {
            self.stats.warnings += 1;
            return false;
        }
        let url = out.text.into_owned();
        let reparsed = parse(&url, Grammar::Uri);
        let split_ok = Parts::split(&url).is_some_and(|p| p.to_url() == url);
        if !reparsed.is_ok_and(|m| host_ok(&m, &url)) || !split_ok {
            self.stats.not_name_host += 1;
            return false;
        }
        let Ok(d) = self.aggr.digest(&url) else {
            self.stats.invalid += 1;
            return false;
        };
        let idx = self.urls.len() as u32;
        if self.aggressive.contains_key(&d.0) {
            self.stats.duplicates += 1;
            return false;
        }
        self.aggressive.insert(d.0, idx);
        self.strings.insert(Key::of(&url).0, idx);
        self.urls.push(url);
        true
    }

    /// How many originals.
    pub fn len(&self) -> usize {
        self.urls.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.urls.is_empty()
    }

    /// The `i`-th original (normal under `rfc`).
    pub fn url(&self, i: usize) -> &str {
        &self.urls[i]
    }

    /// What loading kept and left out.
    pub fn stats(&self) -> &LoadStats {
        &self.stats
    }

    /// The `aggressive` digest of a URL.
    pub(crate) fn aggressive_digest(&self, url: &str) -> Option<u128> {
        self.aggr.digest(url).ok().map(|k| k.0)
    }
}

/// Reads URL lists: each path is a file, or a folder whose `*.txt` files
/// are read in name order. Invalid UTF-8 is replaced (such lines are then
/// not valid IRIs and are left out).
pub fn load_corpora(paths: &[PathBuf]) -> io::Result<Vec<(String, Vec<String>)>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(p.clone());
        }
    }
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read(&p).map_err(|e| with_path(&p, e))?;
            let text = String::from_utf8_lossy(&text);
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((name, text.lines().map(str::to_owned).collect()))
        })
        .collect()
}

fn with_path(p: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", p.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plant::unicode_host;

    #[test]
    fn builtin_hosts_round_trip_through_uts46() {
        for h in IDN_HOSTS {
            let a = idna::domain_to_ascii(h).unwrap();
            assert_eq!(unicode_host(&a).as_deref(), Some(*h), "{h}");
        }
    }

    #[test]
    fn loads_normalizes_and_dedupes() {
        let o = Originals::from_lines([
            "HTTP://Example.COM:80/a/./b",
            "http://example.com/a/b#x",
            "https://www.example.com/a/b",
            "file:///etc/passwd",
            "http://127.0.0.1/",
            "http://x/irn-pass-1/",
            "not a url",
            "https://other.example/?q=1",
        ]);
        assert_eq!(o.url(0), "http://example.com/a/b");
        let s = o.stats();
        assert_eq!(s.corpus_originals, 2);
        assert_eq!(s.duplicates, 2);
        assert_eq!(s.not_http, 1);
        assert_eq!(s.not_name_host, 1);
        assert_eq!(s.marker, 1);
        assert_eq!(s.invalid, 1);
        assert_eq!(s.synthetic_originals, 1);
        assert_eq!(o.url(2), "http://xn--bcher-kva.example/a/b");
    }
}
