//! What a frontier line is (original, alias kind, confuser kind), the level
//! that makes an alias equal to its original, and the configurations the
//! quality report measures.

use core::fmt;
use core::str::FromStr;

use irinorm::ladder::{Form, Key, Normalizer, Options, Rung};
use irinorm::ParseError;
use irinorm_rules::{Pipeline, Preset, RuleName};

macro_rules! kinds {
    ($($v:ident = $name:literal, $what:literal;)*) => {
        /// What a line of a frontier is: an original, an alias of one (by the
        /// transformation that made it), or a confuser (a distinct resource
        /// that looks like an alias).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind { $(#[doc = $what] $v,)* }

        impl Kind {
            /// Every kind, in the order of the report.
            pub const ALL: &'static [Kind] = &[$(Kind::$v,)*];

            /// The name used in the TSV, the options and the report.
            pub const fn name(self) -> &'static str {
                match self { $(Kind::$v => $name,)* }
            }

            /// One line saying how lines of this kind are built.
            pub const fn what(self) -> &'static str {
                match self { $(Kind::$v => $what,)* }
            }
        }
    };
}

kinds! {
    Original = "original", "a corpus URL (or a built-in IDN/IRI one), normalized with the rfc preset";
    Exact = "exact", "the original, byte for byte";
    SchemeCase = "scheme-case", "some letters of the scheme in upper case (HTTP, Https)";
    HostCase = "host-case", "some ASCII letters of the host in upper case";
    PctLowercase = "pct-lowercase", "the hex letters of a triplet of the path, query or fragment in lower case (%c3%a9)";
    PctUnreserved = "pct-unreserved", "an unreserved character of the host, path or query percent-encoded (%7E, %61)";
    DotSegments = "dot-segments", "`./`, `x/../` (or `../` at the root) inserted after a `/` of the path";
    IriChars = "iri-chars", "percent-encoded UTF-8 of the path, query or fragment written as the characters (IRI)";
    EmptyPort = "empty-port", "an empty port (`host:`)";
    DefaultPort = "default-port", "the scheme's default port (`:80` for http, `:443` for https; sometimes with leading zeros)";
    EmptyPath = "empty-path", "the path `/` left out (`http://host` or `http://host?q`)";
    IdnUnicode = "idn-unicode", "the A-labels (xn--) of the host written as U-labels";
    IdnPct = "idn-pct", "the A-labels of the host written as percent-encoded UTF-8 (RFC 3987 §3.1 mapping of the Unicode host)";
    Combo = "combo", "two to four of the string/syntax/scheme transformations at once; equal at the highest";
    TrailingHostDot = "trailing-host-dot", "a `.` after the host";
    TrackingParam = "tracking-param", "a tracking parameter (utm_source, gclid, fbclid...) inserted in the query";
    ParamOrder = "param-order", "the query parameters reordered (parameters of one name keep their order)";
    AddWww = "add-www", "`www.` put before a host that is exactly a registrable domain";
    RemoveWww = "remove-www", "the leading `www.` of a host removed (a registrable domain remains)";
    Fragment = "fragment", "a fragment added to a URL that has none";
    DuplicateSlashes = "duplicate-slashes", "a `/` of the path doubled";
    ConfuserPct2f = "confuser-pct2f", "a `/` between two non-empty path segments written `%2F` (a different resource)";
    ConfuserQuery = "confuser-query", "an empty query `?` added to a URL without query";
    ConfuserFragment = "confuser-fragment", "an empty fragment `#` added to a URL without fragment";
    ConfuserPort = "confuser-port", "a different, non-default port";
    ConfuserPathCase = "confuser-path-case", "one ASCII letter of the path in the other case";
    ConfuserWww1 = "confuser-www1", "`www.` of the host turned into `www1.`";
}

impl Kind {
    /// The alias kinds.
    pub fn aliases() -> impl Iterator<Item = Kind> {
        Kind::ALL.iter().copied().filter(|k| k.is_alias())
    }

    /// The confuser kinds.
    pub fn confusers() -> impl Iterator<Item = Kind> {
        Kind::ALL.iter().copied().filter(|k| k.is_confuser())
    }

    /// An alias of an original (same resource).
    pub fn is_alias(self) -> bool {
        !matches!(self, Kind::Original) && !self.is_confuser()
    }

    /// A confuser (a new resource).
    pub fn is_confuser(self) -> bool {
        self >= Kind::ConfuserPct2f
    }

    /// The level that makes an alias of this kind equal to its original;
    /// `None` for `combo` (it depends on the transformations drawn) and
    /// for originals; [`EqualAt::Never`] for confusers.
    pub fn equal_at(self) -> Option<EqualAt> {
        use Kind as K;
        Some(match self {
            K::Original | K::Combo => return None,
            K::Exact => EqualAt::String,
            K::SchemeCase
            | K::HostCase
            | K::PctLowercase
            | K::PctUnreserved
            | K::DotSegments
            | K::IriChars => EqualAt::Syntax,
            K::EmptyPort | K::DefaultPort | K::EmptyPath | K::IdnUnicode | K::IdnPct => {
                EqualAt::Scheme
            }
            K::TrailingHostDot => EqualAt::Rule(RuleName::RemoveTrailingHostDot),
            K::TrackingParam => EqualAt::Rule(RuleName::RemoveQueryParams),
            K::ParamOrder => EqualAt::Rule(RuleName::SortQuery),
            K::AddWww | K::RemoveWww => EqualAt::Rule(RuleName::RemoveWww),
            K::Fragment => EqualAt::Rule(RuleName::RemoveFragment),
            K::DuplicateSlashes => EqualAt::Rule(RuleName::RemoveDuplicateSlashes),
            _ => EqualAt::Never,
        })
    }

    /// The named rules of the presets that merge a confuser with its
    /// original by design (the rule treats the two as one resource,
    /// knowingly): `#` vs none with `remove-fragment`, `?` vs none with
    /// `remove-empty-query`. Empty for every other kind.
    pub fn merged_by_design(self) -> &'static [RuleName] {
        match self {
            Kind::ConfuserFragment => &[RuleName::RemoveFragment],
            Kind::ConfuserQuery => &[RuleName::RemoveEmptyQuery],
            _ => &[],
        }
    }

    /// Parses a comma-separated list of kind names or groups: `all`,
    /// `aliases`, `confusers`, `rungs` (aliases equal at string, syntax or
    /// scheme), `rules` (aliases equal by a named rule).
    pub fn parse_list(s: &str) -> Result<Vec<Kind>, String> {
        let mut out: Vec<Kind> = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let add: Vec<Kind> = match part {
                "all" => Kind::ALL[1..].to_vec(),
                "aliases" => Kind::aliases().collect(),
                "confusers" => Kind::confusers().collect(),
                "rungs" => Kind::aliases()
                    .filter(|k| !matches!(k.equal_at(), Some(EqualAt::Rule(_))))
                    .collect(),
                "rules" => Kind::aliases()
                    .filter(|k| matches!(k.equal_at(), Some(EqualAt::Rule(_))))
                    .collect(),
                name => vec![name.parse()?],
            };
            for k in add {
                if k != Kind::Original && !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out.sort();
        Ok(out)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s.trim())
            .ok_or_else(|| {
                let names: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown kind {s:?}; known: {}", names.join(", "))
            })
    }
}

/// The lowest rung, or the named rule, that makes an alias equal to its
/// original; `never` for originals' confusers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EqualAt {
    /// Rung 0: the same string.
    String,
    /// Rung 1.
    Syntax,
    /// Rung 2.
    Scheme,
    /// A named rule on top of rung 2 (and not rung 2 alone).
    Rule(RuleName),
    /// A different resource: nothing may merge it with the original.
    Never,
}

impl EqualAt {
    /// The rung, for the rung levels.
    pub fn rung(self) -> Option<Rung> {
        match self {
            EqualAt::String => Some(Rung::String),
            EqualAt::Syntax => Some(Rung::Syntax),
            EqualAt::Scheme => Some(Rung::Scheme),
            _ => None,
        }
    }

    /// The level of a rung.
    pub fn of_rung(r: Rung) -> EqualAt {
        match r {
            Rung::String => EqualAt::String,
            Rung::Syntax => EqualAt::Syntax,
            Rung::Scheme => EqualAt::Scheme,
        }
    }

    /// `string`, `syntax`, `scheme`, the rule's name, or `never`.
    pub fn name(self) -> &'static str {
        match self {
            EqualAt::Rule(r) => r.name(),
            EqualAt::Never => "never",
            other => other.rung().map(Rung::name).unwrap_or("never"),
        }
    }
}

impl fmt::Display for EqualAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EqualAt {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "never" {
            return Ok(EqualAt::Never);
        }
        if let Ok(r) = s.parse::<Rung>() {
            return Ok(EqualAt::of_rung(r));
        }
        s.parse::<RuleName>()
            .map(EqualAt::Rule)
            .map_err(|e| format!("equal_at: {e}"))
    }
}

/// A configuration the quality report measures: a rung of the ladder alone
/// (in `uri` form, as comparison always is), or a preset of irinorm-rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Configuration {
    /// The ladder at a rung, no named rule.
    Rung(Rung),
    /// A preset (rung 2 and its rules).
    Preset(Preset),
}

impl Configuration {
    /// The configurations of the report, from the finest.
    pub const ALL: [Configuration; 7] = [
        Configuration::Rung(Rung::String),
        Configuration::Rung(Rung::Syntax),
        Configuration::Rung(Rung::Scheme),
        Configuration::Preset(Preset::Rfc),
        Configuration::Preset(Preset::Fetch),
        Configuration::Preset(Preset::Crawler),
        Configuration::Preset(Preset::Aggressive),
    ];

    /// `string`, `syntax`, `scheme`, `rfc`, `fetch`, `crawler`, `aggressive`.
    pub const fn name(self) -> &'static str {
        match self {
            Configuration::Rung(r) => r.name(),
            Configuration::Preset(p) => p.name(),
        }
    }

    /// The rung the configuration normalizes at.
    pub fn rung(self) -> Rung {
        match self {
            Configuration::Rung(r) => r,
            Configuration::Preset(p) => p.rung(),
        }
    }

    /// Whether the configuration includes a named rule.
    pub fn has_rule(self, r: RuleName) -> bool {
        match self {
            Configuration::Rung(_) => false,
            Configuration::Preset(p) => p.rule_set().contains(r),
        }
    }

    /// Whether an alias equal at `level` must be merged with its original
    /// by this configuration.
    pub fn satisfies(self, level: EqualAt) -> bool {
        match level {
            EqualAt::Never => false,
            EqualAt::Rule(r) => self.has_rule(r),
            rung => rung.rung().is_some_and(|r| r <= self.rung()),
        }
    }

    /// Whether the configuration must never merge two distinct resources
    /// (the RFC rungs and the `rfc` preset).
    pub fn is_rfc(self) -> bool {
        matches!(
            self,
            Configuration::Rung(_) | Configuration::Preset(Preset::Rfc)
        )
    }

    /// A key function for this configuration.
    pub fn keyer(self) -> Keyer {
        match self {
            Configuration::Rung(r) => Keyer::Ladder(Normalizer::new(Options::new(r, Form::Uri))),
            Configuration::Preset(p) => Keyer::Pipeline(Pipeline::preset(p)),
        }
    }
}

impl fmt::Display for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Configuration {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Configuration::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!(
                    "unknown configuration {s:?} (string, syntax, scheme, rfc, fetch, crawler, aggressive)"
                )
            })
    }
}

/// The comparison key of a configuration.
#[derive(Clone, Debug)]
pub enum Keyer {
    /// The ladder alone.
    Ladder(Normalizer),
    /// A pipeline (ladder and rules).
    Pipeline(Pipeline),
}

impl Keyer {
    /// The 128-bit digest of the comparison key.
    pub fn digest(&self, url: &str) -> Result<Key, ParseError> {
        match self {
            Keyer::Ladder(n) => n.digest(url),
            Keyer::Pipeline(p) => p.digest(url),
        }
    }

    /// The comparison key.
    pub fn key(&self, url: &str) -> Result<String, ParseError> {
        match self {
            Keyer::Ladder(n) => n.key(url),
            Keyer::Pipeline(p) => p.key(url),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(k.name().parse::<Kind>().unwrap(), *k);
        }
        for c in Configuration::ALL {
            assert_eq!(c.name().parse::<Configuration>().unwrap(), c);
        }
        for k in Kind::ALL {
            if let Some(e) = k.equal_at() {
                assert_eq!(e.name().parse::<EqualAt>().unwrap(), e);
            }
        }
        assert_eq!(Kind::confusers().count(), 6);
        assert!(Kind::parse_list("rungs")
            .unwrap()
            .iter()
            .all(|k| k.is_alias()));
        assert!(Kind::parse_list("nope").is_err());
    }

    #[test]
    fn every_rule_level_is_in_some_preset() {
        for k in Kind::aliases() {
            if let Some(EqualAt::Rule(r)) = k.equal_at() {
                assert!(
                    Configuration::ALL.iter().any(|c| c.has_rule(r)),
                    "{k}: {r} is in no preset"
                );
            }
        }
    }
}
