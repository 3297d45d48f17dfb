//! Compressed output on other threads: the output is cut into blocks, each
//! block is compressed on its own by a pool of threads into a complete
//! gzip member (RFC 1952 §2.2: a gzip file is a series of members) or zstd
//! frame (RFC 8878 §3: a series of frames), and a writer thread writes them
//! in order. `gzip -d`, `zstd -d` and irinorm's own reader read such
//! streams whole. The pipeline's thread only copies bytes into a block, so
//! compressed output costs little more than plain (BENCHMARKS.md).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Bytes per block: large enough that the per-member overhead (about 20
/// bytes for gzip, 12 for zstd) and the lost context at block starts are
/// negligible, small enough that memory stays a few MiB.
const BLOCK: usize = 1 << 20;

/// The compression of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    /// gzip, zlib's default level (6).
    Gzip,
    /// zstd, level 3 (zstd's default).
    Zstd,
}

impl Codec {
    fn compress(self, block: &[u8]) -> io::Result<Vec<u8>> {
        match self {
            Codec::Gzip => {
                let mut e = flate2::write::GzEncoder::new(
                    Vec::with_capacity(block.len() / 3),
                    flate2::Compression::default(),
                );
                e.write_all(block)?;
                e.finish()
            }
            Codec::Zstd => zstd::bulk::compress(block, 3),
        }
    }
}

type Job = (u64, Vec<u8>);
type Done = (u64, io::Result<Vec<u8>>);

/// A writer that compresses blocks on `threads` threads and writes them,
/// in order, to a file on one more.
pub(crate) struct ParallelWriter {
    block: Vec<u8>,
    next: u64,
    jobs: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
    writer: Option<JoinHandle<io::Result<BufWriter<File>>>>,
    /// Set by the writer thread when writing failed: later writes fail fast.
    failed: Arc<Mutex<Option<io::ErrorKind>>>,
}

impl std::fmt::Debug for ParallelWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParallelWriter")
            .field("blocks", &self.next)
            .field("threads", &self.workers.len())
            .finish()
    }
}

impl ParallelWriter {
    /// Compresses into `out` with `threads` compressor threads (at least 1).
    pub(crate) fn new(out: BufWriter<File>, codec: Codec, threads: usize) -> Self {
        let threads = threads.max(1);
        // At most 2 blocks waiting per thread, and as many compressed ones
        // waiting for their turn: memory is bounded by ~4 x threads blocks.
        let (jobs, job_rx) = sync_channel::<Job>(2 * threads);
        let (done_tx, done_rx) = sync_channel::<Done>(2 * threads);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers = (0..threads)
            .map(|_| {
                let rx = Arc::clone(&job_rx);
                let tx = done_tx.clone();
                std::thread::spawn(move || loop {
                    let job = rx.lock().map(|r| r.recv());
                    let Ok(Ok((seq, block))) = job else { return };
                    if tx.send((seq, codec.compress(&block))).is_err() {
                        return;
                    }
                })
            })
            .collect();
        drop(done_tx);
        let failed = Arc::new(Mutex::new(None));
        let f2 = Arc::clone(&failed);
        let writer = std::thread::spawn(move || write_in_order(out, done_rx, &f2));
        ParallelWriter {
            block: Vec::with_capacity(BLOCK),
            next: 0,
            jobs: Some(jobs),
            workers,
            writer: Some(writer),
            failed,
        }
    }

    fn check(&self) -> io::Result<()> {
        match *self.failed.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(kind) => Err(io::Error::new(kind, "writing the compressed output failed")),
            None => Ok(()),
        }
    }

    fn send_block(&mut self) -> io::Result<()> {
        // An empty output is still one (empty) member, as gzip writes it.
        if self.block.is_empty() && self.next > 0 {
            return Ok(());
        }
        let block = std::mem::replace(&mut self.block, Vec::with_capacity(BLOCK));
        let seq = self.next;
        self.next += 1;
        let sent = self.jobs.as_ref().map(|j| j.send((seq, block)));
        match sent {
            Some(Ok(())) => Ok(()),
            // The threads are gone: the writer failed; its error follows.
            _ => self.check().and(Err(io::ErrorKind::BrokenPipe.into())),
        }
    }

    /// Ends the stream: compresses the last block, waits for every thread,
    /// and gives back the file writer (or the first error).
    pub(crate) fn finish(mut self) -> io::Result<BufWriter<File>> {
        self.send_block()?;
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            _ => Err(io::Error::other("the output writer thread panicked")),
        }
    }
}

impl Write for ParallelWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        let room = BLOCK - self.block.len();
        let n = room.min(buf.len());
        self.block.extend_from_slice(&buf[..n]);
        if self.block.len() == BLOCK {
            self.send_block()?;
        }
        Ok(n)
    }

    /// Compressed blocks are whole members: a flush would cut a block
    /// short for nothing, so it only reports a failure.
    fn flush(&mut self) -> io::Result<()> {
        self.check()
    }
}

impl Drop for ParallelWriter {
    fn drop(&mut self) {
        // Not finished (an error upstream): stop the threads, write nothing more.
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

/// The writer thread: compressed blocks arrive in any order and are
/// written in sequence.
fn write_in_order(
    mut out: BufWriter<File>,
    done: Receiver<Done>,
    failed: &Mutex<Option<io::ErrorKind>>,
) -> io::Result<BufWriter<File>> {
    let mut pending: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    let mut next = 0u64;
    let fail = |e: io::Error| {
        *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.kind());
        e
    };
    for (seq, r) in done {
        pending.insert(seq, r.map_err(fail)?);
        while let Some(b) = pending.remove(&next) {
            out.write_all(&b).map_err(fail)?;
            next += 1;
        }
    }
    if !pending.is_empty() {
        return Err(fail(io::Error::other("a compressed block was lost")));
    }
    out.flush().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn roundtrip(codec: Codec, data: &[u8], threads: usize) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out");
        let f = BufWriter::new(File::create(&p).unwrap());
        let mut w = ParallelWriter::new(f, codec, threads);
        // Odd write sizes, across block boundaries.
        for chunk in data.chunks(777_777) {
            w.write_all(chunk).unwrap();
        }
        w.finish().unwrap();
        let bytes = std::fs::read(&p).unwrap();
        let mut out = Vec::new();
        match codec {
            Codec::Gzip => {
                flate2::read::MultiGzDecoder::new(&bytes[..])
                    .read_to_end(&mut out)
                    .unwrap();
            }
            Codec::Zstd => {
                zstd::stream::read::Decoder::new(&bytes[..])
                    .unwrap()
                    .read_to_end(&mut out)
                    .unwrap();
            }
        }
        out
    }

    #[test]
    fn blocks_come_back_in_order_whatever_the_threads() {
        let data: Vec<u8> = (0..5_000_000u32)
            .flat_map(|i| format!("http://h{}.example/{i}\n", i % 97).into_bytes())
            .take(7 * BLOCK + 12345)
            .collect();
        for codec in [Codec::Gzip, Codec::Zstd] {
            for threads in [1, 3] {
                assert!(
                    roundtrip(codec, &data, threads) == data,
                    "{codec:?} x{threads}"
                );
            }
            assert!(roundtrip(codec, b"", 2).is_empty());
        }
    }
}
