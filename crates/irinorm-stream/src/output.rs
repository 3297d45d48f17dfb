//! The output sink: stdout, or `-o FILE`, compressed when the file name
//! ends in `.gz` (gzip) or `.zst` (zstd).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::compress::{Codec, ParallelWriter};
use crate::input::with_path;

const BUF: usize = 256 * 1024;

/// Where the results go.
pub struct Sink {
    inner: Inner,
    path: Option<PathBuf>,
}

enum Inner {
    Stdout(BufWriter<io::Stdout>),
    File(BufWriter<File>),
    /// gzip or zstd, compressed on other threads (compress.rs).
    Compressed(ParallelWriter),
    Memory(Vec<u8>),
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.inner {
            Inner::Stdout(_) => "stdout",
            Inner::File(_) => "file",
            Inner::Compressed(_) => "compressed",
            Inner::Memory(_) => "memory",
        };
        f.debug_struct("Sink")
            .field("kind", &kind)
            .field("path", &self.path)
            .finish()
    }
}

impl Sink {
    /// Standard output.
    pub fn stdout() -> Sink {
        Sink {
            inner: Inner::Stdout(BufWriter::with_capacity(BUF, io::stdout())),
            path: None,
        }
    }

    /// An in-memory sink (for tests and library use); see [`Sink::into_memory`].
    pub fn memory() -> Sink {
        Sink {
            inner: Inner::Memory(Vec::new()),
            path: None,
        }
    }

    /// A file (`-` is stdout), gzip-compressed for `*.gz`, zstd for
    /// `*.zst`, plain otherwise.
    pub fn create(path: &Path) -> io::Result<Sink> {
        if path.as_os_str() == "-" {
            return Ok(Sink::stdout());
        }
        let f = File::create(path).map_err(|e| with_path(e, path))?;
        let w = BufWriter::with_capacity(BUF, f);
        let name = path.to_string_lossy().to_ascii_lowercase();
        // One compressor thread per core: the pipeline's threads are busy
        // only part of the time, and the OS shares the cores.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let inner = if name.ends_with(".gz") {
            Inner::Compressed(ParallelWriter::new(w, Codec::Gzip, threads))
        } else if name.ends_with(".zst") || name.ends_with(".zstd") {
            Inner::Compressed(ParallelWriter::new(w, Codec::Zstd, threads))
        } else {
            Inner::File(w)
        };
        Ok(Sink {
            inner,
            path: Some(path.to_owned()),
        })
    }

    fn err(&self, e: io::Error) -> io::Error {
        match &self.path {
            Some(p) if e.kind() != io::ErrorKind::BrokenPipe => with_path(e, p),
            _ => e,
        }
    }

    /// Writes all of `b`.
    pub fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        let r = match &mut self.inner {
            Inner::Stdout(w) => w.write_all(b),
            Inner::File(w) => w.write_all(b),
            Inner::Compressed(w) => w.write_all(b),
            Inner::Memory(v) => {
                v.extend_from_slice(b);
                Ok(())
            }
        };
        r.map_err(|e| self.err(e))
    }

    /// Pushes buffered plain output to the OS (compressed streams keep
    /// their compressor state: only the buffered bytes go).
    pub fn flush(&mut self) -> io::Result<()> {
        let r = match &mut self.inner {
            Inner::Stdout(w) => w.flush(),
            Inner::File(w) => w.flush(),
            Inner::Compressed(w) => w.flush(),
            Inner::Memory(_) => Ok(()),
        };
        r.map_err(|e| self.err(e))
    }

    /// Whether flushing between chunks is worth it (plain stdout: a reader
    /// on the other end of a pipe sees results as soon as they exist).
    pub(crate) fn is_interactive(&self) -> bool {
        matches!(self.inner, Inner::Stdout(_))
    }

    /// Ends the stream (writes the compressed trailer) and flushes.
    pub fn finish(self) -> io::Result<()> {
        let path = self.path.clone();
        let wrap = |e: io::Error| match &path {
            Some(p) if e.kind() != io::ErrorKind::BrokenPipe => with_path(e, p),
            _ => e,
        };
        match self.inner {
            Inner::Stdout(mut w) => w.flush(),
            Inner::File(mut w) => w.flush(),
            Inner::Compressed(w) => w.finish().and_then(|mut f| f.flush()),
            Inner::Memory(_) => Ok(()),
        }
        .map_err(wrap)
    }

    /// The bytes of a [`Sink::memory`] sink (empty for any other).
    pub fn into_memory(self) -> Vec<u8> {
        match self.inner {
            Inner::Memory(v) => v,
            _ => Vec::new(),
        }
    }
}
