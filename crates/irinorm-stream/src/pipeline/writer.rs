//! The writer stage: puts chunks back in input order, writes them, reports
//! rejects and counts.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender, TryRecvError};

use crate::dedupe::Dedupe;
use crate::output::Sink;
use crate::progress::Progress;

use super::{Bufs, ChunkOut, Payload, RejectReporter, Summary};

pub(super) struct Writer<'a> {
    pub(super) sink: &'a mut Sink,
    pub(super) rejects: &'a mut RejectReporter,
    pub(super) dedupe: Option<&'a mut Dedupe>,
    pub(super) summary: &'a mut Summary,
    pub(super) progress: &'a Progress,
    pub(super) raw_count: &'a AtomicU64,
    pub(super) header_written: bool,
    pub(super) write_headers: bool,
    pub(super) permits_tx: Sender<Box<Bufs>>,
    pub(super) buf: Vec<u8>,
    /// Lines of each source before the next chunk.
    pub(super) line_base: Vec<u64>,
}

impl Writer<'_> {
    /// Writes every chunk in order; true when all were (every sender is
    /// gone: the reader has ended), false when the run stopped early.
    pub(super) fn run(&mut self, results_rx: &Receiver<ChunkOut>) -> io::Result<bool> {
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
                    return Ok(false);
                }
            }
        }
        // Every sender is gone: a chunk still pending means one before it
        // never came (a thread died without saying so). Never a success.
        if let Some((_, c)) = pending.pop_first() {
            return Err(match c.payload {
                Payload::Fatal(e) => e,
                _ => io::Error::other(format!(
                    "internal error: chunk {next} of the input was lost; the output is incomplete"
                )),
            });
        }
        Ok(true)
    }

    fn base(&mut self, source: usize) -> &mut u64 {
        if self.line_base.len() <= source {
            self.line_base.resize(source + 1, 0);
        }
        &mut self.line_base[source]
    }

    /// Handles one chunk in order; false to stop.
    fn chunk(&mut self, c: ChunkOut) -> io::Result<bool> {
        crate::fault::inject("writer");
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
                s.bytes += bufs.len as u64 + stats.skipped;
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
