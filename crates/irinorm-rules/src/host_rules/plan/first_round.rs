//! A plan's first round compiled, when the settings file is loaded, into
//! one pass over the URL in the fixed order (issue 11, round 7: applying
//! a learned rules file within 1.5x of `crawler`).
//!
//! The interpreted first round ([`super::Plans::run`]'s step loop) looks
//! at each step through its generic visit: the step fetched by index, its
//! path prefix, its screen, a dispatch on the rule kind, the bookkeeping
//! of what fired. Learned rules hold on every path (the learner writes no
//! path prefix) and a host has at most one rule of most kinds, so for
//! such a plan the round is known when the file is loaded: the scheme
//! alias, the host alias, the parameter table, `sort-query`,
//! `lowercase-path`, the substitutions, the directory indexes and the
//! trailing-slash rules, in that order (the order of
//! [`super::super::HostRuleKind::ORDER`], which is the order of the
//! plan's steps). Each is called directly with its own data, and its
//! cheap precondition (a query, a screen bit) tested inline.
//!
//! Same semantics as the step loop, which stays the oracle of the tests
//! (`Plans::run_stepwise`): a step the loop's first-round set leaves out
//! (by whether the URL has a query and its path ends with `/`) cannot
//! fire on the URL as the plan starts, and a step is a function of what
//! it reads, so looking at it anyway changes nothing; a step that fires
//! leaves in the returned set the steps at or before it that it wakes (as
//! the loop's `need`), for the later rounds, which are the loop's.

use super::{
    add_trailing_slash, alias_host, alias_scheme, directory_index, lowercase_path, remove_params,
    remove_trailing_slash, screen_of, sort_query, substitute, substitute_from, At, Fired, Op,
    ParamTable, Plan, Subst, PATH, QUERY, UPPER,
};

/// Whether the path of the URL at `at` has an ASCII capital, from the
/// masks of the buffer's last 32 bytes (`t`; the path starts within them).
#[inline(always)]
fn upper_in_path(t: &irinorm_simd::Tail32, out: &str, at: &At) -> bool {
    let base = out.len() - 32;
    let len = at.path_end(out) - at.path;
    let m = u64::from(t.upper() >> (at.path - base));
    m & ((1u64 << len.min(32)) - 1) != 0
}

/// The first round of one plan, its steps by kind with their step index
/// (for the wake masks and what they write).
#[derive(Clone, Debug)]
pub(super) struct FirstRound {
    scheme: Option<(u8, Box<super::super::SchemeTarget>)>,
    host: Option<(Box<str>, Option<u32>)>,
    /// The parameter table held here, not boxed (one base for the run:
    /// issue 11, round 17).
    params: Option<(u8, ParamTable)>,
    sort: Option<u8>,
    lower: Option<u8>,
    /// Substitutions in order, with their screen ([`super::Step::screen`];
    /// 0: none).
    substs: Box<[(u8, u16, Subst)]>,
    /// Directory indexes in order, with their screen.
    indexes: Box<[(u8, u16, Box<str>)]>,
    remove_slash: Option<u8>,
    add_slash: Option<u8>,
    /// The screened steps (`lowercase-path`, then the substitutions, then
    /// the directory indexes: their order in the plan) that pass their
    /// screen, one bit each, for each screen value `path?query` meets
    /// ([`slot`]): one lookup instead of a test per step (issue 11, round
    /// 11: the loops over the substitutions and indexes and their screen
    /// tests were ~56 instructions a round on the learned crawl, where
    /// 8,445 of ~90,000 substitutions looked at pass their screen). `None`
    /// when the plan has no screened step, more than 16, or a screen bit
    /// past the slot's eight (five substitutions of two anchors): the
    /// loops.
    cands: Option<Box<[u16; 512]>>,
    /// For each step `k`, what it writes and the steps at or before it
    /// that it wakes (`Plan::wakes`), for `fired!`: one load without a
    /// bounds check (the plan has at most [`STEPS`] steps) instead of two
    /// checked loads from the plan (issue 11, round 11); held here, not
    /// boxed (round 17).
    fire: [(u64, u8); STEPS],
}

/// The most steps of a plan with a compiled first round (a learned
/// host's plan has one step of each kind but substitutions and indexes;
/// a plan of more runs by the step loop): [`FirstRound::fire`] held in
/// the plan at this size.
const STEPS: usize = 16;

/// The index of [`FirstRound::cands`] of a screen value: its low eight
/// bits and [`UPPER`].
#[inline(always)]
fn slot(s: u16) -> usize {
    usize::from(s & 0xff) | usize::from(s >> 15) << 8
}

/// How the first round ended.
pub(super) enum Outcome {
    /// A host alias fired: the canonical host's plan, when it has one.
    Alias(Option<u32>),
    /// The round ran to its end: the steps that must look again (woken
    /// at or before the step that fired; 0 when none).
    Need(u64),
}

impl FirstRound {
    /// The compiled round of `plan`: `None` when a step has a path prefix,
    /// a kind other than substitutions and indexes comes twice (a file
    /// written by hand), or the plan has more than [`STEPS`] steps; those
    /// plans run by the step loop.
    pub(super) fn new(plan: &Plan) -> Option<FirstRound> {
        if plan.steps.len() > STEPS || plan.alias_only {
            return None;
        }
        let mut f = FirstRound {
            scheme: None,
            host: None,
            params: None,
            sort: None,
            lower: None,
            substs: Box::default(),
            indexes: Box::default(),
            remove_slash: None,
            add_slash: None,
            cands: None,
            fire: [(0, 0); STEPS],
        };
        for (k, st) in plan.steps.iter().enumerate() {
            f.fire[k] = (plan.wakes[k] & (u64::MAX >> (63 - k)), st.writes);
        }
        let (mut substs, mut indexes) = (Vec::new(), Vec::new());
        for (k, st) in plan.steps.iter().enumerate() {
            if st.prefix.is_some() {
                return None;
            }
            let k8 = k as u8;
            let twice = match &st.op {
                Op::Scheme(to) => f.scheme.replace((k8, to.clone())).is_some(),
                Op::Host(to, t) => f.host.replace((to.clone(), *t)).is_some(),
                Op::Params(t) => f.params.replace((k8, (**t).clone())).is_some(),
                Op::Sort => f.sort.replace(k8).is_some(),
                Op::Lower => f.lower.replace(k8).is_some(),
                Op::Subst(x) => {
                    substs.push((k8, st.screen, (**x).clone()));
                    false
                }
                Op::Index(name) => {
                    indexes.push((k8, st.screen, name.clone()));
                    false
                }
                Op::RemoveSlash => f.remove_slash.replace(k8).is_some(),
                Op::AddSlash => f.add_slash.replace(k8).is_some(),
            };
            if twice {
                return None;
            }
        }
        f.substs = substs.into_boxed_slice();
        f.indexes = indexes.into_boxed_slice();
        let screens: Vec<u16> = f
            .lower
            .map(|_| UPPER)
            .into_iter()
            .chain(f.substs.iter().map(|s| s.1))
            .chain(f.indexes.iter().map(|s| s.1))
            .collect();
        if !screens.is_empty()
            && screens.len() <= 16
            && screens.iter().all(|&s| s & !(0xff | UPPER) == 0)
        {
            let mut t = Box::new([0u16; 512]);
            for (v, c) in t.iter_mut().enumerate() {
                // The screen value of slot `v`.
                let s = (v & 0xff) as u16 | ((v >> 8) as u16) << 15;
                for (j, &need) in screens.iter().enumerate() {
                    if s & need == need {
                        *c |= 1 << j;
                    }
                }
            }
            f.cands = Some(t);
        }
        Some(f)
    }

    /// The first round of `plan` (whose round this is) on the URL at `at`.
    // The last steps' `fired!` clears a screen no later step reads.
    #[allow(unused_assignments)]
    #[inline]
    pub(super) fn run(
        &self,
        plan: &Plan,
        out: &mut String,
        at: &mut At,
        ran: &mut Fired,
    ) -> Outcome {
        let mut need = 0u64;
        // The screens `path?query` meets: computed when a screened step
        // first looks, again after a change of the path or query.
        let mut sig: Option<u16> = None;
        macro_rules! fired {
            ($k:expr) => {{
                let (wake, writes) = self.fire[$k as usize & (STEPS - 1)];
                *ran |= writes;
                // The steps it wakes at or before itself look again in
                // the next round; those after it look in this one anyway.
                need |= wake;
                if writes & (PATH | QUERY) != 0 {
                    sig = None;
                }
            }};
        }
        macro_rules! passes {
            ($screen:expr) => {{
                let screen: u16 = $screen;
                screen == 0 || {
                    let s = *sig.get_or_insert_with(|| screen_of(plan, out, at));
                    s & screen == screen
                }
            }};
        }
        if let Some((k, to)) = &self.scheme {
            if alias_scheme(to, out, at) {
                fired!(*k);
            }
        }
        if let Some((to, target)) = &self.host {
            if alias_host(to, out, at) {
                *ran |= super::HOST;
                return Outcome::Alias(*target);
            }
        }
        if let Some((k, t)) = &self.params {
            if at.query.is_some() && remove_params(t, out, at) {
                fired!(*k);
            }
        }
        if let Some(k) = self.sort {
            if at.query.is_some() && sort_query(out, at) {
                fired!(k);
            }
        }
        let tail = irinorm_simd::Tail32::of(out.as_bytes()).filter(|_| at.path + 32 >= out.len());
        if let (Some(_), Some(tail)) = (&self.cands, tail) {
            // `path?query` within the buffer's last 32 bytes (every URL of
            // the learned crawl but its shortest): each screened step
            // screened by two byte masks of those bytes, no pass byte by
            // byte through the plan's table (issue 11, round 23). A
            // screen is only a condition the step needs, so the steps run
            // in order as the step loop runs them; after one fires, the
            // masks of the new text (or, past 32 bytes, no screen).
            let mut tail = Some(tail);
            macro_rules! again {
                () => {
                    tail = irinorm_simd::Tail32::of(out.as_bytes())
                        .filter(|_| at.path + 32 >= out.len())
                };
            }
            if let Some(k) = self.lower {
                let hit = match &tail {
                    Some(t) => upper_in_path(t, out, at) && lowercase_path(out, at),
                    None => lowercase_path(out, at),
                };
                if hit {
                    fired!(k);
                    again!();
                }
            }
            for (k, _, x) in self.substs.iter() {
                let hit = match &tail {
                    Some(t) => match x.find_in_tail(t, out.as_bytes(), at.path) {
                        Some(first) => substitute_from(x, out, at, first),
                        None => false,
                    },
                    None => substitute(x, out, at),
                };
                if hit {
                    *ran |= super::SPELLED;
                    fired!(*k);
                    again!();
                }
            }
            // A directory index is judged at the path's end (a compare of
            // its name), cheaper than any screen.
            for (k, _, name) in self.indexes.iter() {
                if directory_index(name, out, at) {
                    fired!(*k);
                }
            }
        } else if let Some(t) = &self.cands {
            // The screened steps in order, only those the screen lets
            // through; after one fires, those after it by the new screen.
            let lower = usize::from(self.lower.is_some());
            let substs = lower + self.substs.len();
            let mut cand = u32::from(t[slot(screen_of(plan, out, at))]);
            while cand != 0 {
                let j = cand.trailing_zeros() as usize;
                let (k, hit) = if j < lower {
                    (self.lower.unwrap_or(0), lowercase_path(out, at))
                } else if j < substs {
                    let (k, _, x) = &self.substs[j - lower];
                    let hit = substitute(x, out, at);
                    if hit {
                        *ran |= super::SPELLED;
                    }
                    (*k, hit)
                } else {
                    let (k, _, name) = &self.indexes[j - substs];
                    (*k, directory_index(name, out, at))
                };
                // The steps after `j` (at most 16 bits: no overflow).
                let after = !((2u32 << j) - 1);
                if hit {
                    fired!(k);
                    cand = u32::from(t[slot(screen_of(plan, out, at))]) & after;
                } else {
                    cand &= after;
                }
            }
        } else {
            if let Some(k) = self.lower {
                if passes!(UPPER) && lowercase_path(out, at) {
                    fired!(k);
                }
            }
            for (k, screen, x) in self.substs.iter() {
                if passes!(*screen) && substitute(x, out, at) {
                    *ran |= super::SPELLED;
                    fired!(*k);
                }
            }
            for (k, screen, name) in self.indexes.iter() {
                if passes!(*screen) && directory_index(name, out, at) {
                    fired!(*k);
                }
            }
        }
        if let Some(k) = self.remove_slash {
            if remove_trailing_slash(out, at) {
                fired!(k);
            }
        }
        if let Some(k) = self.add_slash {
            if add_trailing_slash(out, at) {
                fired!(k);
            }
        }
        Outcome::Need(need)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{HostRule, HostRuleKind, Plans};

    /// Which compiled first rounds take the screen table: a learned
    /// host's (`lowercase-path`, a substitution or two, an index), not a
    /// host without screened steps, nor one whose anchors need more bits
    /// than the slot holds (those keep the loops; the property tests of
    /// `prop_host_rules.rs` compare both with the step loop).
    #[test]
    fn screen_table_for_plans_of_few_screens() {
        let subst = |f: &str, t: &str| HostRuleKind::Substitute {
            from: f.into(),
            to: t.into(),
        };
        let mut rules = vec![
            HostRule::learned("a", "/", HostRuleKind::LowercasePath),
            HostRule::learned("a", "/", subst("/old/", "/")),
            HostRule::learned("a", "/", subst("bb", "b")),
            HostRule::learned(
                "a",
                "/",
                HostRuleKind::DirectoryIndex {
                    name: "index.html".into(),
                },
            ),
            HostRule::learned("n", "/", HostRuleKind::RemoveTrailingSlash),
        ];
        // Five substitutions of two anchors each: ten screen bits.
        for (f, t) in [
            ("qa", "a"),
            ("wb", "b"),
            ("xc", "c"),
            ("yd", "d"),
            ("ze", "e"),
        ] {
            rules.push(HostRule::learned("w", "/", subst(f, t)));
        }
        let plans = Plans::new(&rules, &Default::default()).expect("no *.suffix host");
        let table = |h: &str| {
            let p = plans.lookup(h.as_bytes()).expect("a host with rules");
            let r = plans.plans[p as usize].round1.as_ref();
            r.expect("a compiled first round").cands.is_some()
        };
        assert!(table("a"));
        assert!(!table("n"), "no screened step");
        assert!(!table("w"), "more screen bits than the slot holds");
    }
}
