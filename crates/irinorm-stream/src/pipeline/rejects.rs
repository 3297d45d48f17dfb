//! Where rejected inputs are reported: the rejects file, or stderr.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::atomic::PendingFile;
use crate::failure::Reject;
use crate::input::{self};
use crate::progress::Progress;

use super::Config;

/// Reports rejects: all of them to the rejects file when there is one,
/// else the first few on stderr.
pub(super) struct RejectReporter {
    pub(super) file: Option<(PathBuf, BufWriter<File>)>,
    /// The rejects file is renamed into place at the end of a successful
    /// run only.
    pub(super) pending: Option<PendingFile>,
    pub(super) limit: u64,
    pub(super) shown: u64,
    pub(super) names: Vec<String>,
    pub(super) args_only: bool,
}

impl RejectReporter {
    pub(super) fn new(cfg: &Config, names: Vec<String>, args_only: bool) -> io::Result<Self> {
        let (file, pending) = match &cfg.rejects_file {
            Some(p) => {
                let (pending, f) = PendingFile::create(p)?;
                (Some((p.clone(), BufWriter::new(f))), Some(pending))
            }
            None => (None, None),
        };
        Ok(RejectReporter {
            file,
            pending,
            limit: cfg.show_rejects,
            shown: 0,
            names,
            args_only,
        })
    }

    /// `line 3`, `argument 2`, or `file.txt:3` when there are several inputs.
    fn place(&self, r: &Reject) -> String {
        if self.args_only {
            format!("argument {}", r.line)
        } else if self.names.len() > 1 {
            format!("{}:{}", self.names[r.source], r.line)
        } else {
            format!("line {}", r.line)
        }
    }

    pub(super) fn report(&mut self, r: &Reject, progress: &Progress) -> io::Result<()> {
        let place = if self.names.len() > 1 && !self.args_only {
            format!("{}:{}", self.names[r.source], r.line)
        } else {
            r.line.to_string()
        };
        if let Some((p, f)) = self.file.as_mut() {
            let msg: String = r
                .failure
                .message
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let mut line = Vec::with_capacity(r.original.len() + msg.len() + 64);
            line.extend_from_slice(
                format!("{place}\t{}\t{}\t{msg}\t", r.failure.offset, r.failure.kind).as_bytes(),
            );
            for &b in &r.original {
                match b {
                    b'\n' => line.extend_from_slice(b"\\n"),
                    b'\r' => line.extend_from_slice(b"\\r"),
                    _ => line.push(b),
                }
            }
            line.push(b'\n');
            return f.write_all(&line).map_err(|e| input::with_path(e, p));
        }
        if self.shown < self.limit {
            self.shown += 1;
            let mut shown = String::from_utf8_lossy(&r.original).into_owned();
            if shown.len() > 200 {
                let mut end = 200;
                while !shown.is_char_boundary(end) {
                    end -= 1;
                }
                shown.truncate(end);
                shown.push_str("...");
            }
            let msg = format!(
                "irinorm: {}, byte {}: {}: {}: {:?}",
                self.place(r),
                r.failure.offset,
                r.failure.kind,
                r.failure.message,
                shown
            );
            progress.suspend(|| crate::note(format_args!("{msg}")));
        }
        Ok(())
    }

    /// Flushes the rejects file and puts it in place.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        if let Some((p, f)) = self.file.as_mut() {
            f.flush().map_err(|e| input::with_path(e, p))?;
        }
        match self.pending.take() {
            Some(p) => p.commit(),
            None => Ok(()),
        }
    }
}
