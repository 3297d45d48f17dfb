//! `--rung protocol` for `normalize`, `compare`, `dedupe` and `explain`:
//! rung 3 over an evidence store (LADDER.md "Rung 3"; docs/evidence.md).
//! Named rules (--preset, --apply) run first, then rung 3 and the rules
//! again on its result until neither changes anything (irinorm-rules
//! `over_protocol.rs`: once on rung 3's result was neither idempotent nor
//! monotone).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use irinorm::ladder::{Form, Side};
use irinorm::protocol::{Chain, Hop, HopKind, Protocol, Stop, Verdict};
use irinorm_evidence::{Lookups, Store};
use irinorm_rules::{Pipeline, RuleName};
use irinorm_stream::{DedupeConfig, Failure, JsonObject, Op, RecordMode, Task};
use serde_json::{json, Value};

use crate::common::{execute, CliError, IoArgs};
use crate::ladder_args::LadderArgs;

type Proto = Protocol<Arc<Lookups>>;

/// Rung 3 and the named rules on top of it.
struct Rung3 {
    p: Proto,
    rules: Option<Pipeline>,
    /// Kept for `explain` (every observation behind a hop).
    store: Option<std::sync::Mutex<Store>>,
}

impl Rung3 {
    fn new(
        l: &LadderArgs,
        form: Form,
        quiet: bool,
        keep_store: bool,
        max_len: usize,
    ) -> Result<Self, CliError> {
        let (store, ev) = l.protocol.load(quiet)?;
        let (opts, _) = l.parts(form, max_len)?;
        let mut p = Protocol::new(opts, ev, l.protocol.options());
        if let Some(b) = &l.base {
            p = p
                .with_base(b)
                .map_err(|e| CliError::Usage(format!("--base {b:?}: {e}")))?;
        }
        let rules = if l.rules()?.is_empty() {
            None
        } else {
            Some(l.pipeline(form, max_len)?)
        };
        Ok(Rung3 {
            p,
            rules,
            store: keep_store.then(|| std::sync::Mutex::new(store)),
        })
    }

    fn normalize_into(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        match &self.rules {
            None => Ok(self.p.normalize_into(input, out)?),
            Some(r) => Ok(r.normalize_over_protocol_into(&self.p, input, out, &mut Vec::new())?),
        }
    }

    fn key_into(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        match &self.rules {
            None => Ok(self.p.key_into(input, out)?),
            Some(r) => Ok(r.key_over_protocol_into(&self.p, input, out)?),
        }
    }
}

/// One hop in one line: `FROM -> TO [301 slash-added at TIME, FILE@OFFSET]`
/// or `[inferred: https-upgrade (support 5)]`.
pub(crate) fn hop_text(h: &Hop) -> String {
    let conv = h
        .conventions
        .map_or("not conventional".to_owned(), |c| c.to_string());
    match &h.kind {
        HopKind::Recorded(o) => format!(
            "{} -> {}  [{} {}, at {}, {}@{}]",
            h.from,
            h.to,
            o.status,
            conv,
            o.time.as_deref().unwrap_or("unknown time"),
            o.source,
            o.offset
        ),
        HopKind::Inferred(v) => {
            let s: Vec<String> = v
                .iter()
                .map(|c| {
                    format!(
                        "{} (support {}, contradictions {})",
                        c.convention, c.support, c.contradictions
                    )
                })
                .collect();
            format!(
                "{} -> {}  [inferred host convention: {}]",
                h.from,
                h.to,
                s.join(", ")
            )
        }
    }
}

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

fn stop_name(s: Stop) -> &'static str {
    match s {
        Stop::End => "end",
        Stop::Cycle => "cycle (ends at its smallest key)",
        Stop::TooLong => "more than 20 hops (left at rung 2)",
    }
}

/// A chain as `; `-separated hops (for one-line output).
fn chain_line(c: &Chain) -> String {
    if c.hops.is_empty() {
        return format!("{} (no edge)", c.start);
    }
    let hops: Vec<String> = c.hops.iter().map(hop_text).collect();
    let mut s = hops.join("; ");
    if c.stop != Stop::End {
        let _ = write!(s, "; {}", stop_name(c.stop));
    }
    s
}

fn chain_json(c: &Chain) -> Value {
    json!({
        "start": c.start,
        "end": c.end,
        "stop": match c.stop { Stop::End => "end", Stop::Cycle => "cycle", Stop::TooLong => "too-long" },
        "hops": c.hops.iter().map(hop_json).collect::<Vec<_>>(),
    })
}

struct NormalizeOp(Rung3);

impl Op for NormalizeOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        self.0.normalize_into(input, out)
    }

    fn write_json(
        &self,
        input: &str,
        scratch: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        scratch.clear();
        let r = self
            .0
            .normalize_into(input, scratch)
            .and_then(|_| self.0.p.chain(input).map_err(Failure::from));
        match r {
            Ok(chain) => {
                obj.str("output", scratch);
                obj.value("chain", &chain_json(&chain));
                Ok(())
            }
            Err(e) => {
                obj.null("output");
                obj.null("chain");
                Err(e)
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        obj.null("output");
        obj.null("chain");
    }
}

pub(crate) fn normalize(
    l: &LadderArgs,
    io: &IoArgs,
    mode: RecordMode,
) -> Result<ExitCode, CliError> {
    let op = NormalizeOp(Rung3::new(l, l.form, io.quiet, false, io.max_len)?);
    execute(io, mode, Task::Map(&op))
}

struct KeyOp(Rung3);

impl Op for KeyOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        self.0.key_into(input, out)
    }
}

pub(crate) fn dedupe(
    l: &LadderArgs,
    io: &IoArgs,
    mode: RecordMode,
    cfg: DedupeConfig,
) -> Result<ExitCode, CliError> {
    let op = KeyOp(Rung3::new(l, Form::Uri, io.quiet, false, io.max_len)?);
    execute(io, mode, Task::Dedupe(&op, cfg))
}

struct CompareOp {
    r: Rung3,
    different: AtomicU64,
}

impl CompareOp {
    /// The pair's verdict, and the named rules that made them equal when
    /// the ladder alone did not (empty otherwise).
    fn verdict(&self, line: &str) -> Result<(Verdict, Vec<RuleName>), Failure> {
        let Some((a, b)) = line.split_once('\t') else {
            return Err(Failure::new(
                "not-a-pair",
                line.len(),
                "expected two identifiers separated by a TAB",
            ));
        };
        let side = |side: Side, e| {
            let mut f = Failure::from(e);
            if side == Side::B {
                f.offset += a.len() + 1;
            }
            f.message = format!("{}: {}", if side == Side::A { "a" } else { "b" }, f.message);
            f
        };
        let mut fired = Vec::new();
        let v = match &self.r.rules {
            None => self.r.p.compare(a, b).map_err(|e| side(e.side, e.error))?,
            Some(rules) => {
                // Ladder and named rules first; then rung 3 under the rules.
                // The verdict is `compare`'s without evidence
                // (`compare_why`, docs/cli.md "compare"): when the rules
                // made them equal it names the rung they ran on and the
                // rules, never a lower rung (`Pipeline::compare` named
                // the lowest rung with the rules on top of it, so
                // `--rung protocol` said `string` where `--rung scheme`
                // said `scheme + rules: remove-fragment`, round 20).
                match rules.compare_why(a, b).map_err(|e| side(e.side, e.error))? {
                    Some(v) => {
                        fired = v.rules;
                        Verdict::Ladder(v.rung)
                    }
                    None => {
                        // The chains start at the rules' keys, where rung 3
                        // starts under the rules.
                        let ra = rules.key(a).map_err(|e| side(Side::A, e))?;
                        let rb = rules.key(b).map_err(|e| side(Side::B, e))?;
                        let ca = self.r.p.chain(&ra).map_err(|e| side(Side::A, e))?;
                        let cb = self.r.p.chain(&rb).map_err(|e| side(Side::B, e))?;
                        let (mut ka, mut kb) = (String::new(), String::new());
                        self.r.key_into(a, &mut ka)?;
                        self.r.key_into(b, &mut kb)?;
                        if ka == kb {
                            Verdict::Protocol(Box::new((ca, cb)))
                        } else {
                            Verdict::Different(Box::new((ca, cb)))
                        }
                    }
                }
            }
        };
        if matches!(v, Verdict::Different(_)) {
            self.different.fetch_add(1, Ordering::Relaxed);
        }
        Ok((v, fired))
    }
}

impl Op for CompareOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        match self.verdict(input)? {
            (Verdict::Ladder(r), rules) if rules.is_empty() => {
                let _ = write!(out, "equivalent ({})", r.name());
            }
            (Verdict::Ladder(r), rules) => {
                // As `compare` without evidence: the rules made them equal.
                let _ = write!(out, "equivalent ({} + rules: ", r.name());
                for (i, rule) in rules.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(rule.name());
                }
                out.push(')');
            }
            (Verdict::Protocol(c), _) => {
                let _ = write!(
                    out,
                    "equivalent (protocol)\ta: {}\tb: {}",
                    chain_line(&c.0),
                    chain_line(&c.1)
                );
            }
            (Verdict::Different(_), _) => out.push_str("different"),
        }
        Ok(())
    }

    fn write_json(
        &self,
        input: &str,
        _: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        let parts = input.split_once('\t');
        obj.opt_str("a", parts.map(|p| p.0));
        obj.opt_str("b", parts.map(|p| p.1));
        match self.verdict(input) {
            Ok((v, _)) => {
                let (eq, rung, chains) = match &v {
                    Verdict::Ladder(r) => (true, Some(r.name()), None),
                    Verdict::Protocol(c) => (true, Some("protocol"), Some(c)),
                    Verdict::Different(c) => (false, None, Some(c)),
                };
                obj.bool("equivalent", eq);
                obj.opt_str("rung", rung);
                match chains {
                    Some(c) => obj.value(
                        "evidence",
                        &json!({"a": chain_json(&c.0), "b": chain_json(&c.1)}),
                    ),
                    None => obj.null("evidence"),
                }
                Ok(())
            }
            Err(f) => {
                for k in ["equivalent", "rung", "evidence"] {
                    obj.null(k);
                }
                Err(f)
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        for k in ["a", "b", "equivalent", "rung", "evidence"] {
            obj.null(k);
        }
    }
}

pub(crate) fn compare(l: &LadderArgs, io: &IoArgs, mode: RecordMode) -> Result<ExitCode, CliError> {
    let op = CompareOp {
        r: Rung3::new(l, Form::Uri, io.quiet, false, io.max_len)?,
        different: AtomicU64::new(0),
    };
    let code = execute(io, mode, Task::Map(&op))?;
    if code == ExitCode::SUCCESS && op.different.load(Ordering::Relaxed) > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}

/// The rung-3 part of `explain`: every hop with its record, inferred host
/// conventions with their support, why the chain stops, and every other
/// observation of each key on it (disagreements).
pub(crate) struct ExplainProtocol {
    r: Rung3,
}

impl ExplainProtocol {
    /// The chain from where rung 3 starts (the rules' result, when there
    /// are rules) and the normal form `normalize` writes.
    fn chain_and_result(&self, input: &str) -> Result<(Chain, String), Failure> {
        let chain = match &self.r.rules {
            None => self.r.p.chain(input)?,
            Some(r) => self.r.p.chain(&r.normalize(input)?.text)?,
        };
        let mut result = String::new();
        self.r.normalize_into(input, &mut result)?;
        Ok((chain, result))
    }

    pub(crate) fn new(l: &LadderArgs, quiet: bool, max_len: usize) -> Result<Self, CliError> {
        Ok(ExplainProtocol {
            r: Rung3::new(l, l.form, quiet, true, max_len)?,
        })
    }

    pub(crate) fn text(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let (chain, result) = self.chain_and_result(input)?;
        let _ = writeln!(
            out,
            "  protocol  {}   [RFC 3986 §6.2.4; --redirects {}, --min-host-support {}]",
            result,
            self.r.p.options().redirects.name(),
            self.r.p.options().min_host_support
        );
        if chain.hops.is_empty() {
            let _ = writeln!(out, "          no edge from {}", chain.start);
        }
        for h in &chain.hops {
            let _ = writeln!(out, "          hop {}", hop_text(h));
            if let HopKind::Recorded(o) = &h.kind {
                for d in &o.disagreements {
                    let _ = writeln!(out, "              disagreement: {d}");
                }
            }
        }
        if let Some(o) = &chain.last {
            let _ = writeln!(
                out,
                "          stops at {}: latest observation {} at {} ({}@{}){}",
                chain.end,
                o.status,
                o.time.as_deref().unwrap_or("unknown time"),
                o.source,
                o.offset,
                match &o.target {
                    Some(t) => format!(
                        " -> {t}, not an edge under --redirects {}",
                        self.r.p.options().redirects.name()
                    ),
                    None => String::new(),
                }
            );
        }
        if chain.stop != Stop::End {
            let _ = writeln!(out, "          {}", stop_name(chain.stop));
        }
        // Every observation of each key on the chain, from the store.
        if let Some(store) = &self.r.store {
            let store = store.lock().unwrap_or_else(|e| e.into_inner());
            let mut keys = vec![chain.start.clone()];
            keys.extend(chain.hops.iter().map(|h| h.to.clone()));
            keys.dedup();
            for k in keys {
                let obs = store.observations_of(&k).unwrap_or_default();
                for o in obs {
                    let _ = writeln!(
                        out,
                        "          record {} {} {} {}{}  ({}@{})",
                        o.key,
                        irinorm_evidence::store::kind_name(o.kind),
                        o.time.as_deref().unwrap_or("-"),
                        o.status.map_or("-".to_owned(), |s| s.to_string()),
                        o.target.map(|t| format!(" -> {t}")).unwrap_or_default(),
                        o.source,
                        o.offset
                    );
                }
            }
        }
        Ok(())
    }

    pub(crate) fn json(&self, input: &str) -> Result<Value, Failure> {
        let (chain, result) = self.chain_and_result(input)?;
        Ok(json!({
            "output": result,
            "redirects": self.r.p.options().redirects.name(),
            "min_host_support": self.r.p.options().min_host_support,
            "chain": chain_json(&chain),
        }))
    }
}
