//! Presets: named bundles of a rung and rules (LADDER.md "Presets"). The
//! exact list of each is printed by `irinorm presets` and in docs/rules.md.

use core::fmt;
use core::str::FromStr;

use irinorm::ladder::Rung;

use crate::rule::{RuleName, RuleSet};

/// A preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Rung 2 and nothing else: every RFC-licensed normalization. The default.
    Rfc,
    /// `rfc` + remove-fragment: comparing for a network action (RFC 3986 §6.1).
    Fetch,
    /// `fetch` + remove-trailing-host-dot + decode-ipv4-forms +
    /// remove-query-params (the tracking list).
    Crawler,
    /// `crawler` + every unsafe rule that has a sensible default.
    Aggressive,
    /// Google Safe Browsing's URL canonicalization ([`crate::safebrowsing`]):
    /// a lookup key, not an RFC normal form; no ladder, no rules.
    Safebrowsing,
}

impl Preset {
    /// The ladder presets, from the safest; each contains the one before.
    pub const ALL: [Preset; 4] = [
        Preset::Rfc,
        Preset::Fetch,
        Preset::Crawler,
        Preset::Aggressive,
    ];

    /// Every preset: the ladder presets, then the lookup-key presets.
    pub const EVERY: [Preset; 5] = [
        Preset::Rfc,
        Preset::Fetch,
        Preset::Crawler,
        Preset::Aggressive,
        Preset::Safebrowsing,
    ];

    /// Whether the preset is a lookup key computed instead of the ladder
    /// (`safebrowsing`), rather than a rung and rules.
    pub const fn is_lookup_key(self) -> bool {
        matches!(self, Preset::Safebrowsing)
    }

    /// `rfc`, `fetch`, `crawler`, `aggressive`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Rfc => "rfc",
            Preset::Fetch => "fetch",
            Preset::Crawler => "crawler",
            Preset::Aggressive => "aggressive",
            Preset::Safebrowsing => "safebrowsing",
        }
    }

    /// The rung every preset starts from (rung 2).
    pub const fn rung(self) -> Rung {
        Rung::Scheme
    }

    /// The rules, in order of application.
    pub const fn rules(self) -> &'static [RuleName] {
        use RuleName as R;
        match self {
            Preset::Rfc | Preset::Safebrowsing => &[],
            Preset::Fetch => &[R::RemoveFragment],
            Preset::Crawler => &[
                R::RemoveTrailingHostDot,
                R::DecodeIpv4Forms,
                R::RemoveQueryParams,
                R::RemoveFragment,
            ],
            // Every unsafe rule with a sensible default. Left out, because
            // they need the caller's data: remove-default-query-params,
            // lowercase-path, ip-to-host. Of each conflicting pair one is
            // chosen: remove-www (not add-www), force-https (not
            // force-http). The trailing-slash rules are usually-safe, not
            // unsafe, and neither direction is a default.
            Preset::Aggressive => &[
                R::ForceHttps,
                R::RemoveUserinfo,
                R::RemoveTrailingHostDot,
                R::DecodeIpv4Forms,
                R::RemoveWww,
                R::RemoveDuplicateSlashes,
                R::RemoveSessionIds,
                R::RemoveDirectoryIndex,
                R::RemoveQueryParams,
                R::SortQuery,
                R::RemoveEmptyQuery,
                R::RemoveFragment,
            ],
        }
    }

    /// The rules as a set.
    pub fn rule_set(self) -> RuleSet {
        RuleSet::of(self.rules()).unwrap_or_default()
    }

    /// One line.
    pub const fn what(self) -> &'static str {
        match self {
            Preset::Rfc => "rung scheme (RFC 3986 §6.2.2-§6.2.3, RFC 3987 §5.3): equivalent for every application",
            Preset::Fetch => "rfc + remove-fragment: the same resource fetched (RFC 3986 §6.1)",
            Preset::Crawler => "fetch + host dot, IPv4 forms, tracking parameters: what crawlers merge",
            Preset::Aggressive => "crawler + every unsafe rule with a default: for dedup, accepts false merges",
            Preset::Safebrowsing => "Google Safe Browsing canonicalization: a list lookup key, not an RFC normal form",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::EVERY
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!("unknown preset {s:?} (rfc, fetch, crawler, aggressive, safebrowsing)")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Class;

    #[test]
    fn presets_nest_and_aggressive_is_every_unsafe_rule_with_a_default() {
        for w in Preset::ALL.windows(2) {
            let (a, b) = (w[0].rule_set(), w[1].rule_set());
            assert!(
                a.iter().all(|r| b.contains(r)),
                "{} not within {}",
                w[0],
                w[1]
            );
        }
        let needs_data = [
            RuleName::RemoveDefaultQueryParams,
            RuleName::LowercasePath,
            RuleName::IpToHost,
        ];
        let agg = Preset::Aggressive.rule_set();
        for r in RuleName::ORDER {
            if r.class() == Class::Unsafe && !needs_data.contains(r) {
                let chosen =
                    agg.contains(*r) || r.conflicts_with().is_some_and(|c| agg.contains(c));
                assert!(chosen, "{r} missing from aggressive");
            }
        }
        // The rules are listed in the order of application.
        let listed: Vec<_> = Preset::Aggressive.rules().to_vec();
        let ordered: Vec<_> = agg.iter().collect();
        assert_eq!(listed, ordered);
    }
}
