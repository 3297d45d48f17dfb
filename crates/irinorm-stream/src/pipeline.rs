//! The ordered parallel pipeline.
//!
//! ```text
//!  reader thread ──chunks──▶ N workers ──results──▶ writer (calling thread)
//!        ▲                                             │
//!        └────────── permits (recycled buffers) ◀──────┘
//! ```
//!
//! - The reader reads big chunks, cut at line ends (or, for quoted CSV, at
//!   record ends), and numbers them.
//! - Workers run the op on every line or record of a chunk, into the
//!   chunk's output buffer; rejects are collected with their line numbers.
//! - The writer puts results back in input order, writes them, reports
//!   rejects, counts, and hands the buffers back to the reader.
//!
//! A chunk needs a permit, and there are `2 × threads + 2` permits, so the
//! memory in use is bounded whatever the input size (a line longer than a
//! chunk makes its chunk grow to hold it). Buffers travel with the permits,
//! so a long run allocates nothing per chunk.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TryRecvError};

use crate::decode::{to_text, InputEncoding};
use crate::dedupe::{Dedupe, DedupeConfig, KeyBatch};
use crate::failure::{kind, Failure, Reject};
use crate::input::{self, Input, Inputs};
use crate::op::{Format, JsonObject, Op};
use crate::output::Sink;
use crate::progress::Progress;
use crate::record::{
    write_field, write_record, CsvCursor, CsvCutter, CsvParser, JsonRecord, Layout, RecordMode,
    Target,
};

/// Default chunk size: big enough that per-chunk costs vanish, small
/// enough that `2 × threads + 2` of them are a few tens of MB.
pub const DEFAULT_CHUNK_SIZE: usize = 1 << 20;

/// How to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Target chunk size in bytes.
    pub chunk_size: usize,
    /// Stop at the first rejected input.
    pub strict: bool,
    /// Encoding of lines that are not UTF-8 (they are rejected without it).
    pub encoding: Option<InputEncoding>,
    /// What a unit of input is.
    pub records: RecordMode,
    /// Output format of line input.
    pub format: Format,
    /// Show a progress bar on stderr (the caller checks for a terminal).
    pub progress: bool,
    /// Write every reject to this file.
    pub rejects_file: Option<PathBuf>,
    /// Without a rejects file, show at most this many rejects on stderr.
    pub show_rejects: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: default_threads(),
            chunk_size: DEFAULT_CHUNK_SIZE,
            strict: false,
            encoding: None,
            records: RecordMode::Lines,
            format: Format::Text,
            progress: false,
            rejects_file: None,
            show_rejects: 20,
        }
    }
}

/// All cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What a run does with each identifier.
#[derive(Clone, Copy)]
pub enum Task<'a> {
    /// Write the op's output for every input (in input order).
    Map(&'a dyn Op),
    /// Deduplicate by the op's value (the key).
    Dedupe(&'a dyn Op, DedupeConfig),
}

impl std::fmt::Debug for Task<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Task::Map(_) => f.write_str("Map"),
            Task::Dedupe(_, c) => write!(f, "Dedupe({c:?})"),
        }
    }
}

/// Counters of a run.
///
/// Always `read == accepted + rejected`. In text output and record modes,
/// `written == accepted - duplicates` (nothing is written for a rejected
/// input, except by ops that print a verdict for it, like `check`); in
/// `jsonl` output every input line gives one object, so `written == read`.
/// With `--strict`, counting stops at the first reject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Inputs (lines, records or arguments) read.
    pub read: u64,
    /// Inputs accepted.
    pub accepted: u64,
    /// Inputs rejected.
    pub rejected: u64,
    /// Output lines (or records, or dedupe entries) written.
    pub written: u64,
    /// Dedupe: accepted inputs whose key was already seen.
    pub duplicates: u64,
    /// Dedupe: distinct keys.
    pub unique: Option<u64>,
    /// Dedupe: estimated bytes held for the keys.
    pub key_memory: Option<u64>,
    /// Input bytes processed (decompressed).
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Stopped at a reject (`--strict`).
    pub stopped: bool,
    /// The output was closed by the reader (a pipe into `head`...).
    pub broken_pipe: bool,
    /// Rejects shown on stderr.
    pub rejects_shown: u64,
    /// Where all rejects were written.
    pub rejects_file: Option<PathBuf>,
}

fn bytes_h(b: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", U[i])
    }
}

impl Summary {
    /// The summary line (without program name): `read N, written N,
    /// rejected N[, duplicates N, unique N (keys ~X)][ in S s (R MB/s)]`
    /// and notes on where the rejects are; the time is shown from 1 MB of
    /// input on.
    pub fn line(&self) -> String {
        let mut s = format!(
            "read {}, written {}, rejected {}",
            self.read, self.written, self.rejected
        );
        if let Some(u) = self.unique {
            s.push_str(&format!(", duplicates {}, unique {u}", self.duplicates));
            if let Some(m) = self.key_memory {
                s.push_str(&format!(" (keys ~{})", bytes_h(m)));
            }
        }
        let secs = self.elapsed.as_secs_f64();
        if self.bytes >= 1_000_000 && secs > 0.0 {
            s.push_str(&format!(
                " in {secs:.2} s ({:.1} MB/s)",
                self.bytes as f64 / secs / 1e6
            ));
        }
        if self.rejected > 0 {
            match &self.rejects_file {
                Some(p) => s.push_str(&format!("; rejects in {}", p.display())),
                None if self.rejects_shown < self.rejected => s.push_str(&format!(
                    "; {} rejects not shown (--rejects FILE keeps them all)",
                    self.rejected - self.rejects_shown
                )),
                None => {}
            }
        }
        if self.stopped {
            s.push_str("; stopped at the first reject (--strict)");
        }
        s
    }
}

/// The buffers of one chunk. `data` is kept initialized to its length
/// across uses (so reading into it never zero-fills again); the chunk's
/// bytes are `data[..len]`.
#[derive(Default)]
struct Bufs {
    data: Vec<u8>,
    len: usize,
    out: Vec<u8>,
    keys: KeyBatch,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ChunkKind {
    /// Lines (or records) cut from a stream.
    Stream,
    /// One command-line argument: a single unit, never split.
    Single,
}

struct ChunkIn {
    seq: u64,
    source: usize,
    kind: ChunkKind,
    layout: Layout,
    bufs: Box<Bufs>,
}

#[derive(Default)]
struct Stats {
    read: u64,
    accepted: u64,
    rejected: u64,
    written: u64,
}

/// Line numbers: workers number lines from 1 within their chunk and say
/// how many line ends the chunk held; the writer, which sees chunks in
/// order, adds the lines of the chunks before (per source).
enum Payload {
    Data {
        source: usize,
        bufs: Box<Bufs>,
        stats: Stats,
        rejects: Vec<Reject>,
        lines: u64,
        stopped: bool,
    },
    Header {
        source: usize,
        out: Vec<u8>,
        lines: u64,
    },
    Fatal(io::Error),
}

struct ChunkOut {
    seq: u64,
    payload: Payload,
}

/// Per-worker reusable buffers.
struct Scratch {
    value: String,
    decoded: String,
    /// The second identifier of a pair, decoded, and the pair joined.
    decoded2: String,
    pair: String,
    csv: Option<CsvParser>,
}

struct Shared<'a> {
    task: Task<'a>,
    records: RecordMode,
    format: Format,
    encoding: Option<InputEncoding>,
    strict: bool,
    needs_ident: bool,
}

/// Runs `task` over `inputs`, writing to `sink` (which the caller
/// finishes). Errors are fatal problems (unreadable input, unwritable
/// output, a `--column` name missing from a header); rejected inputs are
/// not errors: they are counted in the [`Summary`].
pub fn run(inputs: Inputs, cfg: &Config, task: Task<'_>, sink: &mut Sink) -> io::Result<Summary> {
    let start = Instant::now();
    if cfg.records.has_header() && inputs.list.iter().any(|i| matches!(i, Input::Args(_))) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a header (--column NAME, --header) needs input files or stdin, not identifiers as arguments",
        ));
    }
    inputs.check()?;
    let inputs_size = match task {
        Task::Dedupe(..) => inputs.total_size(),
        Task::Map(_) => None,
    };
    let total = if cfg.progress {
        inputs_size.or_else(|| inputs.total_size())
    } else {
        None
    };
    let names: Vec<String> = inputs.list.iter().map(Input::name).collect();
    let args_only = inputs.list.iter().all(|i| matches!(i, Input::Args(_)));
    let mut rejects = RejectReporter::new(cfg, names, args_only)?;
    let threads = cfg.threads.max(1);
    let permits_n = 2 * threads + 2;

    let (work_tx, work_rx) = unbounded::<ChunkIn>();
    let (results_tx, results_rx) = unbounded::<ChunkOut>();
    let (permits_tx, permits_rx) = bounded::<Box<Bufs>>(permits_n);
    let (done_tx, done_rx) = bounded::<()>(0);
    for _ in 0..permits_n {
        let _ = permits_tx.send(Box::default());
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let raw_count = Arc::new(AtomicU64::new(0));

    // The reader is detached: if the run stops early (--strict, broken
    // pipe) while it waits on a terminal, nobody waits for it.
    {
        let rd = Reader {
            chunk_size: cfg.chunk_size.max(1),
            records: cfg.records.clone(),
            work_tx,
            results_tx: results_tx.clone(),
            permits_rx,
            cancel: cancel.clone(),
            raw_count: raw_count.clone(),
            seq: 0,
        };
        std::thread::Builder::new()
            .name("irinorm-reader".into())
            .spawn(move || rd.run(inputs))?;
    }

    let shared = Shared {
        task,
        records: cfg.records.clone(),
        format: cfg.format,
        encoding: cfg.encoding,
        strict: cfg.strict,
        needs_ident: match task {
            Task::Dedupe(_, d) => d.needs_ident(cfg.format),
            Task::Map(_) => false,
        },
    };
    let progress = Progress::new(cfg.progress, total);
    let mut summary = Summary {
        rejects_file: cfg.rejects_file.clone(),
        ..Summary::default()
    };
    let mut dedupe = match task {
        Task::Dedupe(_, d) => Some(Dedupe::new(d, cfg.format, inputs_size)),
        Task::Map(_) => None,
    };

    let result = std::thread::scope(|s| {
        for i in 0..threads {
            let (work_rx, results_tx, done_rx) =
                (work_rx.clone(), results_tx.clone(), done_rx.clone());
            let shared = &shared;
            std::thread::Builder::new()
                .name(format!("irinorm-worker-{i}"))
                .spawn_scoped(s, move || worker(shared, work_rx, results_tx, done_rx))?;
        }
        drop(results_tx);
        drop(work_rx);
        let mut w = Writer {
            sink,
            rejects: &mut rejects,
            dedupe: dedupe.as_mut(),
            summary: &mut summary,
            progress: &progress,
            raw_count: &raw_count,
            header_written: false,
            write_headers: match task {
                Task::Map(_) => true,
                Task::Dedupe(_, d) => matches!(
                    d.mode,
                    crate::DedupeMode::KeepFirst | crate::DedupeMode::KeepLast
                ),
            },
            permits_tx,
            buf: Vec::new(),
            line_base: Vec::new(),
        };
        let r = w.run(&results_rx);
        // Dropping the writer drops the permits' sender: a reader waiting
        // for a permit ends.
        drop(w);
        cancel.store(true, Ordering::Relaxed);
        drop(done_tx);
        r
    });
    progress.finish();
    let broken = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    match result {
        Ok(()) => {}
        Err(e) if broken(&e) => summary.broken_pipe = true,
        Err(e) => return Err(e),
    }
    if let Some(d) = dedupe.as_mut() {
        if !summary.broken_pipe {
            match d.finish(sink) {
                Ok(n) => summary.written += n,
                Err(e) if broken(&e) => summary.broken_pipe = true,
                Err(e) => return Err(e),
            }
        }
        summary.duplicates = d.duplicates;
        summary.unique = Some(d.unique);
        summary.key_memory = Some(d.memory());
    }
    rejects.finish()?;
    summary.rejects_shown = rejects.shown;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// Makes `data` at least `n` bytes long (zero-filling only what is new).
fn grow(data: &mut Vec<u8>, n: usize) {
    if data.len() < n {
        data.resize(n, 0);
    }
}

struct Reader {
    chunk_size: usize,
    records: RecordMode,
    work_tx: Sender<ChunkIn>,
    results_tx: Sender<ChunkOut>,
    permits_rx: Receiver<Box<Bufs>>,
    cancel: Arc<AtomicBool>,
    raw_count: Arc<AtomicU64>,
    seq: u64,
}

impl Reader {
    fn run(mut self, inputs: Inputs) {
        for (source, input) in inputs.list.into_iter().enumerate() {
            if self.cancel.load(Ordering::Relaxed) {
                return;
            }
            let r = match input {
                Input::Args(args) => self.args(source, args),
                other => self.stream(source, &other),
            };
            match r {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    let _ = self.results_tx.send(ChunkOut {
                        seq: self.seq,
                        payload: Payload::Fatal(e),
                    });
                    return;
                }
            }
        }
    }

    /// A permit, or `None` when the run is over.
    fn permit(&self) -> Option<Box<Bufs>> {
        let p = self.permits_rx.recv().ok()?;
        (!self.cancel.load(Ordering::Relaxed)).then_some(p)
    }

    fn send(&mut self, c: ChunkIn) -> bool {
        self.seq += 1;
        self.work_tx.send(c).is_ok()
    }

    fn args(&mut self, source: usize, args: Vec<Vec<u8>>) -> io::Result<bool> {
        let layout = Layout::plain(&self.records);
        for a in args {
            let Some(mut bufs) = self.permit() else {
                return Ok(false);
            };
            bufs.len = a.len();
            bufs.data = a;
            let c = ChunkIn {
                seq: self.seq,
                source,
                kind: ChunkKind::Single,
                layout,
                bufs,
            };
            if !self.send(c) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn stream(&mut self, source: usize, input: &Input) -> io::Result<bool> {
        let name = input.name();
        let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{name}: {e}"));
        let opened = input::open(input, self.raw_count.clone())?;
        let mut reader = opened.reader;
        let mut cutter = self.records.quoted_csv().map(CsvCutter::new);
        let mut carry: Vec<u8> = Vec::new();
        let mut eof = false;
        let mut layout = Layout::plain(&self.records);
        let mut need_header = self.records.has_header();
        while !eof {
            let Some(mut bufs) = self.permit() else {
                return Ok(false);
            };
            let data = &mut bufs.data;
            grow(data, carry.len() + self.chunk_size);
            data[..carry.len()].copy_from_slice(&carry);
            let mut filled = carry.len();
            if let Some(c) = cutter.as_mut() {
                c.reset();
            }
            let (mut cut, mut scanned, mut short) = (0usize, 0usize, false);
            loop {
                if filled > scanned {
                    match cutter.as_mut() {
                        Some(c) => cut = c.scan(&data[..filled]),
                        None => {
                            if let Some(p) = memchr::memrchr(b'\n', &data[scanned..filled]) {
                                cut = scanned + p + 1;
                            }
                        }
                    }
                    scanned = filled;
                }
                if eof {
                    cut = filled;
                    break;
                }
                if cut > 0 && (filled >= self.chunk_size || short) {
                    break;
                }
                // Read up to the chunk size; a unit longer than that
                // (no line end yet) doubles the buffer.
                let want = if filled < self.chunk_size {
                    self.chunk_size - filled
                } else {
                    filled
                };
                grow(data, filled + want);
                let n = loop {
                    match reader.read(&mut data[filled..filled + want]) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(ctx(e)),
                    }
                };
                filled += n;
                eof = n == 0;
                short = opened.interactive && n < want;
            }
            carry.clear();
            carry.extend_from_slice(&data[cut..filled]);
            bufs.len = cut;

            if need_header && bufs.len > 0 {
                if let Some(pos) = self
                    .header(source, &bufs.data[..bufs.len], &mut layout)
                    .map_err(ctx)?
                {
                    need_header = false;
                    bufs.data.copy_within(pos..bufs.len, 0);
                    bufs.len -= pos;
                }
            }
            let c = ChunkIn {
                seq: self.seq,
                source,
                kind: ChunkKind::Stream,
                layout,
                bufs,
            };
            if !self.send(c) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Reads the header record at the start of `data`, resolves the layout
    /// and sends the header line to the writer. Returns where the data
    /// starts after it, or `None` when `data` holds only blank lines.
    fn header(
        &mut self,
        source: usize,
        data: &[u8],
        layout: &mut Layout,
    ) -> io::Result<Option<usize>> {
        let RecordMode::Delimited {
            delimiter,
            quoting,
            into,
            ..
        } = &self.records
        else {
            return Ok(Some(0));
        };
        let (delimiter, quoting) = (*delimiter, *quoting);
        let mut p = CsvParser::new(delimiter, quoting);
        p.reset();
        let mut cur = CsvCursor { pos: 0, line: 0 };
        let mut out = Vec::new();
        let Some(rec) = p.next(data, &mut cur) else {
            return Ok(None);
        };
        let names: Vec<&[u8]> = (0..rec.len())
            .map(|i| rec.field(i).unwrap_or_default())
            .collect();
        *layout = Layout::from_header(&self.records, &names)
            .map_err(|m| io::Error::new(io::ErrorKind::InvalidInput, m))?;
        let into = into.as_deref().unwrap_or_default().as_bytes();
        match layout.target {
            Target::Append => {
                write_record(&mut out, &rec, Target::Append, into, delimiter, quoting)
            }
            Target::Column(_) => {
                let n = rec.len();
                for (i, f) in names.iter().enumerate() {
                    if i > 0 {
                        out.push(delimiter);
                    }
                    write_field(&mut out, f, delimiter, quoting, n == 1);
                }
                out.push(b'\n');
            }
        }
        let _ = self.results_tx.send(ChunkOut {
            seq: self.seq,
            payload: Payload::Header {
                source,
                out,
                lines: cur.line,
            },
        });
        self.seq += 1;
        Ok(Some(cur.pos))
    }
}

fn worker(
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
                    let out = process(sh, &mut scratch, c);
                    if results_tx.send(out).is_err() {
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

    /// One line of plain line input.
    fn line(
        &mut self,
        data: &[u8],
        span: Range<usize>,
        line: u64,
        chunk_text: Option<&str>,
    ) -> bool {
        self.stats.read += 1;
        let raw = &data[span.clone()];
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
        self.outcome(r, line, raw)
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
        self.stats.read += 1;
        let raw = &data[span.clone()];
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

/// Computes the dedupe key of `ident` into `value` and adds it to the batch.
fn push_key(
    value: &mut String,
    keys: &mut KeyBatch,
    needs_ident: bool,
    op: &dyn Op,
    d: &DedupeConfig,
    ident: &str,
    span: Range<usize>,
) -> Result<(), Failure> {
    value.clear();
    op.apply(ident, value)?;
    keys.push(d, value, span, needs_ident.then_some(ident));
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

/// Calls `f(span, line)` for every line of a stream chunk (trailing `\r`
/// stripped; lines numbered from 1), or once for the whole of a
/// single-unit chunk; stops when `f` returns false. Returns the number of
/// line ends passed (1 for a single unit).
fn for_each_line(
    data: &[u8],
    kind: ChunkKind,
    mut f: impl FnMut(Range<usize>, u64) -> bool,
) -> u64 {
    if kind == ChunkKind::Single {
        f(0..data.len(), 1);
        return 1;
    }
    let mut start = 0;
    let mut line = 1;
    for nl in memchr::memchr_iter(b'\n', data) {
        let end = if nl > start && data[nl - 1] == b'\r' {
            nl - 1
        } else {
            nl
        };
        if !f(start..end, line) {
            return line;
        }
        start = nl + 1;
        line += 1;
    }
    if start < data.len() {
        let end = if data[data.len() - 1] == b'\r' {
            data.len() - 1
        } else {
            data.len()
        };
        f(start..end, line);
    }
    line - 1
}

fn process(sh: &Shared<'_>, scratch: &mut Scratch, c: ChunkIn) -> ChunkOut {
    let ChunkIn {
        seq,
        source,
        kind,
        layout,
        mut bufs,
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
            // always), instead of one per line.
            let chunk_text = std::str::from_utf8(data).ok();
            for_each_line(data, kind, |span, line| {
                ctx.line(data, span, line, chunk_text)
            })
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
                    ctx.stats.read += 1;
                    let raw = &data[rec.span.clone()];
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

struct Writer<'a> {
    sink: &'a mut Sink,
    rejects: &'a mut RejectReporter,
    dedupe: Option<&'a mut Dedupe>,
    summary: &'a mut Summary,
    progress: &'a Progress,
    raw_count: &'a AtomicU64,
    header_written: bool,
    write_headers: bool,
    permits_tx: Sender<Box<Bufs>>,
    buf: Vec<u8>,
    /// Lines of each source before the next chunk.
    line_base: Vec<u64>,
}

impl Writer<'_> {
    fn run(&mut self, results_rx: &Receiver<ChunkOut>) -> io::Result<()> {
        let mut pending: BTreeMap<u64, ChunkOut> = BTreeMap::new();
        let mut next = 0u64;
        loop {
            let c = match results_rx.try_recv() {
                Ok(c) => c,
                Err(TryRecvError::Empty) => {
                    // Idle: let a reader at the other end of a pipe see
                    // what is done so far.
                    if self.sink.is_interactive() {
                        self.sink.flush()?;
                    }
                    match results_rx.recv() {
                        Ok(c) => c,
                        Err(_) => break,
                    }
                }
                Err(TryRecvError::Disconnected) => break,
            };
            pending.insert(c.seq, c);
            while let Some(c) = pending.remove(&next) {
                next += 1;
                if !self.chunk(c)? {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn base(&mut self, source: usize) -> &mut u64 {
        if self.line_base.len() <= source {
            self.line_base.resize(source + 1, 0);
        }
        &mut self.line_base[source]
    }

    /// Handles one chunk in order; false to stop.
    fn chunk(&mut self, c: ChunkOut) -> io::Result<bool> {
        match c.payload {
            Payload::Fatal(e) => Err(e),
            Payload::Header { source, out, lines } => {
                *self.base(source) += lines;
                if self.write_headers && !self.header_written {
                    self.header_written = true;
                    self.sink.write_all(&out)?;
                }
                Ok(true)
            }
            Payload::Data {
                source,
                bufs,
                stats,
                mut rejects,
                lines,
                stopped,
            } => {
                let base = self.base(source);
                for r in &mut rejects {
                    r.line += *base;
                }
                *base += lines;
                let s = &mut *self.summary;
                s.read += stats.read;
                s.accepted += stats.accepted;
                s.rejected += stats.rejected;
                s.written += stats.written;
                s.bytes += bufs.len as u64;
                match self.dedupe.as_deref_mut() {
                    None => self.sink.write_all(&bufs.out)?,
                    Some(d) => {
                        s.written +=
                            d.chunk(&bufs.data[..bufs.len], &bufs.keys, self.sink, &mut self.buf)?;
                    }
                }
                for r in &rejects {
                    self.rejects.report(r, self.progress)?;
                }
                self.progress
                    .update(self.raw_count.load(Ordering::Relaxed), self.summary.read);
                // The reader may be gone; then the buffers are dropped.
                let _ = self.permits_tx.try_send(bufs);
                if stopped {
                    self.summary.stopped = true;
                    return Ok(false);
                }
                Ok(true)
            }
        }
    }
}

/// Reports rejects: all of them to the rejects file when there is one,
/// else the first few on stderr.
struct RejectReporter {
    file: Option<(PathBuf, BufWriter<File>)>,
    limit: u64,
    shown: u64,
    names: Vec<String>,
    args_only: bool,
}

impl RejectReporter {
    fn new(cfg: &Config, names: Vec<String>, args_only: bool) -> io::Result<Self> {
        let file = match &cfg.rejects_file {
            Some(p) => {
                let f = File::create(p).map_err(|e| input::with_path(e, p))?;
                Some((p.clone(), BufWriter::new(f)))
            }
            None => None,
        };
        Ok(RejectReporter {
            file,
            limit: cfg.show_rejects,
            shown: 0,
            names,
            args_only,
        })
    }

    /// `line 3`, `argument 2`, or `file.txt:3` when there are several inputs.
    fn place(&self, r: &Reject) -> String {
        if self.args_only {
            format!("argument {}", r.line)
        } else if self.names.len() > 1 {
            format!("{}:{}", self.names[r.source], r.line)
        } else {
            format!("line {}", r.line)
        }
    }

    fn report(&mut self, r: &Reject, progress: &Progress) -> io::Result<()> {
        let place = if self.names.len() > 1 && !self.args_only {
            format!("{}:{}", self.names[r.source], r.line)
        } else {
            r.line.to_string()
        };
        if let Some((p, f)) = self.file.as_mut() {
            let msg: String = r
                .failure
                .message
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let mut line = Vec::with_capacity(r.original.len() + msg.len() + 64);
            line.extend_from_slice(
                format!("{place}\t{}\t{}\t{msg}\t", r.failure.offset, r.failure.kind).as_bytes(),
            );
            for &b in &r.original {
                match b {
                    b'\n' => line.extend_from_slice(b"\\n"),
                    b'\r' => line.extend_from_slice(b"\\r"),
                    _ => line.push(b),
                }
            }
            line.push(b'\n');
            return f.write_all(&line).map_err(|e| input::with_path(e, p));
        }
        if self.shown < self.limit {
            self.shown += 1;
            let mut shown = String::from_utf8_lossy(&r.original).into_owned();
            if shown.len() > 200 {
                let mut end = 200;
                while !shown.is_char_boundary(end) {
                    end -= 1;
                }
                shown.truncate(end);
                shown.push_str("...");
            }
            let msg = format!(
                "irinorm: {}, byte {}: {}: {}: {:?}",
                self.place(r),
                r.failure.offset,
                r.failure.kind,
                r.failure.message,
                shown
            );
            progress.suspend(|| crate::note(format_args!("{msg}")));
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        if let Some((p, f)) = self.file.as_mut() {
            f.flush().map_err(|e| input::with_path(e, p))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Column;

    /// Upper-cases; rejects inputs holding a space.
    struct Upper;
    impl Op for Upper {
        fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
            if let Some(p) = input.find(' ') {
                return Err(Failure::new("space", p, "a space"));
            }
            out.push_str(&input.to_ascii_uppercase());
            Ok(())
        }
    }

    fn file(content: &[u8]) -> (tempfile::TempDir, Inputs) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("in");
        std::fs::write(&p, content).unwrap();
        (dir, Inputs::new(vec![], vec![p]))
    }

    fn go(content: &[u8], cfg: &Config, task: Task<'_>) -> (String, Summary) {
        let (_dir, inputs) = file(content);
        let mut sink = Sink::memory();
        let s = run(inputs, cfg, task, &mut sink).unwrap();
        (String::from_utf8(sink.into_memory()).unwrap(), s)
    }

    #[test]
    fn tiny_chunks_many_threads_keep_order_and_count() {
        let mut input = String::new();
        for i in 0..3000 {
            if i % 101 == 0 {
                input.push_str("a b\r\n");
            } else {
                input.push_str(&format!("x{i}\r\n"));
            }
        }
        for chunk_size in [1, 7, 64, 1 << 20] {
            let cfg = Config {
                threads: 3,
                chunk_size,
                show_rejects: 0,
                ..Config::default()
            };
            let (out, s) = go(input.as_bytes(), &cfg, Task::Map(&Upper));
            let expect: String = input
                .lines()
                .filter(|l| !l.contains(' '))
                .map(|l| format!("{}\n", l.to_ascii_uppercase()))
                .collect();
            assert_eq!(out, expect, "chunk size {chunk_size}");
            assert_eq!((s.read, s.rejected, s.written), (3000, 30, 2970));
        }
    }

    #[test]
    fn header_after_blank_lines_and_line_numbers() {
        let cfg = Config {
            threads: 2,
            chunk_size: 4,
            records: RecordMode::Delimited {
                delimiter: b',',
                quoting: true,
                column: Column::Name("u".into()),
                column2: None,
                header: true,
                into: None,
            },
            show_rejects: 0,
            ..Config::default()
        };
        let (out, s) = go(b"\n\nid,u\n1,a\n2,\"b c\"\n3,d", &cfg, Task::Map(&Upper));
        assert_eq!(out, "id,u\n1,A\n3,D\n");
        assert_eq!((s.read, s.rejected), (3, 1));
    }

    #[test]
    fn strict_stops_in_order() {
        let cfg = Config {
            threads: 4,
            chunk_size: 3,
            strict: true,
            show_rejects: 0,
            ..Config::default()
        };
        let (out, s) = go(b"a\nb\nc d\ne\nf g\n", &cfg, Task::Map(&Upper));
        assert_eq!(out, "A\nB\n");
        assert!(s.stopped);
        assert_eq!((s.read, s.rejected), (3, 1));
    }

    #[test]
    fn missing_header_column_is_an_error() {
        let cfg = Config {
            records: RecordMode::Delimited {
                delimiter: b',',
                quoting: true,
                column: Column::Name("nope".into()),
                column2: None,
                header: true,
                into: None,
            },
            ..Config::default()
        };
        let (_dir, inputs) = file(b"a,b\n1,2\n");
        let e = run(inputs, &cfg, Task::Map(&Upper), &mut Sink::memory()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("nope"));
    }

    #[test]
    fn summary_line() {
        let s = Summary {
            read: 10,
            written: 6,
            rejected: 1,
            duplicates: 3,
            unique: Some(6),
            key_memory: Some(2048),
            ..Summary::default()
        };
        assert_eq!(
            s.line(),
            "read 10, written 6, rejected 1, duplicates 3, unique 6 (keys ~2.0 KiB); 1 rejects not shown (--rejects FILE keeps them all)"
        );
    }
}
