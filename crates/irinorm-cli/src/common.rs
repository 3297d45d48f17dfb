//! Options shared by the subcommands that process identifiers, and the one
//! function that runs any of them through the streaming engine.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use clap::ValueEnum;
use irinorm_stream::{
    default_threads, run, Column, Config, Failure, Format, InputEncoding, Inputs, JsonObject, Op,
    RecordMode, Sink, Summary, Task, DEFAULT_CHUNK_SIZE, DEFAULT_MAX_LEN,
};

/// A fatal error: exit status 2.
#[derive(Debug)]
pub(crate) enum CliError {
    /// The options do not make sense together.
    Usage(String),
    /// An input could not be read, the output could not be written.
    Io(std::io::Error),
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::InvalidInput {
            CliError::Usage(e.to_string())
        } else {
            CliError::Io(e)
        }
    }
}

pub(crate) fn usage<T>(msg: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Usage(msg.into()))
}

/// What a rejected input writes in text and record output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum OnReject {
    /// Nothing: output has one line per accepted input.
    #[default]
    Skip,
    /// An empty line (an empty field in records): output stays aligned
    /// with input, line for line.
    Empty,
    /// The input as it is (the field unchanged in records).
    Keep,
}

/// `--on-reject empty|keep` around an op: a rejected input still writes a
/// line (or a record), and is still counted and reported as rejected.
struct Aligned<'a> {
    inner: &'a dyn Op,
    mode: OnReject,
}

impl Op for Aligned<'_> {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        self.inner.apply(input, out)
    }

    fn write_text(
        &self,
        input: &str,
        scratch: &mut String,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        let before = out.len();
        let r = self.inner.write_text(input, scratch, out);
        if r.is_err() && out.len() == before {
            if self.mode == OnReject::Keep {
                out.extend_from_slice(input.as_bytes());
            }
            out.push(b'\n');
        }
        r
    }

    fn write_text_unavailable(&self, failure: &Failure, out: &mut Vec<u8>) {
        // Not text: its bytes are in the rejects report; the line stays empty.
        let before = out.len();
        self.inner.write_text_unavailable(failure, out);
        if out.len() == before {
            out.push(b'\n');
        }
    }

    fn write_json(
        &self,
        input: &str,
        scratch: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        self.inner.write_json(input, scratch, obj)
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        self.inner.write_json_unavailable(obj);
    }

    fn reject_value(&self, input: &str) -> Option<String> {
        match self.mode {
            OnReject::Skip => None,
            OnReject::Empty => Some(String::new()),
            OnReject::Keep => Some(input.to_owned()),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// One result a line.
    #[default]
    Text,
    /// One JSON object per input line, in input order.
    Jsonl,
    /// normalize only: the SURT key (CDX index key, as `irinorm surt`) of
    /// each normal form, one a line.
    Surt,
}

/// Largest `--threads` (each worker holds up to two chunks).
const MAX_THREADS: usize = 1024;
/// Largest `--chunk-size`: 256 MiB.
const MAX_CHUNK_SIZE: usize = 1 << 28;
/// Largest `--max-len`: 1 GiB.
const MAX_MAX_LEN: usize = 1 << 30;

/// A parser for a number in `min..=max` (clap says which range when it is
/// not, or when it is not a number at all, exit status 2).
fn ranged(min: usize, max: usize) -> impl clap::builder::TypedValueParser<Value = usize> {
    use clap::builder::TypedValueParser;
    clap::value_parser!(u64)
        .range(min as u64..=max as u64)
        .map(|v| v as usize)
}

/// Inputs, outputs, rejects, threads: every processing subcommand has these.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Input and output")]
pub(crate) struct IoArgs {
    /// Identifiers to process. Without any, identifiers are read one per
    /// line from the --input files, or from stdin.
    #[arg(value_name = "IDENTIFIER", value_parser = clap::value_parser!(OsString))]
    pub(crate) ids: Vec<OsString>,

    /// Read identifiers (one a line) from FILE instead of arguments;
    /// repeatable; `-` is stdin. gzip and zstd input is detected by its
    /// magic bytes.
    #[arg(
        short = 'i',
        long = "input",
        value_name = "FILE",
        conflicts_with = "ids"
    )]
    pub(crate) files: Vec<PathBuf>,

    /// Output format of line input.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub(crate) format: FormatArg,

    /// Write results to FILE instead of stdout; `.gz` and `.zst` names are
    /// compressed (gzip, zstd).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,

    /// Write every rejected input to FILE, one a line:
    /// line<TAB>offset<TAB>kind<TAB>message<TAB>original-line.
    #[arg(long, value_name = "FILE")]
    pub(crate) rejects: Option<PathBuf>,

    /// Without --rejects, show at most N rejected inputs on stderr (all are
    /// counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub(crate) show_rejects: u64,

    /// Stop at the first rejected input (exit status 1).
    #[arg(long)]
    pub(crate) strict: bool,

    /// What a rejected input writes in text output and in records (CSV,
    /// TSV, JSON Lines): `skip` (nothing, the default), `empty` (an empty
    /// line or field), `keep` (the input unchanged), so that output lines
    /// up with input (`paste`, spreadsheets). Rejects are reported and
    /// counted whatever the choice. jsonl output is always aligned.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = OnReject::Skip)]
    pub(crate) on_reject: OnReject,

    /// Decode lines that are not valid UTF-8 from this encoding (WHATWG
    /// label: windows-1252, iso-8859-2, shift_jis, koi8-r...), then apply
    /// NFC (RFC 3987 §3.1 variant B). Without it such lines are rejected.
    #[arg(long, value_name = "LABEL")]
    pub(crate) input_encoding: Option<String>,

    /// Worker threads, 0 to 1024; 0 (the default) uses every core. Output
    /// keeps input order whatever the number.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0, value_parser = ranged(0, MAX_THREADS))]
    pub(crate) threads: usize,

    /// Bytes of input per work unit, 1 to 256 MiB (advanced; memory in use
    /// is about 2 x (2 x threads + 2) x this, allocated as the input fills
    /// it).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_CHUNK_SIZE, value_parser = ranged(1, MAX_CHUNK_SIZE))]
    pub(crate) chunk_size: usize,

    /// Longest input (a line, CSV record, JSON line or argument), in bytes
    /// without its line end, 1 to 1 GiB: a longer one is rejected
    /// (too-long) and skipped while it is read, never held in memory.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LEN, value_parser = ranged(1, MAX_MAX_LEN))]
    pub(crate) max_len: usize,

    /// No progress bar and no summary line (rejected inputs are still
    /// reported).
    #[arg(short = 'q', long)]
    pub(crate) quiet: bool,

    /// Set by the subcommands that implement `--format surt` (normalize).
    #[arg(skip)]
    pub(crate) surt_ok: bool,
}

/// Record modes: the identifier is a field of a CSV/TSV or JSON Lines record.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Records")]
pub(crate) struct RecordArgs {
    /// Input is CSV (RFC 4180 quoting; fields may hold commas, quotes, line
    /// breaks): the identifier is in --column.
    #[arg(long, conflicts_with_all = ["tsv", "field"])]
    pub(crate) csv: bool,

    /// Input is TSV (no quoting: fields split at every tab, records at every
    /// line end): the identifier is in --column.
    #[arg(long, conflicts_with = "field")]
    pub(crate) tsv: bool,

    /// Field separator of --csv (one ASCII character, or `tab`).
    #[arg(long, value_name = "CHAR", conflicts_with = "field")]
    pub(crate) delimiter: Option<String>,

    /// The column holding the identifier: a 1-based number, or a header name
    /// (then the first record of each input is a header). Implies --csv
    /// unless --tsv is given. `compare` takes it twice: the two columns of
    /// each pair.
    #[arg(long, value_name = "N|NAME", conflicts_with = "field")]
    pub(crate) column: Vec<String>,

    /// The first record of each input is a header (implied by a --column
    /// name): it is written once, not processed.
    #[arg(long, conflicts_with = "field")]
    pub(crate) header: bool,

    /// Input is JSON Lines: the identifier is the string field NAME of each
    /// object. `compare` takes it twice: the two fields of each pair.
    #[arg(long, value_name = "NAME")]
    pub(crate) field: Vec<String>,

    /// Put the result in column/field NAME (added when absent) instead of
    /// replacing the identifier.
    #[arg(long, value_name = "NAME")]
    pub(crate) into: Option<String>,
}

impl RecordArgs {
    /// The record mode for one identifier per record.
    pub(crate) fn mode(&self) -> Result<RecordMode, CliError> {
        if self.column.len() > 1 || self.field.len() > 1 {
            return usage("--column and --field are given once (twice only for compare's pairs)");
        }
        self.build(None)
    }

    /// The record mode for pairs (compare): `--column A --column B` or
    /// `--field A --field B`; the result goes into `--into` (default
    /// `comparison`).
    pub(crate) fn pair_mode(&self) -> Result<RecordMode, CliError> {
        match (self.column.len(), self.field.len()) {
            (0, 0) => self.build(None),
            (2, 0) | (0, 2) => self.build(Some("comparison")),
            _ => usage(
                "compare takes --column twice (or --field twice): the two identifiers of each pair",
            ),
        }
    }

    fn build(&self, pair_into: Option<&str>) -> Result<RecordMode, CliError> {
        let into = self.into.clone().or(pair_into.map(str::to_owned));
        if let Some(field) = self.field.first() {
            return Ok(RecordMode::Json {
                field: field.clone(),
                field2: self.field.get(1).cloned(),
                into,
            });
        }
        let Some(col) = self.column.first() else {
            if self.csv
                || self.tsv
                || self.delimiter.is_some()
                || self.header
                || self.into.is_some()
            {
                return usage("--csv, --tsv, --delimiter, --header and --into need --column N|NAME (or --field NAME for JSON Lines)");
            }
            return Ok(RecordMode::Lines);
        };
        let column = parse_column(col)?;
        let column2 = self.column.get(1).map(|c| parse_column(c)).transpose()?;
        let (delimiter, quoting) = match (&self.delimiter, self.tsv) {
            (Some(_), true) => {
                return usage("--delimiter goes with --csv, not --tsv (TSV is tab-separated)")
            }
            (None, true) => (b'\t', false),
            (None, false) => (b',', true),
            (Some(d), false) => (parse_delimiter(d)?, true),
        };
        let named = |c: &Column| matches!(c, Column::Name(_));
        let header = self.header || named(&column) || column2.as_ref().is_some_and(named);
        Ok(RecordMode::Delimited {
            delimiter,
            quoting,
            column,
            column2,
            header,
            into,
        })
    }
}

fn parse_column(col: &str) -> Result<Column, CliError> {
    match col.parse::<usize>() {
        Ok(0) => usage("--column numbers start at 1"),
        Ok(n) => Ok(Column::Index(n - 1)),
        Err(_) if col.is_empty() => usage("--column needs a number or a header name"),
        Err(_) => Ok(Column::Name(col.to_owned())),
    }
}

fn parse_delimiter(d: &str) -> Result<u8, CliError> {
    match d {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        _ if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" && d != "\r" => {
            Ok(d.as_bytes()[0])
        }
        _ => usage(format!(
            "--delimiter must be one ASCII character other than a quote or a line end (or `tab`), not {d:?}"
        )),
    }
}

#[cfg(unix)]
fn os_bytes(s: OsString) -> Vec<u8> {
    use std::os::unix::ffi::OsStringExt;
    s.into_vec()
}

#[cfg(not(unix))]
fn os_bytes(s: OsString) -> Vec<u8> {
    s.to_string_lossy().into_owned().into_bytes()
}

/// Runs `task` with these options; prints the summary; returns the exit
/// status (0: every input accepted, 1: some rejected).
pub(crate) fn execute(
    io: &IoArgs,
    records: RecordMode,
    task: Task<'_>,
) -> Result<ExitCode, CliError> {
    let format = match io.format {
        FormatArg::Text => Format::Text,
        FormatArg::Jsonl => Format::Jsonl,
        FormatArg::Surt if io.surt_ok => Format::Text,
        FormatArg::Surt => return usage("--format surt is for normalize (or use irinorm surt)"),
    };
    if format == Format::Jsonl && records != RecordMode::Lines {
        return usage("--format jsonl is for line input; with --column or --field the records are written back in their own format");
    }
    let encoding = match &io.input_encoding {
        Some(l) => Some(InputEncoding::for_label(l).map_err(CliError::Usage)?),
        None => None,
    };
    if !io.quiet {
        if let Some(id) = io.ids.iter().find(|id| std::path::Path::new(id).is_file()) {
            irinorm_stream::note(format_args!(
                "irinorm: note: {:?} is processed as an identifier; to read the file, use -i {}",
                id,
                id.to_string_lossy()
            ));
        }
    }
    // A lone `-` argument is stdin, as in every Unix filter (`-i -`).
    let dash = io.ids.len() == 1 && io.ids[0] == "-";
    let (ids, files) = if dash {
        (Vec::new(), vec![PathBuf::from("-")])
    } else {
        (io.ids.clone(), io.files.clone())
    };
    let args_only = !ids.is_empty();
    let inputs = Inputs::new(ids.into_iter().map(os_bytes).collect(), files);
    let aligned;
    let task = match (io.on_reject, task) {
        (OnReject::Skip, t) => t,
        (mode, Task::Map(inner)) => {
            aligned = Aligned { inner, mode };
            Task::Map(&aligned)
        }
        (_, Task::Dedupe(..)) => {
            return usage("--on-reject is for one output per input; dedupe writes one per key")
        }
    };
    let cfg = Config {
        // Every core, dedupe included: its workers look keys up in the table
        // themselves, and the writer thread only inserts the new ones
        // (BENCHMARKS.md, issue 14).
        threads: match io.threads {
            0 => default_threads(),
            n => n,
        },
        chunk_size: io.chunk_size,
        max_len: io.max_len,
        strict: io.strict,
        encoding,
        records,
        format,
        progress: !io.quiet && std::io::stderr().is_terminal(),
        rejects_file: io.rejects.clone(),
        show_rejects: io.show_rejects,
    };
    // Before anything is created or truncated: no output may be an input or
    // the other output (same device and inode, whatever the names).
    let outputs: Vec<(&str, &std::path::Path)> = [("-o", &io.output), ("--rejects", &io.rejects)]
        .into_iter()
        .filter_map(|(what, p)| p.as_deref().map(|p| (what, p)))
        .collect();
    irinorm_stream::atomic::check_distinct(&inputs, &outputs)?;
    let mut sink = match &io.output {
        Some(p) => Sink::create(p)?,
        None => Sink::stdout(),
    };
    let summary = run(inputs, &cfg, task, &mut sink)?;
    if !summary.broken_pipe {
        match sink.finish() {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => return Err(e.into()),
        }
        print_summary(io, &summary, args_only);
    }
    Ok(if summary.rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--repair` is on: the summary line says how many inputs it changed.
static REPAIR_ON: AtomicBool = AtomicBool::new(false);
/// Inputs `--repair` changed (counted once per input by the ops).
static REPAIRED: AtomicU64 = AtomicU64::new(0);

pub(crate) fn enable_repair_count() {
    REPAIR_ON.store(true, Ordering::Relaxed);
}

pub(crate) fn count_repaired() {
    REPAIRED.fetch_add(1, Ordering::Relaxed);
}

fn print_summary(io: &IoArgs, s: &Summary, args_only: bool) {
    if io.quiet || (args_only && s.rejected == 0) {
        return;
    }
    if REPAIR_ON.load(Ordering::Relaxed) {
        let n = REPAIRED.load(Ordering::Relaxed);
        irinorm_stream::note(format_args!("irinorm: {}, repaired {n}", s.line()));
    } else {
        irinorm_stream::note(format_args!("irinorm: {}", s.line()));
    }
}
