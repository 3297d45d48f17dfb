//! The named normalizations of LADDER.md's table: names, classes, and the
//! one fixed order in which they apply.

use core::fmt;
use core::str::FromStr;

/// How much a rule may change what a reference identifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Usually preserves semantics (RFC 3986 §6.2.4 territory).
    UsuallySafe,
    /// Changes semantics; useful for deduplication.
    Unsafe,
}

impl Class {
    /// `usually-safe` / `unsafe`.
    pub const fn name(self) -> &'static str {
        match self {
            Class::UsuallySafe => "usually-safe",
            Class::Unsafe => "unsafe",
        }
    }
}

macro_rules! rules {
    ($($v:ident = $name:literal, $class:ident, $what:literal;)*) => {
        /// A named normalization. The declaration order is the order of
        /// application (see [`RuleName::ORDER`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleName { $(#[doc = $what] $v,)* }

        impl RuleName {
            /// Every rule, in the fixed order of application: scheme,
            /// userinfo, host, path, query, fragment. Whatever order a user
            /// lists rules in, they run in this one.
            pub const ORDER: &'static [RuleName] = &[$(RuleName::$v,)*];

            /// The kebab-case name (API, CLI, presets).
            pub const fn name(self) -> &'static str {
                match self { $(RuleName::$v => $name,)* }
            }

            /// The class of LADDER.md's table.
            pub const fn class(self) -> Class {
                match self { $(RuleName::$v => Class::$class,)* }
            }

            /// One line saying what it does.
            pub const fn what(self) -> &'static str {
                match self { $(RuleName::$v => $what,)* }
            }
        }
    };
}

rules! {
    ForceHttp = "force-http", Unsafe, "https -> http (a port that becomes the default goes)";
    ForceHttps = "force-https", Unsafe, "http -> https (a port that becomes the default goes)";
    RemoveUserinfo = "remove-userinfo", Unsafe, "drop `user:pass@`";
    RemoveTrailingHostDot = "remove-trailing-host-dot", UsuallySafe, "`example.com.` -> `example.com`";
    DecodeIpv4Forms = "decode-ipv4-forms", UsuallySafe, "`0x7f.1`, `2130706433`, `0177.0.0.1` -> `127.0.0.1` for http(s) (RFC 3986 §7.4)";
    IpToHost = "ip-to-host", Unsafe, "IP address -> host name from a caller-given table (no DNS lookups)";
    RemoveWww = "remove-www", Unsafe, "drop a leading `www.` label when something registrable remains";
    AddWww = "add-www", Unsafe, "add `www.` to a host that is exactly a registrable domain";
    LowercasePath = "lowercase-path", Unsafe, "lower-case the path for hosts known to be case-insensitive";
    RemoveDuplicateSlashes = "remove-duplicate-slashes", Unsafe, "`/a//b` -> `/a/b`";
    RemoveSessionIds = "remove-session-ids", Unsafe, "drop session ids: `;jsessionid=...` path parameters, `(S(...))` segments, and query parameters (`phpsessid`, `sid`, ...)";
    RemoveDirectoryIndex = "remove-directory-index", Unsafe, "`/a/index.html` -> `/a/` (configurable names)";
    AddTrailingSlash = "add-trailing-slash", UsuallySafe, "`/a` -> `/a/` (non-empty last segment)";
    RemoveTrailingSlash = "remove-trailing-slash", UsuallySafe, "`/a/` -> `/a` (never the root `/`)";
    RemoveQueryParams = "remove-query-params", Unsafe, "drop parameters by name or glob; default: tracking parameters";
    RemoveDefaultQueryParams = "remove-default-query-params", Unsafe, "drop parameters equal to caller-given defaults (per host and path prefix)";
    SortQuery = "sort-query", Unsafe, "stable sort of `&`-separated parameters by name, bytes untouched";
    RemoveEmptyQuery = "remove-empty-query", Unsafe, "drop a `?` with nothing after it";
    HostRules = "host-rules", Unsafe, "the `[[host-rule]]` sections of the settings file (learned DUST rules: aliases, substitutions, ignored and default parameters...)";
    RemoveFragment = "remove-fragment", UsuallySafe, "drop `#...` (RFC 3986 §6.1, comparing for a network action)";
}

impl RuleName {
    /// The rule a rule cannot be combined with.
    pub const fn conflicts_with(self) -> Option<RuleName> {
        match self {
            RuleName::ForceHttp => Some(RuleName::ForceHttps),
            RuleName::ForceHttps => Some(RuleName::ForceHttp),
            RuleName::RemoveWww => Some(RuleName::AddWww),
            RuleName::AddWww => Some(RuleName::RemoveWww),
            RuleName::AddTrailingSlash => Some(RuleName::RemoveTrailingSlash),
            RuleName::RemoveTrailingSlash => Some(RuleName::AddTrailingSlash),
            _ => None,
        }
    }
}

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleName::ORDER
            .iter()
            .copied()
            .find(|r| r.name() == s.trim())
            .ok_or_else(|| format!("unknown rule {s:?}; known: {}", names().join(", ")))
    }
}

fn names() -> Vec<&'static str> {
    RuleName::ORDER.iter().map(|r| r.name()).collect()
}

/// A set of rules, applied in [`RuleName::ORDER`] whatever order it was
/// built in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet(u32);

impl RuleSet {
    /// No rules.
    pub const EMPTY: RuleSet = RuleSet(0);

    const fn bit(r: RuleName) -> u32 {
        1 << (r as u32)
    }

    /// Adds a rule. Fails when it conflicts with one already there
    /// (`remove-www` with `add-www`...).
    pub fn insert(&mut self, r: RuleName) -> Result<(), String> {
        if let Some(c) = r.conflicts_with() {
            if self.contains(c) {
                return Err(format!("{} and {} cannot be combined", c.name(), r.name()));
            }
        }
        self.0 |= Self::bit(r);
        Ok(())
    }

    /// Whether the set has `r`.
    #[inline]
    pub const fn contains(self, r: RuleName) -> bool {
        self.0 & Self::bit(r) != 0
    }

    /// The set without `r`.
    pub const fn without(self, r: RuleName) -> RuleSet {
        RuleSet(self.0 & !Self::bit(r))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union (fails on a conflict).
    pub fn union(mut self, other: RuleSet) -> Result<RuleSet, String> {
        for r in other.iter() {
            self.insert(r)?;
        }
        Ok(self)
    }

    /// The rules in the order of application.
    pub fn iter(self) -> impl Iterator<Item = RuleName> {
        RuleName::ORDER
            .iter()
            .copied()
            .filter(move |r| self.contains(*r))
    }

    /// Parses `name,name,...`.
    pub fn parse_list(s: &str) -> Result<RuleSet, String> {
        let mut set = RuleSet::EMPTY;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            set.insert(part.parse()?)?;
        }
        Ok(set)
    }

    /// Builds a set from rules (fails on a conflict).
    pub fn of(rules: &[RuleName]) -> Result<RuleSet, String> {
        let mut set = RuleSet::EMPTY;
        for r in rules {
            set.insert(*r)?;
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        for r in RuleName::ORDER {
            assert_eq!(r.name().parse::<RuleName>().unwrap(), *r);
        }
        assert!(RuleName::ORDER.len() <= 32);
        let a = RuleSet::parse_list("remove-fragment,force-https,sort-query").unwrap();
        let b = RuleSet::parse_list("sort-query, remove-fragment , force-https").unwrap();
        assert_eq!(a, b);
        let order: Vec<_> = a.iter().collect();
        assert_eq!(
            order,
            vec![
                RuleName::ForceHttps,
                RuleName::SortQuery,
                RuleName::RemoveFragment
            ]
        );
        assert!(RuleSet::parse_list("remove-www,add-www").is_err());
        assert!(RuleSet::parse_list("nope").is_err());
    }
}
