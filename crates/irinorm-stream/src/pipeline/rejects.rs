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

    /// `line 3`, `argument 2`, or `file.txt:3` when there are several inputs
    /// (the name escaped as in the rejects file: one report, one line).
    fn place(&self, r: &Reject) -> String {
        if self.args_only {
            format!("argument {}", r.line)
        } else if self.names.len() > 1 {
            let mut name = Vec::new();
            escape_field(self.names[r.source].as_bytes(), &mut name);
            format!("{}:{}", String::from_utf8_lossy(&name), r.line)
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
            // Every field escaped alike: one reject is one line of five
            // tab-separated fields, whatever a file name, a message or the
            // original holds.
            let mut line = Vec::with_capacity(r.original.len() + r.failure.message.len() + 64);
            escape_field(place.as_bytes(), &mut line);
            line.extend_from_slice(format!("\t{}\t", r.failure.offset).as_bytes());
            escape_field(r.failure.kind.as_bytes(), &mut line);
            line.push(b'\t');
            escape_field(r.failure.message.as_bytes(), &mut line);
            line.push(b'\t');
            escape_field(&r.original, &mut line);
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

/// Writes `b` as one field of the rejects file: `\\` for a backslash, `\t`,
/// `\n`, `\r` for tab, line feed, carriage return, `\xHH` for the other C0
/// controls, DEL, and every byte that is not part of valid UTF-8, and
/// `\u{HHHH}` for the C1 controls (U+0080-U+009F) and the line and paragraph
/// separators (U+2028, U+2029). Everything else is written as it is. The
/// field then holds no tab and no line end, the file is valid UTF-8, and the
/// original bytes can be recovered exactly (a literal `\r` text, `\\r`,
/// differs from an escaped CR, `\r`).
pub(crate) fn escape_field(b: &[u8], out: &mut Vec<u8>) {
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.extend_from_slice(b"\\\\"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\0'..='\x1f' | '\x7f' => {
                    out.extend_from_slice(format!("\\x{:02X}", c as u32).as_bytes())
                }
                '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' => {
                    out.extend_from_slice(format!("\\u{{{:04X}}}", c as u32).as_bytes())
                }
                _ => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        for &x in chunk.invalid() {
            out.extend_from_slice(format!("\\x{x:02X}").as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape_field;

    fn esc(b: &[u8]) -> String {
        let mut v = Vec::new();
        escape_field(b, &mut v);
        String::from_utf8(v).expect("always UTF-8")
    }

    #[test]
    fn every_control_is_escaped_and_backslashes_stay_distinct() {
        assert_eq!(esc(b"a\tb\nc\rd"), "a\\tb\\nc\\rd");
        // A literal backslash-r text and an escaped CR differ.
        assert_ne!(esc(b"\\r"), esc(b"\r"));
        assert_eq!(esc(b"\\r"), "\\\\r");
        assert_eq!(esc(b"\0\x1b\x7f"), "\\x00\\x1B\\x7F");
        assert_eq!(esc("\u{85}\u{2028}é".as_bytes()), "\\u{0085}\\u{2028}é");
        assert_eq!(esc(b"caf\xe9\xff"), "caf\\xE9\\xFF");
        assert_eq!(esc("http://a/ü?q".as_bytes()), "http://a/ü?q");
    }
}
