//! Stopgap readers of the text formats (CDX with a ` CDX` header, redirect
//! logs, digest lists), until the `archive` branch's readers are merged;
//! then `irinorm_archive::open` replaces [`open`].
//!
//! Redirect log: `from<TAB>status<TAB>to[<TAB>time]` (`-` for an unknown
//! target or status). Digest list: `url<TAB>digest`. CDX: a first line
//! ` CDX F1 F2 ...` naming the fields (letters of the CDX specification:
//! `a` original URL, `b` timestamp, `s` status, `k` digest, `r`
//! redirect, `m` mime), then space-separated lines.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::observation::{Observation, ObservationKind, RecordError};

/// The text formats read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CDX with a header line.
    Cdx,
    /// `from<TAB>status<TAB>to[<TAB>time]`.
    RedirectTsv,
    /// `url<TAB>digest`.
    DigestTsv,
}

impl Format {
    /// From a name given on the command line.
    pub fn from_name(s: &str) -> Option<Format> {
        match s {
            "cdx" => Some(Format::Cdx),
            "redirect-tsv" | "redirects" => Some(Format::RedirectTsv),
            "digest-tsv" | "digests" => Some(Format::DigestTsv),
            _ => None,
        }
    }
}

/// The format of a (decompressed) head of a file.
pub fn detect(head: &[u8]) -> Option<Format> {
    if head.starts_with(b" CDX ") {
        return Some(Format::Cdx);
    }
    let line = head.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    match line.trim_end_matches('\r').split('\t').count() {
        3 | 4 => Some(Format::RedirectTsv),
        2 => Some(Format::DigestTsv),
        _ => None,
    }
}

/// Why a file cannot be read at all.
#[derive(Debug)]
pub struct FileError(pub String);

impl core::fmt::Display for FileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileError {}

/// The records of a file: observations and bad records.
pub struct Records {
    inner: Box<dyn BufRead + Send>,
    format: Format,
    fields: Vec<u8>,
    offset: u64,
    line_no: u64,
    buf: Vec<u8>,
    done: bool,
}

impl core::fmt::Debug for Records {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Records")
            .field("format", &self.format)
            .field("offset", &self.offset)
            .finish()
    }
}

/// Opens a plain, gzip or zstd file.
pub fn open(path: &Path, format: Option<Format>) -> Result<Records, FileError> {
    let f = File::open(path).map_err(|e| FileError(format!("{}: {e}", path.display())))?;
    from_reader(f, format).map_err(|e| FileError(format!("{}: {}", path.display(), e.0)))
}

/// Reads from any reader (gzip and zstd recognized by their magic bytes).
pub fn from_reader<R: Read + Send + 'static>(
    r: R,
    format: Option<Format>,
) -> Result<Records, FileError> {
    let mut raw = BufReader::with_capacity(1 << 16, r);
    let magic = raw
        .fill_buf()
        .map_err(|e| FileError(e.to_string()))?
        .get(..4)
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let mut inner: Box<dyn BufRead + Send> = if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(raw),
        ))
    } else if magic == [0x28, 0xb5, 0x2f, 0xfd] {
        let d =
            zstd::stream::read::Decoder::with_buffer(raw).map_err(|e| FileError(e.to_string()))?;
        Box::new(BufReader::with_capacity(1 << 16, d))
    } else {
        Box::new(raw)
    };
    let head = inner
        .fill_buf()
        .map_err(|e| FileError(e.to_string()))?
        .to_vec();
    let format =
        match format.or_else(|| detect(&head)) {
            Some(f) => f,
            None => return Err(FileError(
                "not a crawl file this reader knows (CDX with a header, redirect or digest TSV)"
                    .into(),
            )),
        };
    Ok(Records {
        inner,
        format,
        fields: Vec::new(),
        offset: 0,
        line_no: 0,
        buf: Vec::with_capacity(512),
        done: false,
    })
}

fn dash(s: &str) -> Option<&str> {
    (s != "-" && !s.is_empty()).then_some(s)
}

fn time(s: Option<&str>) -> Option<String> {
    s.and_then(dash).map(str::to_owned)
}

fn digest(s: &str) -> String {
    if s.contains(':') {
        s.to_owned()
    } else {
        format!("sha1:{s}")
    }
}

impl Records {
    fn bad(&self, offset: u64, kind: &'static str, message: String) -> RecordError {
        RecordError {
            offset,
            line: Some(self.line_no),
            kind,
            message,
            fatal: false,
        }
    }

    fn parse(&mut self, line: &str, offset: u64) -> Result<Option<Observation>, RecordError> {
        let mut o = Observation {
            kind: ObservationKind::Response,
            url: String::new(),
            time: None,
            status: None,
            location: None,
            location_raw: None,
            digest: None,
            refers_to: None,
            mime: None,
            offset,
        };
        let status = |s: &str| -> Result<Option<u16>, String> {
            match dash(s) {
                None => Ok(None),
                Some(s) => s
                    .parse::<u16>()
                    .ok()
                    .filter(|v| (100..=599).contains(v))
                    .map(Some)
                    .ok_or_else(|| format!("bad status {s:?}")),
            }
        };
        match self.format {
            Format::Cdx => {
                if self.fields.is_empty() {
                    let Some(h) = line.strip_prefix(" CDX ") else {
                        return Err(self.bad(
                            offset,
                            "no-cdx-header",
                            "CDX without a ` CDX` header line".into(),
                        ));
                    };
                    self.fields = h.split(' ').filter_map(|f| f.bytes().next()).collect();
                    return Ok(None);
                }
                let cols: Vec<&str> = line.split(' ').collect();
                if cols.len() != self.fields.len() {
                    return Err(self.bad(
                        offset,
                        "field-count",
                        format!(
                            "{} fields, the header names {}",
                            cols.len(),
                            self.fields.len()
                        ),
                    ));
                }
                for (f, v) in self.fields.iter().zip(cols) {
                    match f {
                        b'a' => o.url = v.to_owned(),
                        b'b' => o.time = time(Some(v)),
                        b's' => {
                            o.status = status(v).map_err(|m| self.bad(offset, "bad-status", m))?
                        }
                        b'k' => o.digest = dash(v).map(digest),
                        b'r' => o.location_raw = dash(v).map(str::to_owned),
                        b'm' => {
                            if v == "warc/revisit" {
                                o.kind = ObservationKind::Revisit;
                            }
                            o.mime = dash(v).map(str::to_owned);
                        }
                        _ => {}
                    }
                }
            }
            Format::RedirectTsv => {
                let cols: Vec<&str> = line.split('\t').collect();
                if !(3..=4).contains(&cols.len()) {
                    return Err(self.bad(
                        offset,
                        "field-count",
                        "expected from<TAB>status<TAB>to[<TAB>time]".into(),
                    ));
                }
                o.kind = ObservationKind::Redirect;
                o.url = cols[0].to_owned();
                o.status = status(cols[1]).map_err(|m| self.bad(offset, "bad-status", m))?;
                o.location_raw = dash(cols[2]).map(str::to_owned);
                o.time = time(cols.get(3).copied());
            }
            Format::DigestTsv => {
                let Some((u, d)) = line.split_once('\t') else {
                    return Err(self.bad(offset, "field-count", "expected url<TAB>digest".into()));
                };
                o.kind = ObservationKind::Digest;
                o.url = u.to_owned();
                o.digest = dash(d).map(digest);
            }
        }
        if o.url.is_empty() {
            return Err(self.bad(offset, "no-url", "empty URL".into()));
        }
        // RFC 3986 §5.2: a relative Location is resolved against the
        // request URI.
        o.location = o
            .location_raw
            .as_deref()
            .and_then(|l| irinorm::resolve(&o.url, l).ok());
        Ok(Some(o))
    }
}

impl Iterator for Records {
    type Item = Result<Observation, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buf.clear();
            let offset = self.offset;
            let n = match self.inner.read_until(b'\n', &mut self.buf) {
                Ok(n) => n,
                Err(e) => {
                    self.done = true;
                    return Some(Err(RecordError {
                        offset,
                        line: Some(self.line_no + 1),
                        kind: "read-error",
                        message: e.to_string(),
                        fatal: true,
                    }));
                }
            };
            if n == 0 {
                self.done = true;
                return None;
            }
            self.offset += n as u64;
            self.line_no += 1;
            let buf = std::mem::take(&mut self.buf);
            let r = match std::str::from_utf8(&buf) {
                Err(e) => Some(Err(self.bad(offset, "not-utf8", e.to_string()))),
                Ok(s) => {
                    let s = s.trim_end_matches('\n').trim_end_matches('\r');
                    if s.is_empty() || (s.starts_with('#') && self.format != Format::Cdx) {
                        None
                    } else {
                        self.parse(s, offset).transpose()
                    }
                }
            };
            self.buf = buf;
            if r.is_some() {
                return r;
            }
        }
        None
    }
}
