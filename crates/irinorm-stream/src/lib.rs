//! # irinorm-stream
//!
//! The bulk engine behind the `irinorm` command: it runs one [`Op`] (a
//! parse, a check, a mapping, a normalization...) over millions of
//! identifiers, on all cores, in bounded memory, keeping input order, and
//! never loses a line: every input is written or rejected, and every reject
//! is reported with its line number, byte offset and reason.
//!
//! - [`input`]: arguments, stdin, files; gzip and zstd by magic bytes.
//! - [`output`]: stdout or a file, gzip/zstd by extension.
//! - [`record`]: lines, CSV/TSV columns, JSON Lines fields.
//! - [`pipeline`]: the reader → workers → ordered writer pipeline
//!   ([`run`]), rejects, counters ([`Summary`]), progress.
//! - [`dedupe`]: deduplication by key (exact or 128-bit digests).
//! - [`decode`]: lines that are not UTF-8 (`--input-encoding`).
//!
//! The core crate `irinorm` does no I/O; everything that touches files,
//! threads and terminals lives here.
//!
//! ## Plugging in an operation
//!
//! ```
//! use irinorm_stream::{run, Config, Failure, Inputs, Op, Sink, Task};
//!
//! struct Upper;
//! impl Op for Upper {
//!     fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
//!         if input.contains(' ') {
//!             return Err(Failure::new("invalid-char", input.find(' ').unwrap(), "space"));
//!         }
//!         out.push_str(&input.to_ascii_uppercase());
//!         Ok(())
//!     }
//! }
//!
//! let inputs = Inputs::new(vec![b"a".to_vec(), b"b c".to_vec()], vec![]);
//! let mut sink = Sink::memory();
//! let cfg = Config { threads: 2, ..Config::default() };
//! let summary = run(inputs, &cfg, Task::Map(&Upper), &mut sink).unwrap();
//! assert_eq!((summary.read, summary.written, summary.rejected), (2, 1, 1));
//! assert_eq!(sink.into_memory(), b"A\n");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod compress;
pub mod decode;
pub mod dedupe;
pub mod failure;
pub mod input;
pub mod op;
pub mod output;
pub mod pipeline;
mod progress;
pub mod record;

pub use decode::{decode_input, InputEncoding};
pub use dedupe::{DedupeConfig, DedupeMode};
pub use failure::{Failure, Reject};
pub use input::{Input, Inputs};
pub use op::{Format, JsonObject, Op};
pub use output::Sink;
pub use pipeline::{default_threads, run, Config, Summary, Task, DEFAULT_CHUNK_SIZE};
pub use record::{Column, RecordMode};

/// Writes one line to stderr, ignoring write errors: a closed or full
/// stderr (`2>&1 | head`) must not make the tool panic, as `eprintln!`
/// does.
pub fn note(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(line);
    let _ = e.write_all(b"\n");
}
