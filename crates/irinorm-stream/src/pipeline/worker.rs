//! The worker stage: runs the op on every line or record of a chunk.

use std::ops::Range;

use crossbeam_channel::{Receiver, Sender};

use crate::decode::to_text;
use crate::dedupe::{DedupeConfig, KeyBatch};
use crate::failure::{kind, Failure, Reject};
use crate::op::{Format, JsonObject, Op};
use crate::record::{write_record, CsvCursor, CsvParser, JsonRecord, RecordMode};

use super::lines::Lines;
use super::{Bufs, ChunkIn, ChunkKind, ChunkOut, Payload, Shared, Stats, Task, OVERLONG_PREFIX};

/// Per-worker reusable buffers.
struct Scratch {
    value: String,
    decoded: String,
    /// The second identifier of a pair, decoded, and the pair joined.
    decoded2: String,
    pair: String,
    csv: Option<CsvParser>,
    /// Dedupe: chunks whose keys are left to the writer without a lookup
    /// here (see [`SKIP_AFTER_MISSES`]).
    skip_lookups: u32,
}

/// Dedupe: a worker skips its lookups for this many chunks when fewer than
/// 1 in 8 of its keys were found, then tries again. A key it misses is
/// probed again by the writer, so on an input of nearly all new keys the
/// lookups would be paid twice for nothing. Above that rate they are kept:
/// every key found is one the writer thread, the stage that cannot be
/// split, does not probe. (On the 1.7M-line frontier the lookups find
/// little: an alias is mostly in the same chunk as its original, or in one
/// still in flight; perf gave the writer ~51% of the CPU with lookups
/// skipped below 1 in 2 and below 1 in 8, 37% when they were never
/// skipped, that is, when the workers also paid for the useless ones.)
const SKIP_AFTER_MISSES: u32 = 7;

pub(super) fn worker(
    sh: &Shared<'_>,
    work_rx: Receiver<ChunkIn>,
    results_tx: Sender<ChunkOut>,
    done_rx: Receiver<()>,
) {
    let mut scratch = Scratch {
        value: String::new(),
        decoded: String::new(),
        decoded2: String::new(),
        pair: String::new(),
        skip_lookups: 0,
        csv: match &sh.records {
            RecordMode::Delimited {
                delimiter, quoting, ..
            } => Some(CsvParser::new(*delimiter, *quoting)),
            _ => None,
        },
    };
    loop {
        crossbeam_channel::select! {
            recv(work_rx) -> m => match m {
                Ok(c) => {
                    // A panic becomes the chunk's result, in its place in
                    // the order: the writer fails the run there (it would
                    // otherwise wait for the chunk forever).
                    let seq = c.seq;
                    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        process(sh, &mut scratch, c)
                    }))
                    .unwrap_or_else(|p| ChunkOut {
                        seq,
                        payload: Payload::Fatal(crate::fault::panicked("worker", p)),
                    });
                    let fatal = matches!(out.payload, Payload::Fatal(_));
                    if results_tx.send(out).is_err() || fatal {
                        return;
                    }
                }
                Err(_) => return,
            },
            recv(done_rx) -> _ => return,
        }
    }
}

/// Everything one chunk's units write to.
struct Ctx<'s, 'a> {
    sh: &'s Shared<'a>,
    value: &'s mut String,
    decoded: &'s mut String,
    out: &'s mut Vec<u8>,
    keys: &'s mut KeyBatch,
    stats: Stats,
    rejects: Vec<Reject>,
    source: usize,
    stopped: bool,
}

impl Ctx<'_, '_> {
    /// Counts the outcome of one unit; false when the run must stop.
    fn outcome(&mut self, r: Result<(), Failure>, line: u64, raw: &[u8]) -> bool {
        match r {
            Ok(()) => {
                self.stats.accepted += 1;
                true
            }
            Err(failure) => {
                self.stats.rejected += 1;
                self.rejects.push(Reject {
                    source: self.source,
                    line,
                    failure,
                    original: raw.to_vec(),
                });
                if self.sh.strict {
                    self.stopped = true;
                }
                !self.sh.strict
            }
        }
    }

    /// A unit longer than `--max-len` (skipped by the reader, or found
    /// whole in a chunk): rejected as `too-long` without running the op; in
    /// line input, the op's output for an unavailable input keeps one
    /// output a line (`check`'s verdict, a jsonl object with `"input":
    /// null`). Only its first bytes are kept for the report.
    fn too_long(&mut self, line: u64, raw: &[u8], len: u64) -> bool {
        self.stats.read += 1;
        let f = Failure::new(
            kind::TOO_LONG,
            self.sh.max_len,
            format!(
                "{len} bytes, more than --max-len {}: skipped (the report keeps its first {} bytes)",
                self.sh.max_len, OVERLONG_PREFIX
            ),
        );
        if let (Task::Map(op), RecordMode::Lines) = (self.sh.task, &self.sh.records) {
            let before = self.out.len();
            match self.sh.format {
                Format::Text => op.write_text_unavailable(&f, self.out),
                Format::Jsonl => {
                    let mut o = JsonObject::begin(self.out);
                    o.null("input");
                    op.write_json_unavailable(&mut o);
                    o.error(Some(&f));
                    o.end();
                }
            }
            if self.out.len() > before {
                self.stats.written += 1;
            }
        }
        self.outcome(Err(f), line, &raw[..raw.len().min(OVERLONG_PREFIX)])
    }

    /// One line of plain line input.
    fn line(
        &mut self,
        data: &[u8],
        span: Range<usize>,
        line: u64,
        chunk_text: Option<&str>,
    ) -> bool {
        let raw = &data[span.clone()];
        if raw.len() > self.sh.max_len {
            return self.too_long(line, raw, raw.len() as u64);
        }
        self.stats.read += 1;
        let ident = match chunk_text {
            Some(t) => Ok(&t[span.clone()]),
            None => to_text(raw, self.sh.encoding, self.decoded),
        };
        let r = match self.sh.task {
            Task::Map(op) => {
                let before = self.out.len();
                let r = match self.sh.format {
                    Format::Text => match ident {
                        Ok(s) => op.write_text(s, self.value, self.out),
                        Err(f) => {
                            op.write_text_unavailable(&f, self.out);
                            Err(f)
                        }
                    },
                    Format::Jsonl => {
                        let mut o = JsonObject::begin(self.out);
                        let r = match ident {
                            Ok(s) => {
                                o.str("input", s);
                                op.write_json(s, self.value, &mut o)
                            }
                            Err(f) => {
                                o.str("input", &String::from_utf8_lossy(raw));
                                op.write_json_unavailable(&mut o);
                                Err(f)
                            }
                        };
                        o.error(r.as_ref().err());
                        o.end();
                        r
                    }
                };
                if self.out.len() > before {
                    self.stats.written += 1;
                }
                r
            }
            Task::Dedupe(op, d) => ident.and_then(|s| {
                push_key(self.value, self.keys, self.sh.needs_ident, op, &d, s, span)
            }),
        };
        // An accepted line is counted here (see `value_lines`).
        match r {
            Ok(()) => {
                self.stats.accepted += 1;
                true
            }
            Err(f) => self.outcome(Err(f), line, raw),
        }
    }

    /// The lines of a chunk of plain line input whose text output is the
    /// op's value ([`Op::text_is_value`]), appended to `text` (the chunk's
    /// output). Returns the number of line ends passed.
    ///
    /// One loop over the lines with the op's call inside it (issue 14
    /// round 13: a closure per line through `for_each_line` was not
    /// inlined), and the accepted lines counted in a local, added to the
    /// chunk's counts at the end: a count kept in `self.stats` is a load
    /// and a store per line, three counts per line.
    fn value_lines(&mut self, op: &dyn Op, chunk: &str, kind: ChunkKind, text: &mut String) -> u64 {
        let data = chunk.as_bytes();
        let max_len = self.sh.max_len;
        let mut accepted = 0u64;
        let mut lines = Lines::new(data, kind);
        for (span, line) in lines.by_ref() {
            if span.len() > max_len {
                // Writes nothing (`write_text_unavailable` is the default).
                let raw = &data[span];
                if !self.too_long(line, raw, raw.len() as u64) {
                    break;
                }
                continue;
            }
            let before = text.len();
            match op.apply(&chunk[span.clone()], text) {
                Ok(()) => {
                    text.push('\n');
                    accepted += 1;
                }
                // What a failing op appended is not output.
                Err(f) => {
                    text.truncate(before);
                    self.stats.read += 1;
                    if !self.outcome(Err(f), line, &data[span]) {
                        break;
                    }
                }
            }
        }
        self.stats.read += accepted;
        self.stats.written += accepted;
        self.stats.accepted += accepted;
        lines.ends()
    }

    /// One JSON Lines record.
    fn json(
        &mut self,
        data: &[u8],
        span: Range<usize>,
        line: u64,
        field: &str,
        field2: Option<&str>,
        into: Option<&str>,
    ) -> bool {
        let raw = &data[span.clone()];
        if raw.len() > self.sh.max_len {
            return self.too_long(line, raw, raw.len() as u64);
        }
        self.stats.read += 1;
        let before = self.out.len();
        let r = json_record(
            self.sh,
            raw,
            field,
            field2,
            into,
            self.decoded,
            self.value,
            self.out,
            self.keys,
            span,
        );
        if self.out.len() > before && matches!(self.sh.task, Task::Map(_)) {
            self.stats.written += 1;
        }
        self.outcome(r, line, raw)
    }
}

/// Computes the dedupe key of `ident` and adds it to the batch: written
/// there directly when the op appends ([`Op::appends`]), else through
/// `value`.
fn push_key(
    value: &mut String,
    keys: &mut KeyBatch,
    needs_ident: bool,
    op: &dyn Op,
    d: &DedupeConfig,
    ident: &str,
    span: Range<usize>,
) -> Result<(), Failure> {
    let ident_kept = needs_ident.then_some(ident);
    if op.appends() {
        return keys.push_with(d, span, ident_kept, |t| op.apply(ident, t));
    }
    value.clear();
    op.apply(ident, value)?;
    keys.push(d, value, span, ident_kept);
    Ok(())
}

/// One JSON Lines record: the op's value replaces (or is added as) a field.
#[allow(clippy::too_many_arguments)]
fn json_record(
    sh: &Shared<'_>,
    raw: &[u8],
    field: &str,
    field2: Option<&str>,
    into: Option<&str>,
    decoded: &mut String,
    value: &mut String,
    out: &mut Vec<u8>,
    keys: &mut KeyBatch,
    span: Range<usize>,
) -> Result<(), Failure> {
    let text = to_text(raw, sh.encoding, decoded)?;
    let rec = JsonRecord::parse(text)?;
    let first = rec.get_str(field)?;
    // A pair (for compare): the second field, joined to the first with a TAB.
    let ident = match field2 {
        None => first,
        Some(f2) => std::borrow::Cow::Owned(format!("{first}\t{}", rec.get_str(f2)?)),
    };
    match sh.task {
        Task::Map(op) => {
            value.clear();
            if let Err(f) = op.apply(&ident, value) {
                // --on-reject empty|keep: the record stays, the reject counts.
                if let Some(v) = op.reject_value(&ident) {
                    rec.write_with(out, into.unwrap_or(field), &v);
                }
                return Err(f);
            }
            rec.write_with(out, into.unwrap_or(field), value);
            Ok(())
        }
        Task::Dedupe(op, d) => push_key(value, keys, sh.needs_ident, op, &d, &ident, span),
    }
}

/// Calls `f(span, line)` for every line of a chunk ([`Lines`]); stops when
/// `f` returns false. Returns the number of line ends passed (1 for a
/// single unit).
fn for_each_line(
    data: &[u8],
    kind: ChunkKind,
    mut f: impl FnMut(Range<usize>, u64) -> bool,
) -> u64 {
    let mut lines = Lines::new(data, kind);
    for (span, line) in lines.by_ref() {
        if !f(span, line) {
            break;
        }
    }
    lines.ends()
}

fn process(sh: &Shared<'_>, scratch: &mut Scratch, c: ChunkIn) -> ChunkOut {
    crate::fault::inject("worker");
    let ChunkIn {
        seq,
        source,
        kind,
        layout,
        mut bufs,
        overlong,
    } = c;
    bufs.out.clear();
    bufs.keys.clear();
    let Bufs {
        data,
        len,
        out,
        keys,
    } = &mut *bufs;
    let data: &[u8] = &data[..*len];
    let (decoded2, pair) = (&mut scratch.decoded2, &mut scratch.pair);
    let skip_lookups = &mut scratch.skip_lookups;
    let mut ctx = Ctx {
        sh,
        value: &mut scratch.value,
        decoded: &mut scratch.decoded,
        out,
        keys,
        stats: Stats::default(),
        rejects: Vec::new(),
        source,
        stopped: false,
    };
    let lines = match &sh.records {
        RecordMode::Lines => {
            // One UTF-8 check for the whole chunk, when it passes (almost
            // always), instead of one per line (simdutf8: SIMD). A chunk
            // that fails is checked line by line (`to_text` gives the
            // offset of the first bad byte).
            let chunk_text = simdutf8::basic::from_utf8(data).ok();
            match (sh.task, sh.format, chunk_text) {
                (Task::Map(op), Format::Text, Some(text)) if op.text_is_value() => {
                    // The op appends each value straight into the chunk's
                    // output: a `String` that owns the output buffer for
                    // the chunk (taken empty, so the conversion checks
                    // nothing, and given back as bytes without a copy).
                    let mut s = String::from_utf8(std::mem::take(ctx.out)).unwrap_or_default();
                    let n = ctx.value_lines(op, text, kind, &mut s);
                    *ctx.out = s.into_bytes();
                    n
                }
                _ => for_each_line(data, kind, |span, line| {
                    ctx.line(data, span, line, chunk_text)
                }),
            }
        }
        RecordMode::Json {
            field,
            field2,
            into,
        } => for_each_line(data, kind, |span, line| {
            ctx.json(data, span, line, field, field2.as_deref(), into.as_deref())
        }),
        RecordMode::Delimited {
            delimiter, quoting, ..
        } => {
            let mut cur = CsvCursor { pos: 0, line: 1 };
            if let Some(p) = scratch.csv.as_mut() {
                p.reset();
                while let Some(rec) = p.next(data, &mut cur) {
                    let raw = &data[rec.span.clone()];
                    if raw.len() > sh.max_len {
                        if !ctx.too_long(rec.line, raw, raw.len() as u64) {
                            break;
                        }
                        continue;
                    }
                    ctx.stats.read += 1;
                    let r = match rec.field(layout.column) {
                        None => Err(Failure::new(
                            kind::MISSING_COLUMN,
                            0,
                            format!(
                                "the record has {} columns, not {}",
                                rec.len(),
                                layout.column + 1
                            ),
                        )),
                        Some(fb) => match to_text(fb, sh.encoding, ctx.decoded) {
                            Err(f) => Err(f),
                            // A pair (for compare): the second column, joined
                            // to the first with a TAB.
                            Ok(first) => match layout.column2 {
                                None => Ok(first),
                                Some(c2) => match rec.field(c2) {
                                    None => Err(Failure::new(
                                        kind::MISSING_COLUMN,
                                        0,
                                        format!(
                                            "the record has {} columns, not {}",
                                            rec.len(),
                                            c2 + 1
                                        ),
                                    )),
                                    Some(fb2) => {
                                        to_text(fb2, sh.encoding, &mut *decoded2).map(|second| {
                                            pair.clear();
                                            pair.push_str(first);
                                            pair.push('\t');
                                            pair.push_str(second);
                                            pair.as_str()
                                        })
                                    }
                                },
                            }
                            .and_then(|ident| match sh.task {
                                Task::Map(op) => {
                                    ctx.value.clear();
                                    match op.apply(ident, ctx.value) {
                                        Ok(()) => {
                                            write_record(
                                                ctx.out,
                                                &rec,
                                                layout.target,
                                                ctx.value.as_bytes(),
                                                *delimiter,
                                                *quoting,
                                            );
                                            ctx.stats.written += 1;
                                            Ok(())
                                        }
                                        Err(f) => {
                                            // --on-reject empty|keep: the
                                            // record stays, the reject counts.
                                            if let Some(v) = op.reject_value(ident) {
                                                write_record(
                                                    ctx.out,
                                                    &rec,
                                                    layout.target,
                                                    v.as_bytes(),
                                                    *delimiter,
                                                    *quoting,
                                                );
                                                ctx.stats.written += 1;
                                            }
                                            Err(f)
                                        }
                                    }
                                }
                                Task::Dedupe(op, d) => push_key(
                                    ctx.value,
                                    ctx.keys,
                                    sh.needs_ident,
                                    op,
                                    &d,
                                    ident,
                                    rec.span.clone(),
                                ),
                            }),
                        },
                    };
                    if !ctx.outcome(r, rec.line, raw) {
                        break;
                    }
                }
            }
            cur.line - 1
        }
    };
    if let Some(store) = &sh.store {
        if *skip_lookups > 0 {
            *skip_lookups -= 1;
        } else {
            let found = ctx.keys.look_up(store);
            if found * 8 < ctx.keys.keys.len() {
                *skip_lookups = SKIP_AFTER_MISSES;
            }
        }
    }
    let mut lines = lines;
    if let Some(o) = overlong {
        if !ctx.stopped {
            ctx.too_long(lines + o.lead_lines + 1, &o.prefix, o.len);
            ctx.stats.skipped += o.len;
            lines += o.lines;
        }
    }
    let Ctx {
        stats,
        rejects,
        stopped,
        ..
    } = ctx;
    ChunkOut {
        seq,
        payload: Payload::Data {
            source,
            bufs,
            stats,
            rejects,
            lines,
            stopped,
        },
    }
}
