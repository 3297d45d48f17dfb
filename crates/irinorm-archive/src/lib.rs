//! Streaming readers of crawl files: WARC 1.0/1.1, ARC 1.0, CDX, CDXJ,
//! redirect logs and digest lists, plain, gzip or zstd.
//!
//! Each capture becomes one [`Observation`] (URL, time, status, redirect
//! target, digest, byte offset). Bodies are never decoded: a WARC or ARC
//! record is skipped by its length once its HTTP head is read. Memory is
//! bounded: a record header, an HTTP head or an index line longer than its
//! limit ([`limits`]) is a bad record, never a growing buffer.
//!
//! Errors follow one rule: a bad record is an `Err(RecordError)` from the
//! iterator with its byte offset (and line, for line formats) and the file
//! goes on; an error after which nothing more can be read reliably
//! (truncation, a gzip stream that is not one member per record, a broken
//! gzip stream) is a `RecordError` with `fatal: true`, after which the
//! iterator ends. Why each choice was made: `docs/evidence.md`, "Readers".

mod arc;
mod cdx;
mod cdxj;
mod detect;
mod fields;
mod http;
pub mod limits;
mod line;
mod source;
mod tsv;
mod warc;

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

pub use detect::detect;
pub use fields::{digest_label, warc_date_to_timestamp};

/// What kind of evidence an observation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObservationKind {
    /// A capture: WARC `response` or `resource`, an ARC record, or a CDX(J)
    /// line that is not a revisit. A 3xx capture with a `Location` is
    /// redirect evidence too (its [`Observation::location`]).
    Response,
    /// A WARC `revisit` record, or a CDX(J) line with mime `warc/revisit`:
    /// the same payload (digest) as an earlier capture.
    Revisit,
    /// A line of a redirect log (`from<TAB>status<TAB>to[<TAB>time]`).
    Redirect,
    /// A line of a digest list (`url<TAB>digest`).
    Digest,
}

/// One observation about one URL, as recorded in a crawl file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Observation {
    pub kind: ObservationKind,
    /// The request/target URI as recorded (original text; the `<...>` that
    /// wget 1.14 puts around `WARC-Target-URI` is removed).
    pub url: String,
    /// 14-digit UTC timestamp `YYYYMMDDhhmmss` (WARC-Date, ARC or CDX date).
    pub time: Option<String>,
    /// HTTP status, `None` when unknown (`-`, no HTTP head).
    pub status: Option<u16>,
    /// The redirect target resolved against `url` (RFC 3986 §5.2); `None`
    /// when there is none or either side does not parse.
    pub location: Option<String>,
    /// The `Location` header / CDX `r` / CDXJ `redirect` text as recorded.
    pub location_raw: Option<String>,
    /// Payload digest as `label:VALUE` (`sha1:BASE32`); a bare CDX digest
    /// gets `sha1:`.
    pub digest: Option<String>,
    /// Revisit: `WARC-Refers-To-Target-URI`.
    pub refers_to: Option<String>,
    /// The payload's media type (`type/subtype`, lowercase, no parameters);
    /// `None` for revisits (`warc/revisit` is a kind, not a media type).
    pub mime: Option<String>,
    /// Byte offset of the record in its source file: the gzip member start
    /// for a `.gz` WARC/ARC, the record start for an uncompressed one, the
    /// line start (in the decompressed text) for CDX/CDXJ/TSV, the position
    /// in the decompressed stream for zstd.
    pub offset: u64,
    /// 1-based line of the record, for the line formats (CDX, CDXJ, TSV);
    /// `None` for WARC, ARC and probes. A bad record's [`RecordError`]
    /// has its line; an observation needs one too, for a reject decided
    /// after reading (an evidence store's `bad-url`: docs/evidence.md,
    /// "Rejects", reports file, line, offset and kind).
    pub line: Option<u64>,
}

/// The formats this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Warc,
    Arc,
    Cdx,
    Cdxj,
    RedirectTsv,
    DigestTsv,
}

impl Format {
    /// All formats, in the order of their names.
    pub const ALL: [Format; 6] = [
        Format::Warc,
        Format::Arc,
        Format::Cdx,
        Format::Cdxj,
        Format::RedirectTsv,
        Format::DigestTsv,
    ];

    /// The name used by `--format` (`warc`, `arc`, `cdx`, `cdxj`,
    /// `redirects`, `digests`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Warc => "warc",
            Format::Arc => "arc",
            Format::Cdx => "cdx",
            Format::Cdxj => "cdxj",
            Format::RedirectTsv => "redirects",
            Format::DigestTsv => "digests",
        }
    }

    /// Parses a `--format` name.
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    fn is_line_format(self) -> bool {
        !matches!(self, Format::Warc | Format::Arc)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a record is bad, or why a file stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Reading failed (the message has the OS error).
    Io,
    /// The gzip or zstd stream is broken.
    Compression,
    /// The file ends inside a record.
    Truncated,
    /// A gzip WARC/ARC whose members are not one per record (a member holds
    /// two records, or a record runs past its member): offsets would lie.
    Framing,
    /// A record does not start with `WARC/1.x` (or an ARC header line).
    NotARecord,
    /// A WARC header, HTTP head or index line longer than its limit.
    TooLong,
    /// A header or field that does not parse (Content-Length, status, ...).
    BadField,
    /// A required field is missing (WARC-Target-URI, the URL column, ...).
    MissingField,
    /// A CDXJ line whose JSON does not parse.
    BadJson,
    /// The HTTP head of a response does not parse.
    BadHttp,
}

impl ErrorKind {
    /// A stable short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Io => "io",
            ErrorKind::Compression => "compression",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Framing => "framing",
            ErrorKind::NotARecord => "not-a-record",
            ErrorKind::TooLong => "too-long",
            ErrorKind::BadField => "bad-field",
            ErrorKind::MissingField => "missing-field",
            ErrorKind::BadJson => "bad-json",
            ErrorKind::BadHttp => "bad-http",
        }
    }
}

/// A bad record (`fatal: false`: the iterator goes on) or the error that
/// ended the file (`fatal: true`: the iterator ends after it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Byte offset of the bad record (same meaning as
    /// [`Observation::offset`]).
    pub offset: u64,
    /// 1-based line number, for the line formats (CDX, CDXJ, TSV).
    pub line: Option<u64>,
    pub kind: ErrorKind,
    pub message: String,
    pub fatal: bool,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.line {
            write!(f, "line {l}, ")?;
        }
        write!(
            f,
            "byte {}: {}{}: {}",
            self.offset,
            if self.fatal { "fatal " } else { "" },
            self.kind.name(),
            self.message
        )
    }
}

impl std::error::Error for RecordError {}

impl RecordError {
    pub(crate) fn new(offset: u64, kind: ErrorKind, message: impl Into<String>) -> Self {
        RecordError {
            offset,
            line: None,
            kind,
            message: message.into(),
            fatal: false,
        }
    }

    pub(crate) fn fatal(offset: u64, kind: ErrorKind, message: impl Into<String>) -> Self {
        RecordError {
            fatal: true,
            ..RecordError::new(offset, kind, message)
        }
    }

    pub(crate) fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }
}

/// A file that cannot be read at all.
#[derive(Debug)]
pub enum FileError {
    /// Opening or reading the first bytes failed.
    Io(io::Error),
    /// No format was given and the content matches none (the message says
    /// what the first bytes look like).
    UnknownFormat(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "{e}"),
            FileError::UnknownFormat(m) => write!(f, "not a crawl file: {m}"),
        }
    }
}

impl std::error::Error for FileError {}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> Self {
        FileError::Io(e)
    }
}

/// Counts kept while reading: every record read is an observation, a
/// skipped record (request, warcinfo, metadata, comments) or a bad record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records or lines read (blank lines excluded).
    pub records: u64,
    pub observations: u64,
    /// Records that are not evidence (WARC request/warcinfo/metadata/
    /// conversion/continuation, the ARC version block, CDX header and `#`
    /// comment lines).
    pub skipped: u64,
    /// Bad records (fatal errors included).
    pub bad: u64,
}

/// The observations of one file, in file order.
pub struct Records {
    format: Format,
    inner: Box<dyn RecordSource + Send>,
    counts: Counts,
    done: bool,
}

impl fmt::Debug for Records {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Records")
            .field("format", &self.format)
            .field("counts", &self.counts)
            .field("done", &self.done)
            .finish()
    }
}

/// What each reader yields: an observation, a record that is not evidence,
/// or an error.
pub(crate) enum Item {
    Obs(Observation),
    Skip,
    Err(RecordError),
}

pub(crate) trait RecordSource {
    /// The next item, `None` at the end.
    fn next_item(&mut self) -> Option<Item>;
}

impl Records {
    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// What was read so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

impl Iterator for Records {
    type Item = Result<Observation, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let Some(item) = self.inner.next_item() else {
                self.done = true;
                break;
            };
            self.counts.records += 1;
            match item {
                Item::Obs(o) => {
                    self.counts.observations += 1;
                    return Some(Ok(o));
                }
                Item::Skip => self.counts.skipped += 1,
                Item::Err(e) => {
                    self.counts.bad += 1;
                    if e.fatal {
                        self.done = true;
                    }
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// Opens a crawl file: plain, gzip or zstd (from the magic bytes), of the
/// given format or the one [`detect`]ed from the decompressed first bytes.
pub fn open(path: &Path, format: Option<Format>) -> Result<Records, FileError> {
    from_reader(File::open(path)?, format)
}

/// The format of a crawl file from its first bytes as read (plain, gzip or
/// zstd: they are decompressed for [`detect`]); `None` when they are no
/// crawl file. For callers that must choose a reader before handing the
/// raw input to [`from_reader`].
pub fn detect_raw(head: &[u8]) -> Option<Format> {
    detect(&source::decompressed_head(
        head,
        source::compression_of(head),
    ))
}

/// Reads a crawl file from any reader (see [`open`]).
pub fn from_reader<R: Read + Send + 'static>(
    r: R,
    format: Option<Format>,
) -> Result<Records, FileError> {
    let (input, compression) = source::sniff(r)?;
    let format = match format {
        Some(f) => f,
        None => {
            let head = source::decompressed_head(input.buffer(), compression);
            detect(&head).ok_or_else(|| FileError::UnknownFormat(describe_head(&head)))?
        }
    };
    let inner: Box<dyn RecordSource + Send> = if format.is_line_format() {
        let text = source::decompressed(input, compression);
        match format {
            Format::Cdx => Box::new(cdx::CdxReader::new(text)),
            Format::Cdxj => Box::new(cdxj::CdxjReader::new(text)),
            Format::RedirectTsv => Box::new(tsv::TsvReader::new(text, tsv::TsvKind::Redirects)),
            _ => Box::new(tsv::TsvReader::new(text, tsv::TsvKind::Digests)),
        }
    } else {
        let units = source::Units::new(input, compression);
        match format {
            Format::Warc => Box::new(warc::WarcReader::new(units)),
            _ => Box::new(arc::ArcReader::new(units)),
        }
    };
    Ok(Records {
        format,
        inner,
        counts: Counts::default(),
        done: false,
    })
}

/// The first bytes of an unknown file, escaped, for the error message.
fn describe_head(head: &[u8]) -> String {
    if head.is_empty() {
        return "the file is empty".to_owned();
    }
    let n = head.len().min(40);
    format!(
        "it starts with \"{}\"",
        head[..n].escape_ascii().to_string().replace('"', "\\\"")
    )
}
