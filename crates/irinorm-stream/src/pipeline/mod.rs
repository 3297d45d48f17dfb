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

mod lines;
mod reader;
mod rejects;
mod summary;
mod worker;
mod writer;

pub use summary::Summary;

use reader::Reader;
use rejects::RejectReporter;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;
use worker::worker;
use writer::Writer;

use crossbeam_channel::{bounded, unbounded};

use crate::decode::InputEncoding;
use crate::dedupe::{Dedupe, DedupeConfig, KeyBatch, KeyStore};
use crate::failure::Reject;
use crate::input::{Input, Inputs};
use crate::op::{Format, Op};
use crate::output::Sink;
use crate::progress::Progress;
use crate::record::{Layout, RecordMode};

/// Default chunk size: big enough that per-chunk costs vanish, small
/// enough that `2 × threads + 2` of them are a few tens of MB.
pub const DEFAULT_CHUNK_SIZE: usize = 1 << 20;

/// Default `max_len`: the core's default maximum length (1 MiB).
pub const DEFAULT_MAX_LEN: usize = irinorm::ladder::DEFAULT_MAX_LEN;

/// How to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Target chunk size in bytes.
    pub chunk_size: usize,
    /// Longest unit (line, CSV record, JSON line, argument) in bytes,
    /// without its line end: a longer one is rejected as `too-long` and
    /// skipped without being held in memory.
    pub max_len: usize,
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
            max_len: DEFAULT_MAX_LEN,
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
    /// A unit longer than `--max-len` that the reader skipped right after
    /// the chunk's data (reported after the chunk's units, in order).
    overlong: Option<Overlong>,
}

/// How many bytes of a too-long unit are kept for its reject report.
const OVERLONG_PREFIX: usize = 256;

/// A unit (line, CSV record, JSON line) longer than `--max-len`, skipped
/// by the reader without buffering it.
struct Overlong {
    /// Its first [`OVERLONG_PREFIX`] bytes.
    prefix: Vec<u8>,
    /// Its length in bytes, without its terminator.
    len: u64,
    /// Line ends before it (blank lines before a CSV record).
    lead_lines: u64,
    /// Line ends from the end of the chunk's data to the end of the unit
    /// (its blank lines, its quoted line ends, its terminator).
    lines: u64,
    /// The input ended inside it.
    eof: bool,
}

#[derive(Default)]
struct Stats {
    read: u64,
    accepted: u64,
    rejected: u64,
    written: u64,
    /// Bytes of too-long units skipped by the reader.
    skipped: u64,
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

struct Shared<'a> {
    task: Task<'a>,
    records: RecordMode,
    format: Format,
    encoding: Option<InputEncoding>,
    strict: bool,
    needs_ident: bool,
    max_len: usize,
    /// Dedupe: the table of the keys of earlier chunks, which workers look
    /// their keys up in.
    store: Option<Arc<RwLock<KeyStore>>>,
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
    let total = if cfg.progress {
        inputs.total_size()
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

    // The reader is joined when the run reads everything (then it has
    // ended); if the run stops early (--strict, broken pipe, an error) while
    // it waits on a terminal, nobody waits for it: it is cancelled, and ends
    // at its next permit or with the process.
    let reader = {
        let rd = Reader {
            chunk_size: cfg.chunk_size.max(1),
            max_len: cfg.max_len,
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
            .spawn(move || rd.run(inputs))?
    };

    let store = match task {
        Task::Dedupe(_, d) => Some(Arc::new(RwLock::new(KeyStore::new(d)))),
        Task::Map(_) => None,
    };
    let shared = Shared {
        task,
        store: store.clone(),
        records: cfg.records.clone(),
        format: cfg.format,
        encoding: cfg.encoding,
        strict: cfg.strict,
        max_len: cfg.max_len,
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
        Task::Dedupe(_, d) => store.clone().map(|st| Dedupe::new(d, cfg.format, st)),
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
        // A panic of the writer (this thread) is an error like the
        // others: the workers must still be told to stop, or the scope
        // would wait for them forever.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w.run(&results_rx)))
            .unwrap_or_else(|p| Err(crate::fault::panicked("writer", p)));
        // Dropping the writer drops the permits' sender: a reader waiting
        // for a permit ends.
        drop(w);
        cancel.store(true, Ordering::Relaxed);
        drop(done_tx);
        r
    });
    progress.finish();
    // Everything was read: the reader has ended; join it (a panic it could
    // not report would surface here).
    let result = match result {
        Ok(true) => match reader.join() {
            Ok(()) => Ok(()),
            Err(p) => Err(crate::fault::panicked("reader", p)),
        },
        Ok(false) => Ok(()),
        Err(e) => Err(e),
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::Failure;
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

    /// `Upper` whose text output is its value ([`Op::text_is_value`]):
    /// the engine appends it straight into the chunk's output.
    struct UpperValue;
    impl Op for UpperValue {
        fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
            // Appends before failing: what a failing op wrote is not output.
            Upper
                .apply(input, out)
                .inspect_err(|_| out.push_str("junk"))
        }
        fn text_is_value(&self) -> bool {
            true
        }
    }

    #[test]
    fn values_appended_in_place_are_what_write_text_writes() {
        // Rejects (a space), too-long lines, a line that is not UTF-8 (its
        // chunk goes the line-by-line way), CRLF, empty lines, no final
        // newline; every chunking and thread count: the same bytes and
        // counts as the default `write_text`.
        let long = "z".repeat(40);
        let mut input = Vec::new();
        for i in 0..500 {
            match i % 50 {
                7 => input.extend_from_slice(b"a b\r\n"),
                13 => input.extend_from_slice(format!("{long}\n").as_bytes()),
                21 => input.extend_from_slice(b"caf\xe9\n"),
                33 => input.extend_from_slice(b"\n"),
                _ => input.extend_from_slice(format!("x{i}\r\n").as_bytes()),
            }
        }
        input.extend_from_slice(b"last");
        for chunk_size in [1, 7, 64, 1 << 20] {
            for threads in [1, 3] {
                let cfg = Config {
                    threads,
                    chunk_size,
                    max_len: 30,
                    show_rejects: 0,
                    ..Config::default()
                };
                let (a, sa) = go(&input, &cfg, Task::Map(&Upper));
                let (b, sb) = go(&input, &cfg, Task::Map(&UpperValue));
                assert_eq!(a, b, "chunk {chunk_size}, threads {threads}");
                let counts = |s: &Summary| (s.read, s.accepted, s.rejected, s.written);
                assert_eq!(counts(&sa), counts(&sb));
                assert_eq!((sa.read, sa.rejected), (501, 30));
                assert_eq!(sa.written, 471);
            }
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

    /// Runs with a rejects file; returns output, summary and the rejects
    /// as (line, kind, original) .
    fn go_rejects(
        content: &[u8],
        cfg: &Config,
    ) -> (String, Summary, Vec<(String, String, String)>) {
        let (dir, inputs) = file(content);
        let rej = dir.path().join("rej.tsv");
        let cfg = Config {
            rejects_file: Some(rej.clone()),
            ..cfg.clone()
        };
        let mut sink = Sink::memory();
        let s = run(inputs, &cfg, Task::Map(&Upper), &mut sink).unwrap();
        let r = std::fs::read_to_string(&rej).unwrap();
        let rejects = r
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_owned(), f[2].to_owned(), f[4].to_owned())
            })
            .collect();
        (String::from_utf8(sink.into_memory()).unwrap(), s, rejects)
    }

    #[test]
    fn too_long_lines_are_skipped_in_every_chunking() {
        // Lines of 4 bytes pass, longer ones are rejected with their line
        // number, wherever the chunk boundaries fall, and whether the reader
        // skipped them or they arrived whole.
        let long = "y".repeat(300);
        let input = format!("abcd\r\n{long}\r\nefgh\nabcde\n\n{long}\nij\nklmnopq\r\n{long}");
        for chunk_size in [1, 3, 5, 64, 4096] {
            for threads in [1, 3] {
                let cfg = Config {
                    threads,
                    chunk_size,
                    max_len: 4,
                    ..Config::default()
                };
                let (out, s, rej) = go_rejects(input.as_bytes(), &cfg);
                assert_eq!(out, "ABCD\nEFGH\n\nIJ\n", "chunk {chunk_size}");
                assert_eq!((s.read, s.rejected), (9, 5), "chunk {chunk_size}");
                let lines: Vec<&str> = rej.iter().map(|r| r.0.as_str()).collect();
                assert_eq!(lines, ["2", "4", "6", "8", "9"], "chunk {chunk_size}");
                assert_eq!(rej[3].2, "klmnopq", "no line end in the report");
                assert!(rej.iter().all(|r| r.1 == "too-long"));
                assert_eq!(rej[0].2, "y".repeat(256), "the report keeps a prefix");
                assert_eq!(rej[1].2, "abcde");
                // Skipped lines count without their line ends.
                assert!(s.bytes as usize + 5 >= input.len(), "chunk {chunk_size}");
            }
        }
    }

    #[test]
    fn a_too_long_last_line_ending_in_cr_is_reported_without_it() {
        // The last line has no `\n` but ends in `\r`: the line is
        // `abcdefgh` whether the reader skipped it or it arrived whole
        // (found by the CLI's `prop_contract`, round 14).
        for chunk_size in [1, 3, 5, 64, 4096] {
            let cfg = Config {
                chunk_size,
                max_len: 4,
                ..Config::default()
            };
            let (out, s, rej) = go_rejects(b"abcd\nabcdefgh\r", &cfg);
            assert_eq!(out, "ABCD\n", "chunk {chunk_size}");
            assert_eq!((s.read, s.rejected), (2, 1), "chunk {chunk_size}");
            assert_eq!(rej[0].2, "abcdefgh", "chunk {chunk_size}");
            assert!(rej[0].1 == "too-long");
        }
    }

    #[test]
    fn too_long_csv_records_skip_to_the_record_end() {
        // A quoted field with line ends, longer than the limit: the whole
        // record goes, the next records keep their line numbers.
        let big = "x\n".repeat(200);
        let input = format!("id,u\n1,a\n\n2,\"{big}\"\n3,b\n4,\"unterminated {big}");
        for chunk_size in [2, 7, 64, 1 << 16] {
            let cfg = Config {
                threads: 2,
                chunk_size,
                max_len: 50,
                records: RecordMode::Delimited {
                    delimiter: b',',
                    quoting: true,
                    column: Column::Name("u".into()),
                    column2: None,
                    header: true,
                    into: None,
                },
                ..Config::default()
            };
            let (out, s, rej) = go_rejects(input.as_bytes(), &cfg);
            assert_eq!(out, "id,u\n1,A\n3,B\n", "chunk {chunk_size}");
            assert_eq!((s.read, s.rejected), (4, 2), "chunk {chunk_size}");
            let lines: Vec<&str> = rej.iter().map(|r| r.0.as_str()).collect();
            assert_eq!(lines, ["4", "206"], "chunk {chunk_size}");
        }
    }

    #[test]
    fn a_header_longer_than_the_limit_is_an_error() {
        let cfg = Config {
            max_len: 8,
            chunk_size: 4,
            records: RecordMode::Delimited {
                delimiter: b',',
                quoting: true,
                column: Column::Name("u".into()),
                column2: None,
                header: true,
                into: None,
            },
            ..Config::default()
        };
        let (_dir, inputs) = file(b"u,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nx,y\n");
        let e = run(inputs, &cfg, Task::Map(&Upper), &mut Sink::memory()).unwrap_err();
        assert!(e.to_string().contains("header"), "{e}");
    }

    /// A dedupe key that folds ASCII case (lines differ, keys repeat);
    /// rejects inputs holding a space.
    struct Fold;
    impl Op for Fold {
        fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
            if let Some(p) = input.find(' ') {
                return Err(Failure::new("space", p, "a space"));
            }
            out.push_str(&input.to_ascii_lowercase());
            Ok(())
        }
    }

    /// [`Fold`] written in place ([`Op::appends`]): a rejected input leaves
    /// what it appended before failing, which must not become a key.
    struct FoldAppends;
    impl Op for FoldAppends {
        fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
            if let Some(p) = input.find(' ') {
                out.push_str(&input[..p].to_ascii_lowercase());
                return Err(Failure::new("space", p, "a space"));
            }
            out.push_str(&input.to_ascii_lowercase());
            Ok(())
        }

        fn appends(&self) -> bool {
            true
        }
    }

    const MODES: [crate::DedupeMode; 5] = [
        crate::DedupeMode::KeepFirst,
        crate::DedupeMode::KeepLast,
        crate::DedupeMode::Count,
        crate::DedupeMode::Groups,
        crate::DedupeMode::KeyOnly,
    ];

    /// What dedupe must write, computed the plain way: a list of keys in
    /// order of first appearance, searched linearly.
    fn dedupe_model(lines: &[&str], mode: crate::DedupeMode) -> String {
        use crate::DedupeMode as M;
        // (key, count, first line, last line, last position, members)
        let mut keys: Vec<(String, u64, String, String, usize, Vec<String>)> = Vec::new();
        for (pos, l) in lines.iter().enumerate() {
            if l.contains(' ') {
                continue;
            }
            let k = l.to_ascii_lowercase();
            match keys.iter_mut().find(|e| e.0 == k) {
                Some(e) => {
                    e.1 += 1;
                    e.3 = l.to_string();
                    e.4 = pos;
                    if !e.5.iter().any(|m| m == l) {
                        e.5.push(l.to_string());
                    }
                }
                None => keys.push((k, 1, l.to_string(), l.to_string(), pos, vec![l.to_string()])),
            }
        }
        let mut out = String::new();
        match mode {
            M::KeepFirst => keys
                .iter()
                .for_each(|e| out.push_str(&format!("{}\n", e.2))),
            M::KeyOnly => keys
                .iter()
                .for_each(|e| out.push_str(&format!("{}\n", e.0))),
            M::Count => keys
                .iter()
                .for_each(|e| out.push_str(&format!("{}\t{}\n", e.0, e.1))),
            M::KeepLast => {
                keys.sort_by_key(|e| e.4);
                keys.iter()
                    .for_each(|e| out.push_str(&format!("{}\n", e.3)));
            }
            M::Groups => {
                for e in &keys {
                    out.push_str(&format!("{}\n", e.0));
                    e.5.iter().for_each(|m| out.push_str(&format!("\t{m}\n")));
                }
            }
        }
        out
    }

    #[test]
    fn dedupe_memory_depends_on_the_distinct_keys_not_the_input_size() {
        // 20,000 distinct keys, then the same keys in 3 and 10 copies (in
        // other spellings too): the memory the run reports for its keys is
        // the same, byte for byte, whatever the input size, the threads and
        // the chunks. (It used to be sized from the input size.)
        let n = 20_000;
        let distinct: String = (0..n)
            .map(|i| format!("http://h{}.example/p/{i}?q={}\n", i % 97, i * 7))
            .collect();
        let upper = distinct.to_ascii_uppercase();
        for hash_keys in [false, true] {
            for mode in [crate::DedupeMode::KeepFirst, crate::DedupeMode::Count] {
                let d = DedupeConfig { mode, hash_keys };
                let mut first = None;
                for (copies, threads, chunk_size) in
                    [(1, 1, 1 << 20), (3, 2, 4096), (10, 3, 1 << 16)]
                {
                    let input = format!("{}{}", distinct.repeat(copies), upper);
                    let cfg = Config {
                        threads,
                        chunk_size,
                        show_rejects: 0,
                        ..Config::default()
                    };
                    let (_, s) = go(input.as_bytes(), &cfg, Task::Dedupe(&Fold, d));
                    assert_eq!(s.unique, Some(n as u64));
                    assert_eq!(s.duplicates, copies as u64 * n as u64);
                    let m = s.key_memory.unwrap();
                    // Per key: its text (about 40 bytes) or digest (16), its
                    // end offset (8), a count (8), and at most 2 x 8/7
                    // table slots of 9 bytes (the table doubles).
                    assert!(m < n as u64 * 100, "{m} bytes for {n} keys");
                    match first {
                        None => first = Some(m),
                        Some(f) => assert_eq!(m, f, "{copies} copies, {mode:?}, {hash_keys}"),
                    }
                }
            }
        }
    }

    proptest::proptest! {
        // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            64.max(proptest::prelude::ProptestConfig::default().cases)
        ))]

        /// Whatever the chunk size, the limit and the threads: every line
        /// is written or rejected (input = output + rejects), a line is
        /// rejected exactly when it is longer than the limit, and each
        /// reject has its line number.
        #[test]
        fn every_line_is_written_or_rejected_at_its_number(
            lines in proptest::collection::vec("[a-c]{0,40}\r?", 0..40),
            last_newline in proptest::bool::ANY,
            max_len in 1usize..30,
            chunk_size in 1usize..64,
            threads in 1usize..4,
        ) {
            let mut input = lines.join("\n");
            if last_newline && !lines.is_empty() {
                input.push('\n');
            }
            // The model: lines end at \n, one trailing \r goes, a last
            // line without \n counts when it is not empty.
            let mut model: Vec<&str> = input.split('\n').collect();
            if model.last() == Some(&"") {
                model.pop();
            }
            let (mut out, mut bad) = (String::new(), Vec::new());
            for (i, l) in model.iter().enumerate() {
                let l = l.strip_suffix('\r').unwrap_or(l);
                if l.len() > max_len {
                    bad.push((i + 1).to_string());
                } else {
                    out.push_str(&l.to_ascii_uppercase());
                    out.push('\n');
                }
            }
            let cfg = Config { threads, chunk_size, max_len, ..Config::default() };
            let (got, s, rej) = go_rejects(input.as_bytes(), &cfg);
            proptest::prop_assert_eq!(got, out);
            proptest::prop_assert_eq!(s.read, model.len() as u64);
            let lines: Vec<String> = rej.iter().map(|r| r.0.clone()).collect();
            proptest::prop_assert_eq!(lines, bad);
        }

        /// The same for quoted CSV: records with quoted line ends, quotes
        /// and commas, some longer than the limit, cut anywhere: every
        /// record is written or rejected, too-long exactly past the limit,
        /// at the line where it starts.
        #[test]
        fn every_csv_record_is_written_or_rejected_at_its_line(
            records in proptest::collection::vec(
                proptest::collection::vec("[ab\n\",]{0,12}", 1..4),
                0..30,
            ),
            crlf in proptest::bool::ANY,
            max_len in 1usize..40,
            chunk_size in 1usize..64,
            threads in 1usize..4,
        ) {
            let mut input = String::new();
            let mut bad = Vec::new();
            let mut line = 1;
            for fields in &records {
                let raw: Vec<String> = fields
                    .iter()
                    .map(|f| format!("\"{}\"", f.replace('"', "\"\"")))
                    .collect();
                let raw = raw.join(",");
                if raw.len() > max_len {
                    bad.push(line.to_string());
                }
                line += raw.matches('\n').count() + 1;
                input.push_str(&raw);
                input.push_str(if crlf { "\r\n" } else { "\n" });
            }
            let cfg = Config {
                threads,
                chunk_size,
                max_len,
                records: RecordMode::Delimited {
                    delimiter: b',',
                    quoting: true,
                    column: Column::Index(0),
                    column2: None,
                    header: false,
                    into: None,
                },
                ..Config::default()
            };
            let (_, s, rej) = go_rejects(input.as_bytes(), &cfg);
            proptest::prop_assert_eq!(s.read, records.len() as u64);
            proptest::prop_assert_eq!(s.written, s.read - s.rejected);
            let lines: Vec<String> = rej.iter().map(|r| r.0.clone()).collect();
            proptest::prop_assert_eq!(lines, bad);
        }

        /// Dedupe writes the same bytes whatever the threads and the
        /// chunking (workers look keys up in the table while the writer
        /// fills it), the same as a plain model, and accounts for every
        /// line: read = unique + duplicates + rejected.
        #[test]
        fn dedupe_is_the_same_whatever_the_threads_and_chunks(
            lines in proptest::collection::vec("[aAbB ]{0,3}", 0..60),
            chunk_size in 1usize..48,
            threads in 2usize..5,
            hash_keys in proptest::bool::ANY,
            mode in 0usize..5,
        ) {
            let mut input = lines.join("\n");
            if !lines.is_empty() {
                input.push('\n');
            }
            let d = DedupeConfig { mode: MODES[mode], hash_keys };
            let one = Config { threads: 1, show_rejects: 0, ..Config::default() };
            let many = Config { threads, chunk_size, show_rejects: 0, ..Config::default() };
            let (a, sa) = go(input.as_bytes(), &one, Task::Dedupe(&Fold, d));
            let (b, sb) = go(input.as_bytes(), &many, Task::Dedupe(&Fold, d));
            let (c, sc) = go(input.as_bytes(), &many, Task::Dedupe(&FoldAppends, d));
            proptest::prop_assert_eq!(&a, &c);
            proptest::prop_assert_eq!((sa.unique, sa.duplicates, sa.rejected), (sc.unique, sc.duplicates, sc.rejected));
            let model: Vec<&str> = if lines.is_empty() {
                Vec::new()
            } else {
                input.strip_suffix('\n').unwrap().split('\n').collect()
            };
            proptest::prop_assert_eq!(&a, &dedupe_model(&model, MODES[mode]));
            proptest::prop_assert_eq!(&a, &b);
            proptest::prop_assert_eq!((sa.unique, sa.duplicates, sa.rejected), (sb.unique, sb.duplicates, sb.rejected));
            proptest::prop_assert_eq!(sb.read, sb.unique.unwrap() + sb.duplicates + sb.rejected);
            proptest::prop_assert_eq!(sb.read, model.len() as u64);
        }

        /// The default mode (first line of each key, text) against the plain
        /// model, with every line end: a `\r\n` loses its `\r`, dropped and
        /// rejected lines are not written, and a last line without a
        /// newline gets one. (Written for round 7's run-copying writer,
        /// which was not kept: BENCHMARKS.md, "dedupe's writer".)
        #[test]
        fn keep_first_runs_are_the_lines_one_by_one(
            lines in proptest::collection::vec(("[aAbB ]{0,3}", 0usize..3), 0..60),
            last_newline in proptest::bool::ANY,
            chunk_size in proptest::prop_oneof![1usize..48, proptest::strategy::Just(1 << 20)],
            threads in 1usize..4,
        ) {
            let mut input = String::new();
            for (i, (l, end)) in lines.iter().enumerate() {
                input.push_str(l);
                if i + 1 < lines.len() || last_newline {
                    input.push_str(["\n", "\r\n", "\n"][*end]);
                }
            }
            // A last line left empty by the missing newline is no line.
            let mut model: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
            if !last_newline && model.last() == Some(&"") {
                model.pop();
            }
            let d = DedupeConfig { mode: crate::DedupeMode::KeepFirst, hash_keys: false };
            let cfg = Config { threads, chunk_size, show_rejects: 0, ..Config::default() };
            let (a, sa) = go(input.as_bytes(), &cfg, Task::Dedupe(&FoldAppends, d));
            proptest::prop_assert_eq!(&a, &dedupe_model(&model, crate::DedupeMode::KeepFirst));
            proptest::prop_assert_eq!(sa.written, a.lines().count() as u64);
            proptest::prop_assert_eq!(sa.read, sa.unique.unwrap() + sa.duplicates + sa.rejected);
        }
    }
}
