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
    // Almost always valid UTF-8: one check (word at a time over ASCII),
    // not the chunks' byte-by-byte walk (21 M of the 205 M of a
    // reject-heavy run, issue 14 round 13).
    if let Ok(s) = std::str::from_utf8(b) {
        return escape_valid(s.as_bytes(), out);
    }
    for chunk in b.utf8_chunks() {
        escape_valid(chunk.valid().as_bytes(), out);
        for &x in chunk.invalid() {
            out.extend_from_slice(format!("\\x{x:02X}").as_bytes());
        }
    }
}

/// Whether one of the eight bytes of `w` may start an escape (see
/// [`escape_valid`]): a byte below 0x20, or 0x7F, `\\`, 0xC2, 0xE2. Exact
/// for "any" (the borrows of the word-at-a-time tests only flag bytes above
/// one that matches).
#[inline(always)]
fn any_stop(w: u64) -> bool {
    const L: u64 = 0x0101_0101_0101_0101;
    const H: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(L) & !v & H;
    let below = w.wrapping_sub(0x20 * L) & !w & H;
    (below
        | zero(w ^ (0x7f * L))
        | zero(w ^ (0x5c * L))
        | zero(w ^ (0xc2 * L))
        | zero(w ^ (0xe2 * L)))
        != 0
}

/// [`escape_field`] on valid UTF-8.
fn escape_valid(v: &[u8], out: &mut Vec<u8>) {
    // Runs of bytes written as they are are copied whole: only the bytes
    // that may start an escape stop the scan (ASCII controls, DEL, `\\`,
    // and the lead bytes 0xC2 of U+0080-U+00BF and 0xE2 of U+2000-U+2FFF:
    // a continuation byte, 0x80-0xBF, is never one of them), eight bytes
    // at a time where none is there. Char by char, each through
    // `encode_utf8` and a push, the escaping cost about 10,000 instructions
    // per reject of a reject-heavy file, on the writer thread (issue 14
    // round 13).
    let mut done = 0;
    let mut i = 0;
    while i < v.len() {
        if let Some(w) = v.get(i..i + 8) {
            if !any_stop(u64::from_le_bytes(w.try_into().expect("8 bytes"))) {
                i += 8;
                continue;
            }
        }
        let x = v[i];
        let stop = x < 0x20 || x == 0x7f || x == b'\\' || x == 0xc2 || x == 0xe2;
        if !stop {
            i += 1;
            continue;
        }
        // `v` is valid UTF-8: a lead byte has its continuation bytes.
        let (n, esc): (usize, Option<u32>) = match x {
            0xc2 if v[i + 1] <= 0x9f => (2, Some(u32::from(v[i + 1]))),
            0xe2 if v[i + 1] == 0x80 && matches!(v[i + 2], 0xa8 | 0xa9) => {
                (3, Some(0x2000 | u32::from(v[i + 2] - 0x80)))
            }
            0xc2 | 0xe2 => (1, None),
            _ => (1, Some(u32::from(x))),
        };
        let Some(c) = esc else {
            i += n;
            continue;
        };
        out.extend_from_slice(&v[done..i]);
        match c {
            0x5c => out.extend_from_slice(b"\\\\"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0a => out.extend_from_slice(b"\\n"),
            0x0d => out.extend_from_slice(b"\\r"),
            0x00..=0x1f | 0x7f => out.extend_from_slice(format!("\\x{c:02X}").as_bytes()),
            _ => out.extend_from_slice(format!("\\u{{{c:04X}}}").as_bytes()),
        }
        i += n;
        done = i;
    }
    out.extend_from_slice(&v[done..]);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::escape_field;

    /// The rules of [`escape_field`] char by char: its oracle (the
    /// implementation before issue 14 round 13).
    fn escape_by_char(b: &[u8], out: &mut Vec<u8>) {
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

    /// Bytes and text near the escapes: controls, backslashes, C1
    /// controls and their neighbours, the separators and their
    /// neighbours, truncated sequences, plain ASCII and other UTF-8.
    fn pieces() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            any::<u8>().prop_map(|b| vec![b]),
            Just(b"\\".to_vec()),
            Just(b"\t\r\n".to_vec()),
            (0x7eu32..0xa2).prop_map(|c| char::from_u32(c).unwrap().to_string().into_bytes()),
            (0x2026u32..0x202b).prop_map(|c| char::from_u32(c).unwrap().to_string().into_bytes()),
            Just(vec![0xe2, 0x80]),
            Just(vec![0xc2]),
            "[a-z/:?&=%.]{0,12}".prop_map(String::into_bytes),
            any::<char>().prop_map(|c| c.to_string().into_bytes()),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn any_stop_is_exact(
            w in proptest::collection::vec(
                prop_oneof![Just(0x1fu8), Just(0x20), Just(0x7f), Just(0x5c), Just(0xc2),
                    Just(0xe2), Just(0xc1), Just(0xe3), any::<u8>()],
                8,
            )
        ) {
            let stops = w.iter().any(|&x| x < 0x20 || matches!(x, 0x7f | 0x5c | 0xc2 | 0xe2));
            let word = u64::from_le_bytes(w.as_slice().try_into().unwrap());
            prop_assert_eq!(super::any_stop(word), stops);
        }

        #[test]
        fn escape_field_agrees_with_the_char_by_char_rules(b in pieces()) {
            let (mut fast, mut slow) = (b"x".to_vec(), b"x".to_vec());
            escape_field(&b, &mut fast);
            escape_by_char(&b, &mut slow);
            prop_assert_eq!(fast, slow);
        }
    }

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
