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

use super::{Bufs, ChunkIn, ChunkKind, ChunkOut, Overlong, Payload, OVERLONG_PREFIX};

/// Makes `data` at least `n` bytes long (zero-filling only what is new).
fn grow(data: &mut Vec<u8>, n: usize) {
    if data.len() < n {
        data.resize(n, 0);
    }
}

/// The first read of a stream, and the size of the skipping buffer: a
/// buffer grows from this to the chunk size as the input proves that long.
const MIN_READ: usize = 64 * 1024;

pub(super) struct Reader {
    pub(super) chunk_size: usize,
    pub(super) max_len: usize,
    pub(super) records: RecordMode,
    pub(super) work_tx: Sender<ChunkIn>,
    pub(super) results_tx: Sender<ChunkOut>,
    pub(super) permits_rx: Receiver<Box<Bufs>>,
    pub(super) cancel: Arc<AtomicBool>,
    pub(super) raw_count: Arc<AtomicU64>,
    pub(super) seq: u64,
}

impl Reader {
    /// Reads every input; a panic is sent to the writer as a fatal error
    /// at the next sequence number (chunks before it are still written).
    pub(super) fn run(mut self, inputs: Inputs) {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.inputs(inputs)));
        if let Err(p) = r {
            let _ = self.results_tx.send(ChunkOut {
                seq: self.seq,
                payload: Payload::Fatal(crate::fault::panicked("reader", p)),
            });
        }
    }

    fn inputs(&mut self, inputs: Inputs) {
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
        let ok = self.work_tx.send(c).is_ok();
        self.seq += 1;
        if self.seq == 2 {
            crate::fault::inject("reader");
        }
        ok
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
                overlong: None,
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
        let csv = cutter.is_some();
        let mut carry: Vec<u8> = Vec::new();
        let mut eof = false;
        let mut layout = Layout::plain(&self.records);
        let mut need_header = self.records.has_header();
        // A unit may end in `\r\n`: its terminator is not part of its
        // length, so one byte more than `max_len` can be held before a unit
        // is known to be too long.
        let limit = self.max_len.saturating_add(1);
        while !eof {
            let Some(mut bufs) = self.permit() else {
                return Ok(false);
            };
            let data = &mut bufs.data;
            grow(data, carry.len());
            data[..carry.len()].copy_from_slice(&carry);
            let mut filled = carry.len();
            if let Some(c) = cutter.as_mut() {
                c.reset();
            }
            let (mut cut, mut scanned, mut short) = (0usize, 0usize, false);
            let mut overlong = None;
            loop {
                if filled > scanned {
                    match cutter.as_mut() {
                        Some(c) => cut = c.scan(&data[..filled]).max(cut),
                        None => {
                            if let Some(p) = memchr::memrchr(b'\n', &data[scanned..filled]) {
                                cut = scanned + p + 1;
                            }
                        }
                    }
                    scanned = filled;
                }
                // The unit in progress starts at `cut` (after the blank
                // lines a CSV reader skips): once it is longer than the
                // limit, it is skipped, never buffered whole.
                let start = if csv {
                    cut + data[cut..filled]
                        .iter()
                        .take_while(|&&b| b == b'\n' || b == b'\r')
                        .count()
                } else {
                    cut
                };
                if csv && start == filled {
                    // Only blank lines since the last record: they may end
                    // the chunk (so that no amount of them fills memory).
                    cut = filled;
                }
                if filled - start > limit {
                    let o = skip(
                        &mut *reader,
                        &data[cut..filled],
                        start - cut,
                        cutter.as_mut(),
                        &mut carry,
                    )
                    .map_err(ctx)?;
                    eof = o.eof;
                    overlong = Some(o);
                    break;
                }
                if eof {
                    cut = filled;
                    break;
                }
                if cut > 0 && (filled >= self.chunk_size || short) {
                    break;
                }
                // Read up to the chunk size, growing the buffer as it fills
                // (doubling from 64 KiB: a 21-byte input never takes a
                // chunk's worth of memory); past the chunk size (a unit
                // without its end yet), doubling again, but never past what
                // can still belong to a unit within the limit (the check
                // above guarantees there is room for one byte at least).
                let room = if filled < self.chunk_size {
                    self.chunk_size - filled
                } else {
                    (start + limit + 1).saturating_sub(filled).max(1)
                };
                // A recycled buffer already as long as the room is filled
                // by one read (fewer system calls; issue 14).
                let want = if data.len() >= filled + room {
                    room
                } else {
                    room.min(filled.max(MIN_READ))
                };
                grow(data, filled + want);
                let n = read_some(&mut *reader, &mut data[filled..filled + want]).map_err(ctx)?;
                filled += n;
                eof = n == 0;
                short = opened.interactive && n < want;
            }
            if overlong.is_none() {
                carry.clear();
                carry.extend_from_slice(&data[cut..filled]);
            }
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
            if need_header && overlong.is_some() {
                return Err(ctx(header_too_long(self.max_len)));
            }
            let c = ChunkIn {
                seq: self.seq,
                source,
                kind: ChunkKind::Stream,
                layout,
                bufs,
                overlong,
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
        if rec.span.len() > self.max_len {
            return Err(header_too_long(self.max_len));
        }
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

/// A header is needed to read the records: one longer than the limit fails
/// the run.
fn header_too_long(max_len: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("the header record is longer than --max-len {max_len}"),
    )
}

/// Reads what is there (at least one byte, or 0 at the end), retrying on
/// interruption.
fn read_some(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Skips the rest of a unit (line or CSV record) that is longer than the
/// limit: reads on through a small buffer of its own until the unit ends
/// (a line end; for quoted CSV, the record end the CSV reader finds, its
/// state carried on from `cutter`), keeping only its first bytes. What
/// follows the unit goes to `carry`.
///
/// `partial` is the buffered region from the end of the last complete unit;
/// the unit itself starts `lead` bytes into it (after blank lines).
fn skip(
    reader: &mut dyn Read,
    partial: &[u8],
    lead: usize,
    mut cutter: Option<&mut CsvCutter>,
    carry: &mut Vec<u8>,
) -> io::Result<Overlong> {
    let unit = &partial[lead..];
    let mut o = Overlong {
        prefix: unit[..unit.len().min(OVERLONG_PREFIX)].to_vec(),
        len: unit.len() as u64,
        lead_lines: memchr::memchr_iter(b'\n', &partial[..lead]).count() as u64,
        lines: memchr::memchr_iter(b'\n', partial).count() as u64,
        eof: false,
    };
    // The last two bytes of the unit, to leave its terminator out of
    // its length.
    let mut tail = [0u8; 2];
    let note_tail = |bytes: &[u8], tail: &mut [u8; 2]| match bytes {
        [] => {}
        [b] => *tail = [tail[1], *b],
        [.., a, b] => *tail = [*a, *b],
    };
    note_tail(unit, &mut tail);
    let mut buf = vec![0u8; MIN_READ];
    carry.clear();
    loop {
        let n = read_some(reader, &mut buf)?;
        if n == 0 {
            o.eof = true;
            // A last line without `\n` may still end in `\r` (a CRLF file
            // cut short): left out of the line, as `lines.rs` does for a
            // last line read whole (the report and the length then agree
            // whichever way the line arrived).
            if tail[1] == b'\r' {
                o.len -= 1;
                o.prefix
                    .truncate(o.len.min(OVERLONG_PREFIX as u64) as usize);
            }
            return Ok(o);
        }
        let got = &buf[..n];
        let end = match cutter.as_deref_mut() {
            Some(c) => c.record_end(got),
            None => memchr::memchr(b'\n', got).map(|p| p + 1),
        };
        let used = &got[..end.unwrap_or(n)];
        let room = OVERLONG_PREFIX - o.prefix.len();
        o.prefix.extend_from_slice(&used[..used.len().min(room)]);
        o.len += used.len() as u64;
        o.lines += memchr::memchr_iter(b'\n', used).count() as u64;
        note_tail(used, &mut tail);
        if let Some(e) = end {
            carry.extend_from_slice(&got[e..]);
            // The terminator (`\n`, `\r\n`, or a lone `\r` for CSV).
            let term = match tail {
                [b'\r', b'\n'] => 2,
                [_, b'\n' | b'\r'] => 1,
                _ => 0,
            };
            o.len -= term;
            o.prefix
                .truncate(o.len.min(OVERLONG_PREFIX as u64) as usize);
            return Ok(o);
        }
    }
}
