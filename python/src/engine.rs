//! A pipeline and the `repair` pass in front of it (the CLI's `--repair`,
//! docs/repair.md), and rung 3 over an evidence store when `rung="protocol"`
//! (the CLI's `--rung protocol --evidence`, crates/irinorm-cli/src/cmd/
//! protocol.rs): what every call of the package runs.

use std::borrow::Cow;
use std::ops::Deref;
use std::sync::Arc;

use irinorm::ladder::{CompareError, Key, Side};
use irinorm::protocol::{Hop, HopKind, Protocol, Stop, Verdict};
use irinorm::ParseError;
use irinorm_evidence::Lookups;
use irinorm_rules::{Pipeline, RuleName};
use serde_json::{json, Value};

/// Rung 3 (LADDER.md "Rung 3", RFC 3986 §6.2.4): the store's lookups,
/// loaded once, and whether named rules run on its result.
#[derive(Debug)]
pub(crate) struct Rung3 {
    pub(crate) p: Protocol<Arc<Lookups>>,
    /// As the CLI: named rules (preset, `rules`) run first, then rung 3
    /// and the rules again until neither changes anything (irinorm-rules
    /// `over_protocol.rs`), when there are any.
    pub(crate) with_rules: bool,
}

/// The pipeline, and whether inputs are repaired first (with the scheme of
/// the base, which decides how a scheme-relative reference is read).
#[derive(Debug)]
pub(crate) struct Engine {
    pub(crate) p: Pipeline,
    pub(crate) repair: Option<Option<String>>,
    /// `rung="protocol"`: rung 3 in front of the pipeline's rules.
    pub(crate) proto: Option<Rung3>,
}

fn side(side: Side) -> impl Fn(ParseError) -> CompareError {
    move |error| CompareError { side, error }
}

impl Engine {
    /// The input the pipeline sees: the repaired text when `repair` is on
    /// and changed something, else the input itself.
    pub(crate) fn prep<'a>(&self, s: &'a str) -> Cow<'a, str> {
        match &self.repair {
            None => Cow::Borrowed(s),
            Some(base_scheme) => {
                let r = irinorm::repair::repair(s, base_scheme.as_deref());
                if r.changed() {
                    Cow::Owned(r.text)
                } else {
                    Cow::Borrowed(s)
                }
            }
        }
    }

    /// The normal form, appended to `out` (the CLI's `normalize`).
    pub(crate) fn normalize_into(
        &self,
        input: &str,
        out: &mut String,
        applied: &mut Vec<RuleName>,
    ) -> Result<(), ParseError> {
        match &self.proto {
            None => self.p.normalize_into(input, out, applied).map(|_| ()),
            Some(r) if !r.with_rules => r.p.normalize_into(input, out),
            Some(r) => self
                .p
                .normalize_over_protocol_into(&r.p, input, out, applied),
        }
    }

    /// [`Engine::normalize_into`] as a string.
    pub(crate) fn normal(&self, input: &str) -> Result<String, ParseError> {
        let mut s = String::with_capacity(input.len() + 8);
        self.normalize_into(input, &mut s, &mut Vec::new())?;
        Ok(s)
    }

    /// The comparison key (the text `irinorm dedupe` compares).
    pub(crate) fn key_text(&self, input: &str) -> Result<String, ParseError> {
        match &self.proto {
            None => self.p.key(input),
            Some(r) if !r.with_rules => r.p.key(input),
            Some(r) => self.p.key_over_protocol(&r.p, input),
        }
    }

    /// The 128-bit digest of the key.
    pub(crate) fn digest(&self, input: &str) -> Result<Key, ParseError> {
        match &self.proto {
            None => self.p.digest(input),
            Some(_) => Ok(Key::of(&self.key_text(input)?)),
        }
    }

    /// The lowest rung at which `a` and `b` are equivalent, `"protocol"`
    /// when only the evidence makes them equal; as the CLI's `compare`.
    ///
    /// The rung is the CLI's verdict (`Pipeline::compare_why`, docs/cli.md
    /// "compare"): the ladder's lowest equal rung, or, when only the named
    /// rules make them equal, the rung the rules ran on, never a lower one.
    /// `Pipeline::compare` (the lowest rung with the rules on top of it)
    /// answered `"string"` where the CLI says `scheme + rules:
    /// remove-fragment` (round 20, docs/testing.md).
    pub(crate) fn compare(&self, a: &str, b: &str) -> Result<Option<&'static str>, CompareError> {
        let Some(r) = &self.proto else {
            return Ok(self.p.compare_why(a, b)?.map(|v| v.rung.name()));
        };
        let v = if !r.with_rules {
            r.p.compare(a, b)?
        } else {
            // Ladder and named rules first; then rung 3 under the rules.
            match self.p.compare_why(a, b)? {
                Some(v) => Verdict::Ladder(v.rung),
                None => {
                    let ka = self.key_text(a).map_err(side(Side::A))?;
                    let kb = self.key_text(b).map_err(side(Side::B))?;
                    return Ok((ka == kb).then_some("protocol"));
                }
            }
        };
        Ok(match v {
            Verdict::Ladder(l) => Some(l.name()),
            Verdict::Protocol(_) => Some("protocol"),
            Verdict::Different(_) => None,
        })
    }

    /// Whether `a` and `b` have the same key.
    pub(crate) fn equivalent(&self, a: &str, b: &str) -> Result<bool, CompareError> {
        match &self.proto {
            None => self.p.equivalent(a, b),
            Some(_) => Ok(self.compare(a, b)?.is_some()),
        }
    }
}

impl Deref for Engine {
    type Target = Pipeline;
    fn deref(&self) -> &Pipeline {
        &self.p
    }
}

/// A hop as the CLI's `explain --format jsonl` writes it.
fn hop_json(h: &Hop) -> Value {
    let conv = h.conventions.map(|c| c.to_string());
    match &h.kind {
        HopKind::Recorded(o) => json!({
            "from": h.from, "to": h.to, "conventions": conv, "inferred": false,
            "status": o.status, "time": o.time, "source": o.source, "offset": o.offset,
            "disagreements": o.disagreements,
        }),
        HopKind::Inferred(v) => json!({
            "from": h.from, "to": h.to, "conventions": conv, "inferred": true,
            "host_conventions": v.iter().map(|c| json!({
                "convention": c.convention.to_string(), "support": c.support,
                "contradictions": c.contradictions,
            })).collect::<Vec<_>>(),
        }),
    }
}

impl Engine {
    /// The `protocol` entry of `explain`: rung 3's output, its options and
    /// the chain with every hop's record (crates/irinorm-cli/src/cmd/
    /// protocol.rs, `ExplainProtocol::json`).
    pub(crate) fn protocol_json(&self, r: &Rung3, input: &str) -> Result<Value, ParseError> {
        // The chain from where rung 3 starts: the rules' result.
        let c = if r.with_rules {
            r.p.chain(&self.p.normalize(input)?.text)?
        } else {
            r.p.chain(input)?
        };
        Ok(json!({
            "output": self.normal(input)?,
            "redirects": r.p.options().redirects.name(),
            "min_host_support": r.p.options().min_host_support,
            "chain": {
                "start": c.start,
                "end": c.end,
                "stop": match c.stop { Stop::End => "end", Stop::Cycle => "cycle", Stop::TooLong => "too-long" },
                "hops": c.hops.iter().map(hop_json).collect::<Vec<_>>(),
            },
        }))
    }
}
