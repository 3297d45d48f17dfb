//! A rung of the ladder followed by named rules: what `irinorm normalize
//! --preset P` / `--apply ...` runs.

use std::borrow::Cow;
use std::sync::Arc;

use irinorm::ladder::{CompareError, Explanation, Key, Normalizer, Options, Rung, Side, Warning};
use irinorm::{split_trusted, Meta, ParseError};

use crate::apply::{
    apply_split, query_in_place, query_in_place_set, quick_in_place, Fired, Names, Quick,
};
use crate::config::Config;
use crate::host_rules::Fused;
use crate::preset::Preset;
use crate::rule::{RuleName, RuleSet};

/// The result of [`Pipeline::normalize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<'a> {
    /// The normal form (borrowed when nothing changed).
    pub text: Cow<'a, str>,
    /// The named rules that changed something, in order of application.
    pub applied: Vec<RuleName>,
    /// What the ladder reported (hosts UTS #46 refused...).
    pub warnings: Vec<Warning>,
}

/// Why two references are equivalent ([`Pipeline::compare_why`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The rung: the lowest at which the ladder alone makes them equal, or
    /// the configured one when named rules were needed.
    pub rung: Rung,
    /// The named rules that made them equal (empty: the ladder alone).
    pub rules: Vec<RuleName>,
    /// The lookup-key preset whose keys are equal (`safebrowsing`): then
    /// neither a rung nor rules made them equal.
    pub lookup_key: Option<Preset>,
}

/// Ladder normalization then named rules. Cheap to clone; `Sync`.
#[derive(Clone, Debug)]
pub struct Pipeline {
    normalizer: Normalizer,
    rules: RuleSet,
    config: Arc<Config>,
    /// The name lists of `config`, indexed.
    names: Arc<Names>,
    /// `safebrowsing`: the Safe Browsing key replaces the ladder and rules.
    safebrowsing: bool,
    /// When the set allows it (`crawler`, `fetch` + `remove-query-params`):
    /// the set without the rules [`query_in_place`] applies in place.
    query_fast: Option<RuleSet>,
    /// With compiled host rules (issue 11): the fused path
    /// ([`crate::host_rules::fused`]), with what [`query_in_place`] screens
    /// of the named rules (`None` when there are none).
    fused: Option<Option<RuleSet>>,
    /// The rules stage, chosen here once (issue 14 round 17): with a
    /// quick path ([`Quick::of`], `crawler`) [`Pipeline::rules_quick`],
    /// else [`Pipeline::rules_in_place_general`]. A function, not a flag:
    /// a test of a flag per URL cost `rfc` 0.9% on `isaacs_files.txt`
    /// (callgrind), the call through the field costs what the direct call
    /// did.
    stage: Stage,
    /// What the quick path screens for (meaningful with it).
    quick: Quick,
}

/// [`Pipeline::rules_in_place`]'s stage.
type Stage = fn(&Pipeline, &mut String, usize, Option<&Meta>, &mut Vec<RuleName>);

impl Pipeline {
    /// A pipeline. The settings' text (hosts, paths, parameter names and
    /// values, host rules) is written as the normalizer writes it in that
    /// place, in its form (`config/normal.rs`: so that a setting matches
    /// the same URLs in the `uri` and `iri` forms, and a rule's output is
    /// itself normal). When the
    /// settings have `[[host-rule]]` sections, `host-rules` is added to
    /// `rules`: a rules file given with `--config` always applies.
    pub fn new(normalizer: Normalizer, mut rules: RuleSet, mut config: Config) -> Self {
        if !config.host_rules.is_empty() {
            // host-rules conflicts with nothing.
            let _ = rules.insert(RuleName::HostRules);
        }
        let mut plain = normalizer.options().clone();
        plain.ignore_fragment = false;
        let host_norm = Normalizer::new(plain);
        crate::config::normal::in_form(&mut config, &host_norm);
        let names = Names::with_schemes(
            &config,
            rules.contains(RuleName::RemoveQueryParams),
            &normalizer.options().schemes,
        );
        let named = rules.without(RuleName::HostRules);
        let fused = (rules.contains(RuleName::HostRules) && names.host_rules.plans.is_some())
            .then(|| match query_in_place_set(named) {
                Some(others) => Some(Some(others)),
                None => named.is_empty().then_some(None),
            })
            .flatten();
        let quick = Quick::of(rules, fused.is_some(), &names);
        let stage: Stage = match quick {
            Some(_) => Pipeline::rules_quick,
            None => Pipeline::rules_in_place_general,
        };
        Pipeline {
            normalizer,
            rules,
            names: Arc::new(names),
            config: Arc::new(config),
            safebrowsing: false,
            query_fast: query_in_place_set(rules),
            fused,
            stage,
            quick: quick.unwrap_or_default(),
        }
    }

    /// This pipeline computing the key of a lookup-key preset
    /// ([`Preset::is_lookup_key`]) instead of the ladder and rules.
    pub fn with_lookup_key(mut self, p: Preset) -> Self {
        self.safebrowsing = p == Preset::Safebrowsing;
        self
    }

    /// The lookup-key preset this pipeline computes instead of the ladder.
    pub fn lookup_key(&self) -> Option<Preset> {
        self.safebrowsing.then_some(Preset::Safebrowsing)
    }

    fn safebrowsing_into(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        out.push_str(&crate::safebrowsing::canonicalize(input)?);
        Ok(())
    }

    /// A preset with default options and parameters.
    pub fn preset(p: Preset) -> Self {
        Pipeline::new(
            Normalizer::new(Options::new(p.rung(), Default::default())),
            p.rule_set(),
            Config::default(),
        )
        .with_lookup_key(p)
    }

    /// The ladder part.
    pub fn normalizer(&self) -> &Normalizer {
        &self.normalizer
    }

    /// The rules.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The rule parameters.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn rung(&self) -> Rung {
        self.normalizer.options().rung
    }

    /// The normal form, the rules that fired and the warnings.
    pub fn normalize<'a>(&self, input: &'a str) -> Result<Outcome<'a>, ParseError> {
        if self.safebrowsing {
            return Ok(Outcome {
                text: Cow::Owned(crate::safebrowsing::canonicalize(input)?),
                applied: Vec::new(),
                warnings: Vec::new(),
            });
        }
        let n = self.normalizer.normalize_full(input)?;
        let mut applied = Vec::new();
        let text = match apply_split(
            &n.text,
            &split_trusted(&n.text),
            self.rules,
            &self.config,
            &self.names,
            self.rung(),
            &mut applied,
            None,
        ) {
            Some(new) => Cow::Owned(new),
            None => n.text,
        };
        Ok(Outcome {
            text,
            applied,
            warnings: n.warnings,
        })
    }

    /// Appends the normal form to `out`; the rules that fired go to
    /// `applied`. Allocation-free when no rule fires.
    pub fn normalize_into(
        &self,
        input: &str,
        out: &mut String,
        applied: &mut Vec<RuleName>,
    ) -> Result<Vec<Warning>, ParseError> {
        if self.safebrowsing {
            self.safebrowsing_into(input, out)?;
            return Ok(Vec::new());
        }
        let start = out.len();
        // The ladder writes the components here and they are read where
        // they lie: moved out of the `Result` into locals, the `Meta` and
        // the `Vec` were copied on the stack for every URL (`crawler`'s
        // path; issue 14, round 21), and returned in the `Result` the
        // `Meta` was copied into it twice, in pieces wider than the
        // scanner's stores, and this stage, which reads it at once, waited
        // on the copies (round 22).
        let mut meta = Meta::default();
        let warnings = self.normalizer.normalize_into_meta(input, out, &mut meta)?;
        if warnings.is_empty() {
            // Nearly every URL: nothing held across the stage's call, the
            // empty list made after it (held, it was three stores before
            // the call and a sixteen-byte load of two of them after).
            drop(warnings);
            self.rules_in_place(out, start, Some(&meta), applied);
            return Ok(Vec::new());
        }
        self.rules_in_place(out, start, Some(&meta), applied);
        Ok(warnings)
    }

    /// [`Pipeline::normalize_into`] for a caller that reads only the text,
    /// not the list of the rules that fired (a bulk run that writes the
    /// normal forms: no `explain`, no JSON `applied` field): the same text;
    /// `applied` is then incomplete. With a learned rules file the fused
    /// path keeps no copy of the ladder's text per URL (issue 11, round 8:
    /// BENCHMARKS.md "Issue 11, round 8"); in the rare case where the host
    /// rules' output meets a named rule, the ladder's text is written again
    /// from the input for the general path. The flag is the call: no work
    /// per URL, and [`Pipeline::normalize_into`] and `crawler`'s path stay
    /// as they were (a flag of the pipeline tested in `normalize_into`
    /// cost `crawler` 1.8-2.4% by instructions in the bench's loop).
    pub fn normalize_text_into(
        &self,
        input: &str,
        out: &mut String,
        applied: &mut Vec<RuleName>,
    ) -> Result<Vec<Warning>, ParseError> {
        match self.fused {
            Some(_) if !self.safebrowsing => self.normalize_unlisted(input, out, applied),
            // No rules (rung 2's default): the ladder's own entry, which
            // does not hand its `Meta` back through the `Result`, called
            // from here (inlined in the caller: the CLI's `normalize` per
            // line), not through `normalize_into` and `rules_in_place`,
            // whose frames and `Meta` cost 20 M of the 300k-line
            // frontier's 313.5 M (callgrind, issue 14 round 13). Not in
            // `normalize_into` itself: that test there cost `crawler`
            // 0.7-3.4% in the bench's loop (round 13, as in round 9).
            None if self.rules.is_empty() && !self.safebrowsing => {
                self.normalizer.normalize_into(input, out)
            }
            _ => self.normalize_into(input, out, applied),
        }
    }

    /// [`Pipeline::normalize_text_into`] for a caller that reads the text
    /// alone (the CLI's `normalize`, once per line of a bulk input): the
    /// same text, neither the warnings nor the rules that fired. Without
    /// rules it is the ladder's [`Normalizer::normalize_text_only`], whose
    /// `Result` is two registers and whose fast path makes no `Vec` of
    /// warnings (issue 14, round 14: the `Vec<Warning>` made, handed back
    /// and dropped, and the caller's empty `applied`, were about 20
    /// instructions per line, callgrind); with rules,
    /// [`Pipeline::normalize_text_into`], out of line.
    #[inline]
    pub fn normalize_text_only(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        if self.fused.is_none() && self.rules.is_empty() && !self.safebrowsing {
            return self.normalizer.normalize_text_only(input, out);
        }
        self.normalize_text_ruled(input, out)
    }

    /// [`Pipeline::normalize_text_only`] with rules (or a fused path).
    #[inline(never)]
    fn normalize_text_ruled(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        self.normalize_text_into(input, out, &mut Vec::new())
            .map(drop)
    }

    /// [`Pipeline::normalize_text_into`] with a fused path: its own
    /// instance of it, without the copy.
    #[inline(never)]
    fn normalize_unlisted(
        &self,
        input: &str,
        out: &mut String,
        applied: &mut Vec<RuleName>,
    ) -> Result<Vec<Warning>, ParseError> {
        let start = out.len();
        // The components written into `meta` by the ladder, as in
        // `normalize_into` (issue 14, round 22: handed back in the
        // `Result`, the `Meta` was copied twice at the ladder's end); the
        // `Result` read where it lies (issue 11, round 20).
        let mut meta = Meta::default();
        let done = self.normalizer.normalize_into_meta(input, out, &mut meta);
        let Ok(_) = &done else {
            return done;
        };
        let meta = &meta;
        let Some(others) = self.fused else {
            unreachable!("normalize_text_into: a fused path");
        };
        match self.host_rules_fused::<false>(out, start, meta, applied, others) {
            Fused::Done => {}
            Fused::General => self.rules_general(out, start, meta, applied),
            Fused::Redo => {
                // Rare: the host rules' output met a named rule. Written
                // again from the input (the same text: the ladder is a
                // function of it).
                let (_, m) = self.normalizer.normalize_into_split(input, out)?;
                let again = m.unwrap_or_else(|| split_trusted(&out[start..]));
                self.rules_general(out, start, &again, applied);
            }
        }
        done
    }

    /// The rules after the fused path declined (or without one): the
    /// in-place query filter when the set allows it, else [`apply_split`].
    /// Inlined: it is `crawler`'s path (issue 14's figures).
    #[inline(always)]
    fn rules_general(
        &self,
        out: &mut String,
        start: usize,
        meta: &Meta,
        applied: &mut Vec<RuleName>,
    ) {
        if let Some(others) = self.query_fast {
            if query_in_place(
                out,
                start,
                meta,
                self.rules,
                others,
                &self.config,
                &self.names,
                applied,
                false,
            ) {
                return;
            }
        }
        if let Some(new) = apply_split(
            &out[start..],
            meta,
            self.rules,
            &self.config,
            &self.names,
            self.rung(),
            applied,
            None,
        ) {
            out.truncate(start);
            out.push_str(&new);
        }
    }

    /// [`crate::host_rules::fused`]: whether it did the work. Apart, so
    /// that the common path stays small enough to be inlined whole (issue
    /// 14's `crawler` figures).
    #[inline(never)]
    fn fused_in_place(
        &self,
        out: &mut String,
        start: usize,
        meta: &Meta,
        applied: &mut Vec<RuleName>,
        others: Option<RuleSet>,
    ) -> bool {
        self.host_rules_fused::<true>(out, start, meta, applied, others) == Fused::Done
    }

    /// [`crate::host_rules::fused`] with this pipeline's rules, with the
    /// list of the rules that fired (`LISTED`) or without.
    #[inline(always)]
    fn host_rules_fused<const LISTED: bool>(
        &self,
        out: &mut String,
        start: usize,
        meta: &Meta,
        applied: &mut Vec<RuleName>,
        others: Option<RuleSet>,
    ) -> Fused {
        crate::host_rules::fused::<LISTED>(
            out,
            start,
            meta,
            self.rules,
            others,
            &self.config,
            &self.names,
            self.rung(),
            applied,
        )
    }

    /// The rules on `out[start..]`, whose components are `meta` when the
    /// ladder knew them (already-normal input), found again otherwise.
    /// The stage chosen when the pipeline was built (`Pipeline::stage`): with a quick path (`crawler`)
    /// [`Pipeline::rules_quick`], the others to
    /// [`Pipeline::rules_in_place_general`]: issue 14 round 17, the URLs
    /// that leave early paid the whole stage's frame and its tests on the
    /// rule set. `meta` by reference: a copy of the whole `Meta` (read
    /// wide, just written narrow by the ladder) stalled on store-to-load
    /// forwarding, a third of this stage's time on short references
    /// (issue 14).
    #[inline(always)]
    fn rules_in_place(
        &self,
        out: &mut String,
        start: usize,
        meta: Option<&Meta>,
        applied: &mut Vec<RuleName>,
    ) {
        (self.stage)(self, out, start, meta, applied);
    }

    /// [`Pipeline::rules_in_place`] for a set with a quick path:
    /// [`quick_in_place`] (the host's bytes, the query's screen), the rest
    /// of the stage out of line ([`Pipeline::rules_slow`]).
    #[inline(never)]
    fn rules_quick(
        &self,
        out: &mut String,
        start: usize,
        meta: Option<&Meta>,
        applied: &mut Vec<RuleName>,
    ) {
        let Some(f) = self.names.query_filter.as_ref() else {
            return self.rules_in_place_general(out, start, meta, applied);
        };
        let split;
        let m = match meta {
            Some(m) => m,
            None => {
                split = split_trusted(&out[start..]);
                &split
            }
        };
        if !quick_in_place(
            out,
            start,
            m,
            self.quick,
            f,
            self.rules,
            &self.config,
            &self.names,
            applied,
        ) {
            self.rules_slow(out, start, m, applied);
        }
    }

    /// [`Pipeline::rules_general`] out of line, for [`Pipeline::rules_quick`].
    #[inline(never)]
    fn rules_slow(&self, out: &mut String, start: usize, meta: &Meta, applied: &mut Vec<RuleName>) {
        self.rules_general(out, start, meta, applied);
    }

    /// [`Pipeline::rules_in_place`] without a quick path.
    #[inline(never)]
    fn rules_in_place_general(
        &self,
        out: &mut String,
        start: usize,
        meta: Option<&Meta>,
        applied: &mut Vec<RuleName>,
    ) {
        if self.rules.is_empty() {
            return;
        }
        // The text is sliced only where it is split again (issue 14 round 9: its
        // char-boundary check was paid on every reference).
        let split;
        let meta = match meta {
            Some(m) => m,
            None => {
                split = split_trusted(&out[start..]);
                &split
            }
        };
        // A learned rules file on top of `crawler` (issue 11): the query
        // filter and the host's compiled rules in the buffer; otherwise
        // the text is as the ladder left it, for the general path.
        if let Some(others) = self.fused {
            if self.fused_in_place(out, start, meta, applied, others) {
                return;
            }
        }
        // The common sets screen and filter the query in one pass, in
        // place (issue 14: `crawler` on long queries); else the general
        // path.
        self.rules_general(out, start, meta, applied);
    }

    /// The comparison key: the ladder's key at the configured rung, then
    /// the rules.
    pub fn key_into(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        if self.safebrowsing {
            return self.safebrowsing_into(input, out);
        }
        let start = out.len();
        // The ladder writes the key's components here and the stage reads
        // them where they lie, as in `normalize_into` (issue 14, rounds
        // 21-22): returned in the `Result`, the `Meta` was copied on every
        // key in pieces wider than the scanner's stores (round 23).
        let mut meta = Meta::default();
        let known = self.normalizer.key_into_meta(input, out, &mut meta)?;
        self.rules_in_place(out, start, known.then_some(&meta), &mut Vec::new());
        Ok(())
    }

    /// [`Pipeline::key_into`] as a new string.
    pub fn key(&self, input: &str) -> Result<String, ParseError> {
        let mut s = String::with_capacity(input.len() + 8);
        self.key_into(input, &mut s)?;
        Ok(s)
    }

    /// The 128-bit digest of the key.
    pub fn digest(&self, input: &str) -> Result<Key, ParseError> {
        // The ladder's key, borrowed when the input is already normal; the
        // rules on it, hashed in place when none fires.
        if self.safebrowsing {
            return Ok(Key::of(&self.key(input)?));
        }
        let (key, meta) = self.normalizer.key_split(input)?;
        if self.rules.is_empty() {
            return Ok(Key::of(&key));
        }
        let meta = meta.unwrap_or_else(|| split_trusted(&key));
        let new = apply_split(
            &key,
            &meta,
            self.rules,
            &self.config,
            &self.names,
            self.rung(),
            &mut Vec::new(),
            None,
        );
        Ok(Key::of(new.as_deref().unwrap_or(&key)))
    }

    /// Whether two references have the same key.
    pub fn equivalent(&self, a: &str, b: &str) -> Result<bool, CompareError> {
        let ka = self.key(a).map_err(|error| CompareError {
            side: Side::A,
            error,
        })?;
        let kb = self.key(b).map_err(|error| CompareError {
            side: Side::B,
            error,
        })?;
        Ok(ka == kb)
    }

    /// The lowest rung at which the two are equivalent with the rules
    /// applied on top of it, or `None`.
    pub fn compare(&self, a: &str, b: &str) -> Result<Option<Rung>, CompareError> {
        if self.safebrowsing {
            return Ok(self.equivalent(a, b)?.then_some(self.rung()));
        }
        if self.rules.is_empty() {
            return self.normalizer.compare(a, b);
        }
        for rung in Rung::ALL {
            let opts = Options {
                rung,
                ..self.normalizer.options().clone()
            };
            let p = Pipeline {
                normalizer: Normalizer::new(opts),
                rules: self.rules,
                config: self.config.clone(),
                names: self.names.clone(),
                safebrowsing: false,
                query_fast: self.query_fast,
                fused: self.fused,
                stage: self.stage,
                quick: self.quick,
            };
            if p.equivalent(a, b)? {
                return Ok(Some(rung));
            }
        }
        Ok(None)
    }

    /// What makes `a` and `b` equivalent: the lowest rung of the ladder
    /// alone (up to the configured rung) and no rules; or, when the ladder
    /// alone does not, the configured rung with the named rules that fired
    /// (on either side, in order of application); `None` when they differ.
    /// Unlike [`Pipeline::compare`], a verdict never names a rung lower than
    /// the one the rules ran on: the rules are what made them equal.
    pub fn compare_why(&self, a: &str, b: &str) -> Result<Option<Verdict>, CompareError> {
        if self.safebrowsing {
            let eq = self.equivalent(a, b)?;
            return Ok(eq.then(|| Verdict {
                rung: self.rung(),
                rules: Vec::new(),
                lookup_key: Some(Preset::Safebrowsing),
            }));
        }
        if let Some(r) = self.normalizer.compare(a, b)? {
            if r <= self.rung() {
                return Ok(Some(Verdict {
                    rung: r,
                    rules: Vec::new(),
                    lookup_key: None,
                }));
            }
        }
        if self.rules.is_empty() {
            return Ok(None);
        }
        let side = |s: Side| move |error| CompareError { side: s, error };
        let na = self.normalize(a).map_err(side(Side::A))?;
        let nb = self.normalize(b).map_err(side(Side::B))?;
        if na.text != nb.text {
            return Ok(None);
        }
        let mut rules: Vec<RuleName> = na.applied;
        rules.extend(nb.applied);
        rules.sort();
        rules.dedup();
        Ok(Some(Verdict {
            rung: self.rung(),
            rules,
            lookup_key: None,
        }))
    }

    /// The ladder's explanation, and the rules that fired on top of the
    /// configured rung and form, with before and after.
    pub fn explain(&self, input: &str) -> Result<(Explanation, Vec<Fired>), ParseError> {
        let e = self.normalizer.explain(input)?;
        let n = self.normalizer.normalize(input)?;
        let mut fired = Vec::new();
        apply_split(
            &n,
            &split_trusted(&n),
            self.rules,
            &self.config,
            &self.names,
            self.rung(),
            &mut Vec::new(),
            Some(&mut fired),
        );
        Ok((e, fired))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in registry with 8080 as http's default port: the
    /// caller's registry of the round 16 and 17 scheme tests.
    fn http_default_8080() -> irinorm::scheme::SchemeRegistry {
        use irinorm::scheme::{SchemeInfo, SchemeRegistry};
        let mut r = SchemeRegistry::builtin();
        r.insert(
            "http",
            SchemeInfo {
                default_port: Some(8080),
                ..*SchemeRegistry::builtin().get("http").unwrap()
            },
        );
        r
    }

    /// The in-place query tables are built for the presets with
    /// `remove-query-params` only (the filter's table is the costliest
    /// part of building a pipeline), and the presets without them still
    /// keep every parameter while those with them filter in place.
    #[test]
    fn query_tables_only_where_the_rule_reads_them() {
        for (p, want) in [
            (Preset::Rfc, false),
            (Preset::Fetch, false),
            (Preset::Crawler, true),
            (Preset::Aggressive, true),
        ] {
            let pipe = Pipeline::preset(p);
            assert_eq!(pipe.names.has_query_tables(), want, "{p:?}");
            let o = pipe
                .normalize("http://a.example/p?utm_source=x&id=7")
                .unwrap();
            // `aggressive` also writes `https`: only the query is compared.
            let query = &o.text[o.text.find('?').unwrap()..];
            let kept = if want { "?id=7" } else { "?utm_source=x&id=7" };
            assert_eq!(query, kept, "{p:?}");
        }
    }

    /// Round 16 (docs/testing.md): `force-http` / `force-https` apply the
    /// new scheme's rung 2 rules of the normalizer's registry, not `80` /
    /// `443` and the built-in ones (RFC 3986 §6.2.3: the default port and
    /// the empty path of the scheme the URL now has), so that the output
    /// is its own normal form (LADDER.md invariant 1).
    #[test]
    fn scheme_switch_follows_the_callers_registry() {
        use irinorm::ladder::Form;
        use irinorm::scheme::SchemeRegistry;
        let in_form = |schemes: SchemeRegistry, rule: RuleName, form: Form| {
            let mut rules = RuleSet::default();
            rules.insert(rule).unwrap();
            Pipeline::new(
                Normalizer::new(Options {
                    schemes,
                    form,
                    ..Options::default()
                }),
                rules,
                Config::default(),
            )
        };
        let with = |schemes: SchemeRegistry, rule: RuleName| in_form(schemes, rule, Form::Uri);
        let text = |p: &Pipeline, s: &str| p.normalize(s).unwrap().text.into_owned();
        // 8080 is http's default port here: it goes when https becomes
        // http; 80 is then another port, which stays.
        let p8080 = http_default_8080();
        let p = with(p8080, RuleName::ForceHttp);
        assert_eq!(text(&p, "https://a.example:8080/"), "http://a.example/");
        assert_eq!(text(&p, "https://a.example:80/"), "http://a.example:80/");
        // 443 is https's default: rung 2 removes it before the rule runs.
        assert_eq!(text(&p, "https://a.example:443/"), "http://a.example/");
        // http unknown: rung 2 writes its hosts otherwise than https's (no
        // UTS #46), so the switch is refused both ways, in both forms
        // (LADDER.md invariants 1 and 5; before, `https://xn--bcher-kva.example/a`
        // became `http://bücher.example/a` in the `iri` form and
        // `http://b%C3%BCcher.example/a` in the `uri` form).
        let mut forgotten = SchemeRegistry::builtin();
        forgotten.forget("http");
        let p = with(forgotten.clone(), RuleName::ForceHttps);
        assert_eq!(text(&p, "http://a.example"), "http://a.example");
        assert_eq!(text(&p, "http://a.example:443"), "http://a.example:443");
        for form in [Form::Uri, Form::Iri] {
            let p = in_form(forgotten.clone(), RuleName::ForceHttp, form);
            let out = text(&p, "https://xn--bcher-kva.example/a");
            assert!(out.starts_with("https://"), "{form:?}: {out}");
            assert_eq!(text(&p, &out), out, "{form:?}");
        }
        // The built-in registry: as before.
        let p = with(SchemeRegistry::builtin(), RuleName::ForceHttps);
        assert_eq!(text(&p, "http://a.example:443"), "https://a.example/");
        assert_eq!(text(&p, "http://a.example:8080"), "https://a.example:8080/");
        for s in [
            "https://a.example:8080/",
            "http://a.example",
            "http://a.example:443",
        ] {
            let once = text(&p, s);
            assert_eq!(text(&p, &once), once, "{s}");
        }
    }

    /// Round 17 (docs/testing.md): host rules follow the normalizer's
    /// registry as `force-http(s)` does. `alias-scheme` drops a port that
    /// is the default of either scheme *there* (RFC 3986 §6.2.3), so that
    /// the output is its own normal form (LADDER.md invariant 1); a target
    /// that writes hosts otherwise than `http` is refused, and the loader
    /// says so. Before, with 8080 as http's default, `to = "http"` made
    /// `https://h.example:8080/` `http://h.example:8080/` (N:
    /// `http://h.example/`).
    #[test]
    fn host_rules_follow_the_callers_registry() {
        use crate::host_rules::{HostRule, HostRuleKind};
        use irinorm::ladder::Form;
        use irinorm::scheme::SchemeRegistry;
        let alias = |to: &str| {
            HostRule::learned(
                "h.example",
                "/",
                HostRuleKind::AliasScheme { to: to.into() },
            )
        };
        let pipe = |schemes: SchemeRegistry, to: &str, form: Form| {
            Pipeline::new(
                Normalizer::new(Options {
                    schemes,
                    form,
                    ..Options::default()
                }),
                RuleSet::default(),
                Config {
                    host_rules: vec![alias(to)],
                    ..Config::default()
                },
            )
        };
        let text = |p: &Pipeline, s: &str| p.normalize(s).unwrap().text.into_owned();
        let p8080 = http_default_8080();
        for form in [Form::Uri, Form::Iri] {
            let p = pipe(p8080.clone(), "http", form);
            // 8080 is http's default here: no port (RFC 3986 §6.2.3).
            assert_eq!(text(&p, "https://h.example:8080/"), "http://h.example/");
            // 80 is neither https's default nor (here) http's: it stays.
            assert_eq!(text(&p, "https://h.example:80/"), "http://h.example:80/");
            for s in ["https://h.example:8080/", "https://h.example:80/x"] {
                let once = text(&p, s);
                assert_eq!(text(&p, &once), once, "{form:?} {s}");
            }
            // The built-in registry: 80 is http's default, as before.
            let p = pipe(SchemeRegistry::builtin(), "http", form);
            assert_eq!(text(&p, "https://h.example:80/"), "http://h.example/");
            assert_eq!(
                text(&p, "https://h.example:8080/"),
                "http://h.example:8080/"
            );
        }
        // https forgotten: it writes hosts without UTS #46, http with it;
        // `to = "https"` is refused (left out: nothing changes).
        let mut forgotten = SchemeRegistry::builtin();
        forgotten.forget("https");
        let p = pipe(forgotten.clone(), "https", Form::Iri);
        assert_eq!(text(&p, "http://h.example/"), "http://h.example/");
        // A scheme-specific normalizer (`file`: rung 2 writes more than
        // the port) and an unknown scheme are refused too.
        for to in ["file", "foo"] {
            let p = pipe(SchemeRegistry::builtin(), to, Form::Uri);
            assert_eq!(text(&p, "http://h.example/x"), "http://h.example/x", "{to}");
        }
        // A known DNS scheme is allowed, with its own default port.
        let p = pipe(SchemeRegistry::builtin(), "ftp", Form::Uri);
        assert_eq!(text(&p, "http://h.example:21/x"), "ftp://h.example/x");
        // The settings loader refuses what the pipeline leaves out, with
        // the registry as the files leave it.
        let file = "[[host-rule]]\nhost = \"h.example\"\nrule = \"alias-scheme\"\nto = \"https\"\n";
        let (mut c, mut s) = (Config::default(), forgotten);
        let e = crate::load_toml(file, &mut c, &mut s).unwrap_err();
        assert!(e.contains("alias-scheme") && e.contains("dns-host"), "{e}");
        let (mut c, mut s) = (Config::default(), SchemeRegistry::builtin());
        crate::load_toml(file, &mut c, &mut s).unwrap();
        let e = crate::load_toml(&file.replace("https", "file"), &mut c, &mut s).unwrap_err();
        assert!(e.contains("alias-scheme"), "{e}");
    }

    /// Round 17 (docs/testing.md): host rules hold only for URLs whose
    /// scheme writes its host as `http` does in the registry (a rule's host
    /// is written as an `http` host, `config/normal.rs`). A scheme whose
    /// host is not a DNS name keeps a non-ASCII host percent-encoded in the
    /// `uri` form (RFC 3986 §3.2.2) and as it is in the `iri` form, where
    /// the rule's host is `xn--bcher-kva.example` and `bücher.example`:
    /// before, `alias-scheme to = "https"` on `bücher.example` changed
    /// `foo://bücher.example/` in the `iri` form only (LADDER.md
    /// invariant 5).
    #[test]
    fn host_rules_hold_for_schemes_that_write_hosts_as_http() {
        use crate::host_rules::{HostRule, HostRuleKind};
        use irinorm::ladder::Form;
        let pipe = |form: Form| {
            Pipeline::new(
                Normalizer::new(Options::new(Rung::Scheme, form)),
                RuleSet::default(),
                Config {
                    host_rules: vec![
                        HostRule::learned(
                            "bücher.example",
                            "/",
                            HostRuleKind::AliasScheme { to: "https".into() },
                        ),
                        HostRule::learned("bücher.example", "/", HostRuleKind::LowercasePath),
                    ],
                    ..Config::default()
                },
            )
        };
        let (uri, iri) = (pipe(Form::Uri), pipe(Form::Iri));
        let text = |p: &Pipeline, s: &str| p.normalize(s).unwrap().text.into_owned();
        for s in ["foo://bücher.example/X", "foo://xn--bcher-kva.example/X"] {
            let (u, i) = (text(&uri, s), text(&iri, s));
            assert!(u.starts_with("foo://") && u.ends_with("/X"), "{s}: {u}");
            assert!(i.starts_with("foo://") && i.ends_with("/X"), "{s}: {i}");
            assert_eq!(irinorm::iri_to_uri(&i).unwrap(), u, "{s}");
        }
        // A DNS scheme of the registry other than http(s): the rules hold.
        assert_eq!(
            text(&uri, "ftp://bücher.example/X"),
            "https://xn--bcher-kva.example/x"
        );
        assert_eq!(
            text(&iri, "ftp://bücher.example/X"),
            "https://bücher.example/x"
        );
    }

    #[test]
    fn presets_end_to_end() {
        let crawler = Pipeline::preset(Preset::Crawler);
        let o = crawler
            .normalize("HTTP://Example.COM.:80/a/./b?utm_source=x&id=7#top")
            .unwrap();
        assert_eq!(o.text, "http://example.com/a/b?id=7");
        assert_eq!(
            o.applied,
            vec![
                RuleName::RemoveTrailingHostDot,
                RuleName::RemoveQueryParams,
                RuleName::RemoveFragment
            ]
        );
        let rfc = Pipeline::preset(Preset::Rfc);
        assert_eq!(
            rfc.normalize("http://example.com./?utm_source=x")
                .unwrap()
                .text,
            "http://example.com./?utm_source=x"
        );
        let agg = Pipeline::preset(Preset::Aggressive);
        assert_eq!(
            agg.normalize("http://user@www.example.com:443//a/index.html?b=2&a=1&sid=9")
                .unwrap()
                .text,
            "https://example.com/a/?a=1&b=2"
        );
        assert!(agg
            .equivalent("http://www.example.com/", "https://example.com")
            .unwrap());
        assert_eq!(
            crawler.compare("http://a/#x", "http://a/").unwrap(),
            Some(Rung::String)
        );
        assert_eq!(
            Pipeline::preset(Preset::Rfc)
                .compare("http://a/#x", "http://a/")
                .unwrap(),
            None
        );
    }

    #[test]
    fn borrowed_when_nothing_fires() {
        let crawler = Pipeline::preset(Preset::Crawler);
        assert!(matches!(
            crawler.normalize("http://example.com/a").unwrap().text,
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn ip_to_host_values_are_normalized() {
        let mut c = Config::default();
        c.ip_to_host.insert("127.0.0.1".into(), "LocalHost".into());
        let p = Pipeline::new(
            Normalizer::default(),
            RuleSet::of(&[RuleName::IpToHost]).unwrap(),
            c,
        );
        assert_eq!(
            p.normalize("http://127.0.0.1/").unwrap().text,
            "http://localhost/"
        );
    }
}
