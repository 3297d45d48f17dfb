//! Input sources: identifiers given as arguments, standard input, files.
//! gzip and zstd are recognized by their magic bytes (never by the file
//! name) and decompressed on the fly.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// One input source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Identifiers given on the command line: each is one input, whatever
    /// bytes it holds (no line splitting, no `\r` stripping).
    Args(Vec<Vec<u8>>),
    /// Standard input, one identifier (or record) a line.
    Stdin,
    /// A file, one identifier (or record) a line; `-` is standard input.
    File(PathBuf),
}

impl Input {
    /// The name used in reports: the path, `-` for stdin, `argument`.
    pub fn name(&self) -> String {
        match self {
            Input::Args(_) => "argument".to_owned(),
            Input::Stdin => "-".to_owned(),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// The input sources of one run, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// The sources.
    pub list: Vec<Input>,
}

impl Inputs {
    /// Identifiers given as arguments when there are any, else the files
    /// (`-` meaning stdin), else stdin.
    pub fn new(args: Vec<Vec<u8>>, files: Vec<PathBuf>) -> Self {
        let list = if !args.is_empty() {
            vec![Input::Args(args)]
        } else if !files.is_empty() {
            files
                .into_iter()
                .map(|p| {
                    if p.as_os_str() == "-" {
                        Input::Stdin
                    } else {
                        Input::File(p)
                    }
                })
                .collect()
        } else {
            vec![Input::Stdin]
        };
        Inputs { list }
    }

    /// Checks that every file can be opened, before anything is written.
    pub fn check(&self) -> io::Result<()> {
        for i in &self.list {
            if let Input::File(p) = i {
                File::open(p).map_err(|e| with_path(e, p))?;
            }
        }
        Ok(())
    }

    /// Total size in bytes when every source is a regular file (stdin
    /// redirected from a file counts), for percentages and time left.
    pub fn total_size(&self) -> Option<u64> {
        let mut total = 0u64;
        for i in &self.list {
            total += match i {
                Input::Args(a) => a.iter().map(|x| x.len() as u64 + 1).sum(),
                Input::File(p) => {
                    let m = std::fs::metadata(p).ok()?;
                    if !m.is_file() {
                        return None;
                    }
                    m.len()
                }
                Input::Stdin => {
                    let m = stdin_file().ok()?.metadata().ok()?;
                    if !m.is_file() {
                        return None;
                    }
                    m.len()
                }
            };
        }
        Some(total)
    }
}

pub(crate) fn with_path(e: io::Error, p: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", p.display()))
}

/// Standard input as a `File` (a duplicate of descriptor 0), so that its
/// size is known when it is redirected from a file and reads bypass the
/// `Stdin` lock.
#[cfg(unix)]
fn stdin_file() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn stdin_file() -> io::Result<File> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "not a file"))
}

/// A reader that counts the raw (possibly compressed) bytes it read, for
/// the progress display.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A decompressor whose errors say what they mean for the run: a truncated
/// stream, a corrupt one, or bytes after the last gzip member / zstd frame
/// that are not another one are all errors (never a shorter input that
/// looks complete: the last lines would be lost without a word).
struct Decompressing<R> {
    inner: R,
    what: &'static str,
}

impl<R: Read> Read for Decompressing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            io::Error::new(
                e.kind(),
                format!(
                    "{} input is truncated, corrupt, or followed by bytes that are not {} ({e})",
                    self.what, self.what
                ),
            )
        })
    }
}

/// How the bytes of a stream are compressed, by magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip (RFC 1952): `1f 8b`.
    Gzip,
    /// Zstandard: `28 b5 2f fd`.
    Zstd,
}

fn could_be_magic(head: &[u8]) -> bool {
    [0x1f, 0x8b].starts_with(head) || [0x28, 0xb5, 0x2f, 0xfd].starts_with(head)
}

impl Compression {
    /// Recognizes the magic bytes at the start of a stream.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// An opened source: a reader of its (decompressed) bytes, and whether
/// reads can return early with data still to come (a pipe or a terminal:
/// then complete lines are processed at once rather than waiting for a full
/// chunk, so that interactive use answers line by line).
pub(crate) struct Opened {
    pub(crate) reader: Box<dyn Read + Send>,
    pub(crate) interactive: bool,
}

/// Opens a file or stdin, detecting gzip and zstd by magic bytes.
pub(crate) fn open(input: &Input, raw_count: Arc<AtomicU64>) -> io::Result<Opened> {
    let (file, interactive, path): (File, bool, Option<&Path>) = match input {
        Input::File(p) => (File::open(p).map_err(|e| with_path(e, p))?, false, Some(p)),
        Input::Stdin => {
            let f = stdin_file()?;
            let regular = f.metadata().map(|m| m.is_file()).unwrap_or(false);
            (f, !regular, None)
        }
        Input::Args(_) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "arguments are not a stream",
            ))
        }
    };
    let mut counting = Counting {
        inner: file,
        count: raw_count,
    };
    // Read the first bytes until they are 4, or cannot be the start of a
    // magic number (so one short identifier typed on a terminal or written
    // by a co-process is not held back), or the stream ends.
    let mut head = Vec::with_capacity(4);
    while head.len() < 4 && could_be_magic(&head) {
        let mut b = [0u8; 4];
        let n = match counting.read(&mut b[..4 - head.len()]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        head.extend_from_slice(&b[..n]);
    }
    let compression = Compression::sniff(&head);
    let br = BufReader::with_capacity(256 * 1024, io::Cursor::new(head).chain(counting));
    let err_path = |e: io::Error| match path {
        Some(p) => with_path(e, p),
        None => e,
    };
    let reader: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(br),
        Compression::Gzip => Box::new(Decompressing {
            inner: flate2::bufread::MultiGzDecoder::new(br),
            what: "gzip",
        }),
        Compression::Zstd => Box::new(Decompressing {
            inner: zstd::stream::read::Decoder::with_buffer(br).map_err(err_path)?,
            what: "zstd",
        }),
    };
    Ok(Opened {
        reader,
        interactive: interactive && compression == Compression::None,
    })
}
