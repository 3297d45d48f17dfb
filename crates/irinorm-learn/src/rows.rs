//! Rows of evidence: one observed URL, with what is known about its
//! content. Crawl files (WARC, ARC, CDX, CDXJ, redirect logs) are read by
//! the readers of irinorm-archive, the same the evidence store ingests with
//! (an [`irinorm_archive::Observation`] is a [`Row`]); what is read here is
//! what is not a crawl file: URL lists (DustBuster's setting), one URL per
//! line with an optional second TSV column, a digest or a size, and an
//! optional third, the time (`url[<TAB>digest-or-size[<TAB>time]]`). Bad
//! lines are reported with their line number, byte offset and kind, and
//! counted: lines = rows + skipped + rejects.

use std::io::{self, BufRead};

/// One observation of a URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The URL as recorded.
    pub url: String,
    /// Payload digest (`sha1:BASE32`), or `size:N` for a size column
    /// (DustBuster's size buckets: weaker evidence, see docs/learning.md).
    pub digest: Option<String>,
    /// 14-digit UTC timestamp, when known.
    pub time: Option<String>,
    /// HTTP status, when known.
    pub status: Option<u16>,
    /// Redirect target (resolved against `url`, RFC 3986 §5.2), for 3xx.
    pub location: Option<String>,
}

impl From<irinorm_archive::Observation> for Row {
    /// A WARC/ARC record or a CDX(J) line: a revisit carries the digest of
    /// the payload it repeats, a redirect log line its target.
    fn from(o: irinorm_archive::Observation) -> Self {
        Row {
            url: o.url,
            digest: o.digest,
            time: o.time,
            status: o.status,
            location: o.location,
        }
    }
}

impl Row {
    /// A 3xx row with a target: redirect evidence, whose own digest (the
    /// redirect page's body) says nothing about the target's content.
    pub fn is_redirect(&self) -> bool {
        self.status.is_some_and(|s| (300..400).contains(&s)) && self.location.is_some()
    }
}

/// A line that was not a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reject {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line's start.
    pub offset: u64,
    /// What was wrong.
    pub kind: &'static str,
}

/// What reading counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Lines read.
    pub lines: u64,
    /// Rows produced.
    pub rows: u64,
    /// Headers, comments and empty lines.
    pub skipped: u64,
    /// Bad lines (the first 1000 kept in `rejects`, all counted here).
    pub rejected: u64,
    /// The first bad lines.
    pub rejects: Vec<Reject>,
}

/// Reads rows from `r`, calling `each` for every row.
pub fn read(r: impl BufRead, mut each: impl FnMut(Row)) -> io::Result<ReadStats> {
    read_at(r, |row, _, _| each(row))
}

/// [`read`], with each row's 1-based line and the byte offset of the line's
/// start, for a caller that reports a row rejected later (the learner's
/// [`crate::Learned::rejects`]) where it came from.
pub fn read_at(r: impl BufRead, mut each: impl FnMut(Row, u64, u64)) -> io::Result<ReadStats> {
    let mut st = ReadStats::default();
    let lines = each_line(r, |line, no, line_start| {
        let outcome = match std::str::from_utf8(line) {
            Err(_) => Err("not-utf8"),
            Ok(text) => parse_line(text),
        };
        match outcome {
            Ok(Some(row)) => {
                st.rows += 1;
                each(row, no, line_start);
            }
            Ok(None) => st.skipped += 1,
            Err(kind) => {
                st.rejected += 1;
                if st.rejects.len() < 1000 {
                    st.rejects.push(Reject {
                        line: no,
                        offset: line_start,
                        kind,
                    });
                }
            }
        }
        Ok::<_, std::convert::Infallible>(())
    })?;
    st.lines = lines.unwrap_or_else(|never| match never {});
    Ok(st)
}

/// Reads `r` a line at a time: `each` gets the line without its line end,
/// its 1-based number and the byte offset of its start, and may stop the
/// reading with an error of its own (the inner `Err`). Returns the number
/// of lines read. The line end is `\n` or `\r\n` (and a last line may end
/// in one `\r`), as the CLI reads lines (docs/cli.md): one CR is removed,
/// a second is part of the line (round 22: every trailing CR was removed,
/// `a\r\r\n` was `a` here and a reject in the CLI). A read error (a cut
/// gzip or zstd stream, a disk error) says how far reading got: the
/// caller adds the file's name. Every line reader of `irinorm learn`
/// (URL lists, `--truth` files) goes through here.
pub fn each_line<E>(
    mut r: impl BufRead,
    mut each: impl FnMut(&[u8], u64, u64) -> Result<(), E>,
) -> io::Result<Result<u64, E>> {
    let mut buf = Vec::new();
    let (mut no, mut offset) = (0u64, 0u64);
    loop {
        buf.clear();
        let n = r.read_until(b'\n', &mut buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "line {}, byte {offset} of the (decompressed) text: {e}",
                    no + 1
                ),
            )
        })?;
        if n == 0 {
            return Ok(Ok(no));
        }
        no += 1;
        let line_start = offset;
        offset += n as u64;
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Err(e) = each(line, no, line_start) {
            return Ok(Err(e));
        }
    }
}

fn is_timestamp(s: &str) -> bool {
    (8..=17).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

fn digest_of(s: &str) -> Option<String> {
    match s {
        "" | "-" => None,
        d if d.contains(':') => Some(d.to_owned()),
        d => Some(format!("sha1:{d}")),
    }
}

/// White space a field is trimmed of and a blank line is made of: ASCII
/// white space (WHATWG Infra's: tab, LF, FF, CR, space) but CR, which
/// only ends a line (`\r\n`, removed by [`read_at`]); a CR left inside a
/// line is damage, kept so that the URL is rejected where it is.
fn is_blank(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | ' ')
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_blank)
}

/// One line (its line end removed): `Ok(None)` for headers, comments and
/// empty lines.
///
/// Blank and trimmed mean ASCII white space only (WHATWG Infra's), as the
/// crawl-file readers of irinorm-archive take a blank line: a line of a
/// vertical tab or a no-break space is not blank (it is a row, which the
/// learner rejects when it does not parse), and a URL's trailing no-break
/// space is part of the URL (RFC 3987 §2.2 `ucschar`), not stripped into
/// another URL. A CR is not trimmed as blank: `http://a/x\r` is a
/// URL with a CR, which the learner rejects (`invalid-char`), as the CLI
/// rejects the line `http://a/x\r\r\n` (round 22).
pub fn parse_line(line: &str) -> Result<Option<Row>, &'static str> {
    let t = line.trim_start_matches(is_blank);
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    if line.contains('\t') {
        let mut f = line.split('\t');
        let url = trim(f.next().unwrap_or(""));
        if url.is_empty() {
            return Err("empty-url");
        }
        let col = f.next().map(trim).filter(|c| !c.is_empty() && *c != "-");
        let time = f
            .next()
            .map(trim)
            .filter(|t| is_timestamp(t))
            .map(str::to_owned);
        let digest = col.map(|c| {
            if c.bytes().all(|b| b.is_ascii_digit()) {
                format!("size:{c}")
            } else {
                digest_of(c).unwrap_or_default()
            }
        });
        return Ok(Some(Row {
            url: url.to_owned(),
            digest,
            time,
            ..Row::default()
        }));
    }
    let url = trim(line);
    if !url.contains(' ') {
        return Ok(Some(Row {
            url: url.to_owned(),
            ..Row::default()
        }));
    }
    Err("unknown-line-format")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists() {
        let r = parse_line("http://a/x\t1234").unwrap().unwrap();
        assert_eq!(r.digest.as_deref(), Some("size:1234"));
        let r = parse_line("http://a/x\tsha1:AB\t20240101000000")
            .unwrap()
            .unwrap();
        assert_eq!(r.digest.as_deref(), Some("sha1:AB"));
        assert_eq!(r.time.as_deref(), Some("20240101000000"));
        let r = parse_line("http://a/x\tAB").unwrap().unwrap();
        assert_eq!(r.digest.as_deref(), Some("sha1:AB"));
        assert_eq!(parse_line("# c"), Ok(None));
        assert_eq!(parse_line("a b"), Err("unknown-line-format"));
        let st = read(&b"http://a/\n\xff\n\n a b\n"[..], |_| {}).unwrap();
        assert_eq!((st.lines, st.rows, st.skipped, st.rejected), (4, 1, 1, 2));
        assert_eq!(st.rejects[0].offset, 10);
    }

    /// Only ASCII white space is blank or trimmed (WHATWG Infra), as in
    /// irinorm-archive's line reader: a line of a vertical tab, a no-break
    /// space or an ideographic space is a row, not a header (it vanished
    /// from `lines = rows + headers/comments + rejected` before), and a
    /// URL's own trailing no-break space stays in it.
    #[test]
    fn only_ascii_white_space_is_blank_or_trimmed() {
        for odd in ["\u{b}", "\u{a0}", "\u{3000}", "\u{85}"] {
            let r = parse_line(odd).unwrap().expect("a row, not a header");
            assert_eq!(r.url, odd);
        }
        let r = parse_line("http://a.example/b\u{a0}\tsha1:B")
            .unwrap()
            .unwrap();
        assert_eq!(r.url, "http://a.example/b\u{a0}");
        let r = parse_line("http://a.example/b\u{3000}").unwrap().unwrap();
        assert_eq!(r.url, "http://a.example/b\u{3000}");
        // ASCII white space (but CR, below) is still trimmed and blank.
        assert_eq!(parse_line(" \t\u{c} "), Ok(None));
        let r = parse_line(" http://a.example/ \t sha1:A ")
            .unwrap()
            .unwrap();
        assert_eq!(
            (r.url.as_str(), r.digest.as_deref()),
            ("http://a.example/", Some("sha1:A"))
        );
    }

    /// Round 22: one CR ends a line (`\r\n`, or a last line's `\r`), as
    /// in the CLI's reader (docs/cli.md); a second is part of the line,
    /// so the URL keeps it and the learner rejects the row where the CLI
    /// rejects the line. Every trailing CR was removed before (`a\r\r\n`
    /// was the row `a`).
    #[test]
    fn one_cr_ends_a_line_a_second_is_kept() {
        // Offsets: 18 + 3, + 17 + 2, + 3.
        let text = b"http://a.example/x\r\r\nhttp://b.example/\r\n\r\r\nhttp://c.example/\r";
        let mut urls = Vec::new();
        let st = read_at(&text[..], |row, line, offset| {
            urls.push((row.url, line, offset))
        })
        .unwrap();
        assert_eq!(
            urls,
            [
                ("http://a.example/x\r".to_owned(), 1, 0),
                ("http://b.example/".to_owned(), 2, 21),
                ("\r".to_owned(), 3, 40),
                ("http://c.example/".to_owned(), 4, 43),
            ]
        );
        assert_eq!((st.lines, st.rows, st.skipped, st.rejected), (4, 4, 0, 0));
        // In a column too: the digest keeps it (it is compared, not parsed).
        let r = parse_line("http://a.example/\tsha1:A\r").unwrap().unwrap();
        assert_eq!(
            (r.url.as_str(), r.digest.as_deref()),
            ("http://a.example/", Some("sha1:A\r"))
        );
    }

    /// Round 22: a read error (a cut gzip stream) says the line and byte
    /// reached; the caller adds the file (`irinorm learn` said
    /// `incomplete deflate stream` and nothing else).
    #[test]
    fn a_read_error_says_where_reading_stopped() {
        struct Cut<'a>(&'a [u8]);
        impl io::Read for Cut<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "cut"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let r = io::BufReader::new(Cut(b"http://a/\nhttp://b/\nhttp://c"));
        let e = read(r, |_| {}).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(
            e.to_string(),
            "line 3, byte 20 of the (decompressed) text: cut"
        );
    }
}
