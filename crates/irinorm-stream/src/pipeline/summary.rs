//! The counters of a run and its summary line.

use std::path::PathBuf;
use std::time::Duration;

/// Counters of a run.
///
/// Always `read == accepted + rejected`. In text output and record modes,
/// `written == accepted - duplicates` (nothing is written for a rejected
/// input, except by ops that print a verdict for it, like `check`); in
/// `jsonl` output every input line gives one object, so `written == read`.
/// With `--strict`, counting stops at the first reject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Inputs (lines, records or arguments) read.
    pub read: u64,
    /// Inputs accepted.
    pub accepted: u64,
    /// Inputs rejected.
    pub rejected: u64,
    /// Output lines (or records, or dedupe entries) written.
    pub written: u64,
    /// Dedupe: accepted inputs whose key was already seen.
    pub duplicates: u64,
    /// Dedupe: distinct keys.
    pub unique: Option<u64>,
    /// Dedupe: estimated bytes held for the keys.
    pub key_memory: Option<u64>,
    /// Input bytes processed (decompressed).
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Stopped at a reject (`--strict`).
    pub stopped: bool,
    /// The output was closed by the reader (a pipe into `head`...).
    pub broken_pipe: bool,
    /// Rejects shown on stderr.
    pub rejects_shown: u64,
    /// Where all rejects were written.
    pub rejects_file: Option<PathBuf>,
}

fn bytes_h(b: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", U[i])
    }
}

impl Summary {
    /// The summary line (without program name): `read N, written N,
    /// rejected N[, duplicates N, unique N (keys ~X)][ in S s (R MB/s)]`
    /// and notes on where the rejects are; the time is shown from 1 MB of
    /// input on.
    pub fn line(&self) -> String {
        let mut s = format!(
            "read {}, written {}, rejected {}",
            self.read, self.written, self.rejected
        );
        if let Some(u) = self.unique {
            s.push_str(&format!(", duplicates {}, unique {u}", self.duplicates));
            if let Some(m) = self.key_memory {
                s.push_str(&format!(" (keys ~{})", bytes_h(m)));
            }
        }
        let secs = self.elapsed.as_secs_f64();
        if self.bytes >= 1_000_000 && secs > 0.0 {
            s.push_str(&format!(
                " in {secs:.2} s ({:.1} MB/s)",
                self.bytes as f64 / secs / 1e6
            ));
        }
        if self.rejected > 0 {
            match &self.rejects_file {
                Some(p) => s.push_str(&format!("; rejects in {}", p.display())),
                None if self.rejects_shown < self.rejected => s.push_str(&format!(
                    "; {} rejects not shown (--rejects FILE keeps them all)",
                    self.rejected - self.rejects_shown
                )),
                None => {}
            }
        }
        if self.stopped {
            s.push_str("; stopped at the first reject (--strict)");
        }
        s
    }
}
