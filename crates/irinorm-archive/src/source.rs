//! Compression: which one a file uses (from its magic bytes), the
//! decompressed first bytes for format detection, and the two ways of
//! reading: one decompressed stream (line formats, plain and zstd WARC/ARC)
//! or one gzip member at a time (gzip WARC/ARC, so that each record's
//! offset is its member's start, as CDX `V` fields say).

use std::io::{self, BufRead, BufReader, Read};

use crate::{ErrorKind, FileError, RecordError};

/// The read buffer (and the most bytes seen for detection).
const BUF: usize = 64 * 1024;
/// Decompressed bytes given to [`crate::detect`].
const HEAD: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Gzip,
    Zstd,
}

pub(crate) type Input = BufReader<Box<dyn Read + Send>>;
pub(crate) type Text = Box<dyn BufRead + Send>;

/// Buffers `r` and tells its compression from the magic bytes (gzip
/// `1f 8b`, RFC 1952 §2.3.1; zstd `28 b5 2f fd`, RFC 8878 §3.1.1).
pub(crate) fn sniff<R: Read + Send + 'static>(r: R) -> Result<(Input, Compression), FileError> {
    let mut input: Input = BufReader::with_capacity(BUF, Box::new(r));
    let c = compression_of(input.fill_buf()?);
    Ok((input, c))
}

/// The compression that the first bytes of a file say.
pub(crate) fn compression_of(head: &[u8]) -> Compression {
    if head.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Up to [`HEAD`] decompressed bytes of `buf`, the start of a file (errors
/// end the head early: detection looks at what could be read).
pub(crate) fn decompressed_head(buf: &[u8], c: Compression) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEAD);
    let _ = match c {
        Compression::None => {
            out.extend_from_slice(&buf[..buf.len().min(HEAD)]);
            Ok(0)
        }
        Compression::Gzip => flate2::read::MultiGzDecoder::new(buf)
            .take(HEAD as u64)
            .read_to_end(&mut out),
        Compression::Zstd => match zstd::stream::read::Decoder::new(buf) {
            Ok(d) => d.take(HEAD as u64).read_to_end(&mut out),
            Err(e) => Err(e),
        },
    };
    // read_to_end keeps what it read before an error.
    out
}

/// The whole decompressed stream (gzip: all members, RFC 1952 §2.2).
pub(crate) fn decompressed(input: Input, c: Compression) -> Text {
    match c {
        Compression::None => Box::new(input),
        Compression::Gzip => Box::new(BufReader::with_capacity(BUF, MemberLines::new(input))),
        Compression::Zstd => match zstd::stream::read::Decoder::with_buffer(input) {
            Ok(d) => Box::new(BufReader::with_capacity(BUF, d)),
            Err(e) => Box::new(FailingReader(Some(e))),
        },
    }
}

/// The members of a gzip stream one after the other, with a newline added
/// after a member whose text does not end with one: ZipNum CDX files
/// (pywb's `zipcdx_`) are blocks of lines, one gzip member each, whose last
/// line may lack its newline.
struct MemberLines {
    input: Option<Input>,
    member: Option<flate2::bufread::GzDecoder<Input>>,
    last: u8,
    newline_due: bool,
}

impl MemberLines {
    fn new(input: Input) -> Self {
        MemberLines {
            input: Some(input),
            member: None,
            last: b'\n',
            newline_due: false,
        }
    }
}

impl Read for MemberLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.newline_due {
                self.newline_due = false;
                buf[0] = b'\n';
                self.last = b'\n';
                return Ok(1);
            }
            if let Some(m) = self.member.as_mut() {
                let n = m.read(buf)?;
                if n > 0 {
                    self.last = buf[n - 1];
                    return Ok(n);
                }
                let m = self.member.take().expect("checked");
                self.input = Some(m.into_inner());
                self.newline_due = self.last != b'\n';
                continue;
            }
            let Some(mut input) = self.input.take() else {
                return Ok(0);
            };
            if input.fill_buf()?.is_empty() {
                return Ok(0);
            }
            self.member = Some(flate2::bufread::GzDecoder::new(input));
        }
    }
}

/// A reader whose first read fails (a zstd decoder that could not start).
struct FailingReader(Option<io::Error>);

impl Read for FailingReader {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(self.0.take().unwrap_or_else(|| io::Error::other("failed")))
    }
}

impl BufRead for FailingReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Err(self.0.take().unwrap_or_else(|| io::Error::other("failed")))
    }
    fn consume(&mut self, _: usize) {}
}

/// A buffered reader that counts the bytes consumed from it.
pub(crate) struct Counting<R> {
    inner: R,
    pub(crate) pos: u64,
}

impl<R: BufRead> Counting<R> {
    pub(crate) fn new(inner: R) -> Self {
        Counting { inner, pos: 0 }
    }
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.inner.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

/// How a WARC/ARC file is cut into records.
pub(crate) enum Units {
    /// One stream; offsets are positions in it (decompressed, for zstd).
    Stream(Counting<Text>),
    /// Gzip members, one per record (WARC 1.1 Annex D.2; ARC likewise);
    /// `None` once the stream is done or broken.
    Members(Option<Counting<Input>>),
}

impl Units {
    pub(crate) fn new(input: Input, c: Compression) -> Units {
        match c {
            Compression::Gzip => Units::Members(Some(Counting::new(input))),
            c => Units::Stream(Counting::new(decompressed(input, c))),
        }
    }
}

/// A member's decompressed bytes, buffered.
pub(crate) type Member = BufReader<flate2::bufread::GzDecoder<Counting<Input>>>;

/// Starts the next gzip member, or `None` at the end of the file.
pub(crate) fn next_member(mut c: Counting<Input>) -> Result<Option<(u64, Member)>, RecordError> {
    let at = c.pos;
    match c.fill_buf() {
        Ok([]) => Ok(None),
        Ok(_) => Ok(Some((
            at,
            BufReader::with_capacity(BUF, flate2::bufread::GzDecoder::new(c)),
        ))),
        Err(e) => Err(io_error(at, &e, true)),
    }
}

/// Reads what is left of a member, returning the reader after it and
/// whether the rest held anything but line ends (`\r`, `\n`, which WARC
/// puts after each record).
pub(crate) fn finish_member(mut m: Member) -> Result<(Counting<Input>, bool), io::Error> {
    let mut extra = false;
    loop {
        let buf = m.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        extra |= buf.iter().any(|&b| b != b'\r' && b != b'\n');
        let n = buf.len();
        m.consume(n);
    }
    Ok((m.into_inner().into_inner(), extra))
}

/// An I/O error as a record error: unexpected end = truncated, invalid data
/// = broken compression.
pub(crate) fn io_error(offset: u64, e: &io::Error, fatal: bool) -> RecordError {
    let kind = match e.kind() {
        io::ErrorKind::UnexpectedEof => ErrorKind::Truncated,
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => ErrorKind::Compression,
        _ => ErrorKind::Io,
    };
    let mut r = RecordError::new(offset, kind, e.to_string());
    r.fatal = fatal;
    r
}
