//! The reader stage: opens each input, cuts it into chunks at line (or
//! CSV record) ends, resolves headers.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};

use crate::input::{self, Input, Inputs};
use crate::record::{
    write_field, write_record, CsvCursor, CsvCutter, CsvParser, Layout, RecordMode, Target,
};

use super::{Bufs, ChunkIn, ChunkKind, ChunkOut, Payload};

/// Makes `data` at least `n` bytes long (zero-filling only what is new).
fn grow(data: &mut Vec<u8>, n: usize) {
    if data.len() < n {
        data.resize(n, 0);
    }
}

pub(super) struct Reader {
    pub(super) chunk_size: usize,
    pub(super) records: RecordMode,
    pub(super) work_tx: Sender<ChunkIn>,
    pub(super) results_tx: Sender<ChunkOut>,
    pub(super) permits_rx: Receiver<Box<Bufs>>,
    pub(super) cancel: Arc<AtomicBool>,
    pub(super) raw_count: Arc<AtomicU64>,
    pub(super) seq: u64,
}

impl Reader {
    pub(super) fn run(mut self, inputs: Inputs) {
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
