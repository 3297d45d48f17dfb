//! Named rules over rung 3 (`--rung protocol` with `--preset` or
//! `--apply`; LADDER.md "Rung 3" and "Beyond the ladder"; docs/rules.md
//! "Over rung 3").
//!
//! Running the rules once on rung 3's result is not idempotent (LADDER.md
//! invariant 1): the rules may turn it into a key with evidence of its own.
//! With a recorded `http://a.example/p` 301 -> `http://a.example/p/` and
//! `crawler`, `http://a.example/p?utm_source=1` gave `http://a.example/p`,
//! whose own normal form is `http://a.example/p/`. It was not monotone
//! either (invariant 3): `http://a.example/p` and the same with
//! `?utm_source=1` are equal at rung 2 under `crawler`, not at rung 3, and
//! `compare` (which asks the rules first) called them equivalent while
//! `dedupe`'s keys differed.
//!
//! So the rules run first, then rung 3 and the rules again on its result,
//! until neither changes anything. The start is a function of the rules'
//! rung-2 result (monotone over it), and the end is a fixed point of "rung
//! 3, then the rules" (idempotent), or, when the steps go round, the
//! smallest text of the round, as rung 3's own chains end at the smallest
//! key of a cycle. More than [`MAX_HOPS`] steps decide nothing: the rules'
//! result stays, as rung 3 keeps a too-long chain's start.

use irinorm::protocol::{Evidence, Protocol, MAX_HOPS};
use irinorm::ParseError;

use crate::{Pipeline, RuleName};

/// The fixed point of `rules ∘ rung3` from `first`, itself an output of
/// `rules` (so `rules` leaves it as it is: every combination of rules is
/// idempotent, docs/rules.md).
fn fixed_point(
    first: String,
    mut rung3: impl FnMut(&str) -> Result<String, ParseError>,
    mut rules: impl FnMut(&str) -> Result<String, ParseError>,
) -> Result<String, ParseError> {
    let mut seen = vec![first];
    loop {
        let cur = seen.last().expect("never empty");
        let p = rung3(cur)?;
        if p == *cur {
            // No evidence moved it (most URLs): the rules leave `cur`.
            return Ok(seen.pop().expect("never empty"));
        }
        let next = rules(&p)?;
        if let Some(pos) = seen.iter().position(|s| *s == next) {
            // `next == cur` is a fixed point; else a round, ending at its
            // smallest text from wherever it is entered.
            let end = seen[pos..].iter().min().expect("non-empty");
            return Ok(end.clone());
        }
        if seen.len() > MAX_HOPS {
            return Ok(seen.swap_remove(0));
        }
        seen.push(next);
    }
}

impl Pipeline {
    /// The normal form of `input` under rung 3 (`p`) and these rules,
    /// appended to `out`; the rules that fired on the way go to `applied`
    /// (each once). `p` and the pipeline are in the same form.
    pub fn normalize_over_protocol_into<E: Evidence>(
        &self,
        p: &Protocol<E>,
        input: &str,
        out: &mut String,
        applied: &mut Vec<RuleName>,
    ) -> Result<(), ParseError> {
        let mut fired = Vec::new();
        let mut rules = |s: &str| {
            let mut o = String::with_capacity(s.len() + 8);
            self.normalize_into(s, &mut o, &mut fired)?;
            Ok(o)
        };
        let first = rules(input)?;
        let end = fixed_point(first, |s| p.normalize(s), rules)?;
        out.push_str(&end);
        for r in fired {
            if !applied.contains(&r) {
                applied.push(r);
            }
        }
        Ok(())
    }

    /// [`Pipeline::normalize_over_protocol_into`] as a new string.
    pub fn normalize_over_protocol<E: Evidence>(
        &self,
        p: &Protocol<E>,
        input: &str,
    ) -> Result<String, ParseError> {
        let mut s = String::with_capacity(input.len() + 8);
        self.normalize_over_protocol_into(p, input, &mut s, &mut Vec::new())?;
        Ok(s)
    }

    /// The comparison key of `input` under rung 3 and these rules: the
    /// same fixed point over keys (what `compare` and `dedupe` compare).
    pub fn key_over_protocol_into<E: Evidence>(
        &self,
        p: &Protocol<E>,
        input: &str,
        out: &mut String,
    ) -> Result<(), ParseError> {
        let first = self.key(input)?;
        let end = fixed_point(first, |s| p.key(s), |s| self.key(s))?;
        out.push_str(&end);
        Ok(())
    }

    /// [`Pipeline::key_over_protocol_into`] as a new string.
    pub fn key_over_protocol<E: Evidence>(
        &self,
        p: &Protocol<E>,
        input: &str,
    ) -> Result<String, ParseError> {
        let mut s = String::with_capacity(input.len() + 8);
        self.key_over_protocol_into(p, input, &mut s)?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;
    use irinorm::ladder::Options;
    use irinorm::protocol::{MemoryEvidence, ProtocolOptions, RawObservation};

    fn slash_added() -> Protocol<irinorm::protocol::BuiltEvidence> {
        let mut ev = MemoryEvidence::default();
        ev.add(RawObservation::redirect(
            "http://a.example/p",
            301,
            "http://a.example/p/",
        ));
        Protocol::new(Options::default(), ev.build(), ProtocolOptions::default())
    }

    /// Round 11: the rules' result has evidence of its own; rung 3 follows
    /// it (LADDER.md invariant 1), and the URL with a tracking parameter
    /// is what the URL without is (invariant 3: equal at rung 2 under
    /// `crawler`, so equal at rung 3 under `crawler`).
    #[test]
    fn rules_over_protocol_reach_a_fixed_point() {
        let p = slash_added();
        let rules = Pipeline::preset(Preset::Crawler);
        let once = rules
            .normalize_over_protocol(&p, "http://a.example/p?utm_source=1")
            .unwrap();
        assert_eq!(once, "http://a.example/p/");
        assert_eq!(rules.normalize_over_protocol(&p, &once).unwrap(), once);
        assert_eq!(
            rules
                .normalize_over_protocol(&p, "http://a.example/p")
                .unwrap(),
            once
        );
        let k = rules
            .key_over_protocol(&p, "http://a.example/p?utm_source=1")
            .unwrap();
        assert_eq!(
            k,
            rules.key_over_protocol(&p, "http://a.example/p").unwrap()
        );
        assert_eq!(rules.key_over_protocol(&p, &k).unwrap(), k);
    }

    /// A rule that undoes an edge (`remove-www` against a recorded
    /// `www.` added) ends where the rules leave it: a fixed point of
    /// "rung 3, then the rules".
    #[test]
    fn a_rule_that_undoes_an_edge_ends_at_the_rules_result() {
        let mut ev = MemoryEvidence::default();
        ev.add(RawObservation::redirect(
            "http://a.example/",
            301,
            "http://www.a.example/",
        ));
        let p = Protocol::new(Options::default(), ev.build(), ProtocolOptions::default());
        let rules = Pipeline::new(
            irinorm::ladder::Normalizer::default(),
            crate::RuleSet::of(&[RuleName::RemoveWww]).unwrap(),
            crate::Config::default(),
        );
        for x in ["http://a.example/", "http://www.a.example/"] {
            assert_eq!(
                rules.normalize_over_protocol(&p, x).unwrap(),
                "http://a.example/"
            );
        }
    }

    #[test]
    fn fixed_point_of_a_round_is_its_smallest_text() {
        // b -> c -> b: the round {b, c} ends at b from a, b or c.
        let step = |s: &str| {
            Ok(match s {
                "a" | "c" => "b".to_owned(),
                _ => "c".to_owned(),
            })
        };
        for first in ["a", "b", "c"] {
            let end = fixed_point(first.to_owned(), step, |s| Ok(s.to_owned())).unwrap();
            assert_eq!(end, "b");
        }
        // Never ending: the start stays.
        let mut n = 0u32;
        let grow = move |_: &str| {
            n += 1;
            Ok(n.to_string())
        };
        let end = fixed_point("x".to_owned(), grow, |s| Ok(s.to_owned())).unwrap();
        assert_eq!(end, "x");
    }
}
