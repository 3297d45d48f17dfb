//! Reading one line with a bound on the bytes kept.

use std::io::{self, BufRead};

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Line {
    /// End of input, nothing read.
    Eof,
    /// A line (its bytes in the buffer, without the line ending).
    Ok,
    /// A line longer than the limit: consumed to its end, not kept.
    TooLong,
}

/// Reads one line (through `\n`) into `buf` (cleared first), without the
/// `\n` or `\r\n`, keeping at most `limit` bytes; a longer line is consumed
/// to its end and reported as [`Line::TooLong`]. Returns the bytes consumed.
pub(crate) fn read_line<R: BufRead + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<(Line, u64)> {
    buf.clear();
    let mut consumed = 0u64;
    let mut too_long = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            if consumed == 0 {
                return Ok((Line::Eof, 0));
            }
            break;
        }
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if !too_long {
            if buf.len() + take > limit + 2 {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&avail[..take]);
            }
        }
        r.consume(take);
        consumed += take as u64;
        if done {
            break;
        }
    }
    if too_long {
        return Ok((Line::TooLong, consumed));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    if buf.len() > limit {
        buf.clear();
        return Ok((Line::TooLong, consumed));
    }
    Ok((Line::Ok, consumed))
}

/// The lines of a text stream with their byte offsets and numbers.
pub(crate) struct Lines {
    r: crate::source::Text,
    pos: u64,
    no: u64,
    pub(crate) buf: Vec<u8>,
}

/// One line read by [`Lines`]: its offset, number and what was found.
pub(crate) struct LineAt {
    pub(crate) offset: u64,
    pub(crate) no: u64,
    pub(crate) line: Line,
}

impl Lines {
    pub(crate) fn new(r: crate::source::Text) -> Self {
        Lines {
            r,
            pos: 0,
            no: 0,
            buf: Vec::new(),
        }
    }

    /// The next line (`Line::Eof` is never returned: `None` ends).
    pub(crate) fn next_line(&mut self, limit: usize) -> Option<Result<LineAt, crate::RecordError>> {
        let offset = self.pos;
        match read_line(&mut self.r, &mut self.buf, limit) {
            Ok((Line::Eof, _)) => None,
            Ok((line, n)) => {
                self.pos += n;
                self.no += 1;
                Some(Ok(LineAt {
                    offset,
                    no: self.no,
                    line,
                }))
            }
            Err(e) => Some(Err(
                crate::source::io_error(offset, &e, true).at_line(self.no + 1)
            )),
        }
    }
}

/// The loop every line format shares: blank lines are not records, an
/// over-long line or a read error is reported, `parse` handles the rest.
pub(crate) fn next_line_item(
    lines: &mut Lines,
    mut parse: impl FnMut(&str, u64) -> Result<Option<crate::Observation>, crate::RecordError>,
) -> Option<crate::Item> {
    use crate::{ErrorKind, Item, RecordError};
    loop {
        let at = match lines.next_line(crate::limits::MAX_LINE)? {
            Ok(at) => at,
            Err(e) => return Some(Item::Err(e)),
        };
        let bad = |kind, m: String| {
            Some(Item::Err(
                RecordError::new(at.offset, kind, m).at_line(at.no),
            ))
        };
        if at.line == Line::TooLong {
            return bad(
                ErrorKind::TooLong,
                format!("line longer than {} bytes", crate::limits::MAX_LINE),
            );
        }
        let Ok(text) = std::str::from_utf8(&lines.buf) else {
            return bad(ErrorKind::BadField, "the line is not UTF-8".to_owned());
        };
        // Blank: ASCII white space only (WHATWG Infra's: tab, LF, FF, CR,
        // space). `str::trim` also took a line of a vertical tab, a NEL or
        // a no-break space for blank, which then vanished: neither a
        // record nor a reject (round 17, docs/testing.md; the contract of
        // docs/evidence.md, "Errors and limits": `records = observations
        // + skipped + bad` for every line that is not blank).
        if text.bytes().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        return Some(match parse(text, at.offset) {
            // Every line format's observation carries its line, set
            // here once (a later reject, such as the store's `bad-url`,
            // reports it).
            Ok(Some(o)) => Item::Obs(crate::Observation {
                line: Some(at.no),
                ..o
            }),
            Ok(None) => Item::Skip,
            Err(e) => Item::Err(e.at_line(at.no)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round 20: every line format's observation has its line (blank and
    /// comment lines counted), for a reject decided after reading (the
    /// store's `bad-url` reported its line as `-`).
    #[test]
    fn observations_of_line_formats_have_their_line() {
        for (format, text) in [
            (
                crate::Format::Cdxj,
                "\n# c\ncom,a)/ 20200101000000 {\"url\": \"http://a.com/\", \"status\": \"200\"}\n",
            ),
            (
                crate::Format::RedirectTsv,
                "# c\n\nhttp://a.example/x\t301\t/y\n",
            ),
            (
                crate::Format::DigestTsv,
                "\n\nhttp://a.example/%zz\tsha1:A\n",
            ),
        ] {
            let recs: Vec<_> =
                crate::from_reader(std::io::Cursor::new(text.as_bytes().to_vec()), Some(format))
                    .unwrap()
                    .collect();
            let o = recs
                .into_iter()
                .find_map(Result::ok)
                .expect("one observation");
            // The record is the third and last line.
            let start = text[..text.len() - 1].rfind('\n').unwrap() as u64 + 1;
            assert_eq!((o.line, o.offset), (Some(3), start), "{format:?}");
        }
    }

    /// Round 17: a line of white space that is not ASCII (a vertical tab,
    /// NEL, a no-break space) is a record (here a bad one), not a blank
    /// line that vanishes; ASCII white space alone is blank.
    #[test]
    fn only_ascii_white_space_is_blank() {
        let text = b"\x0b\n\xc2\x85\n \t\r\x0c\n\xc2\xa0\r\n\n".to_vec();
        let mut lines = Lines::new(Box::new(std::io::Cursor::new(text)));
        let mut seen = Vec::new();
        while let Some(item) = next_line_item(&mut lines, |_, _| {
            Err(crate::RecordError::new(0, crate::ErrorKind::BadField, "x"))
        }) {
            match item {
                crate::Item::Err(e) => seen.push(e.line),
                _ => panic!("the parser only rejects"),
            }
        }
        assert_eq!(seen, [Some(1), Some(2), Some(4)]);
    }

    #[test]
    fn lines_endings_and_limit() {
        let mut r = &b"ab\r\ncd\nefgh\nxyz"[..];
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 3).unwrap(), (Line::Ok, 4));
        assert_eq!(buf, b"ab");
        assert_eq!(read_line(&mut r, &mut buf, 3).unwrap(), (Line::Ok, 3));
        assert_eq!(buf, b"cd");
        assert_eq!(read_line(&mut r, &mut buf, 3).unwrap(), (Line::TooLong, 5));
        assert!(buf.is_empty());
        assert_eq!(read_line(&mut r, &mut buf, 3).unwrap(), (Line::Ok, 3));
        assert_eq!(buf, b"xyz");
        assert_eq!(read_line(&mut r, &mut buf, 3).unwrap(), (Line::Eof, 0));
    }

    #[test]
    fn a_long_line_is_never_buffered() {
        let long = vec![b'a'; 1 << 20];
        let mut r = io::BufReader::with_capacity(4096, &long[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut r, &mut buf, 100).unwrap(),
            (Line::TooLong, 1 << 20)
        );
        assert!(buf.capacity() < 8192, "{}", buf.capacity());
    }
}
