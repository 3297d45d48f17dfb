//! Record modes: the identifier is a whole line, a field of a CSV/TSV
//! record, or a string field of a JSON Lines object. The record is kept
//! and the result replaces the field or is added as a new one.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::failure::{kind, Failure};
use crate::op::push_json_str;

/// Which column of a CSV/TSV record holds the identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// 0-based index (the CLI takes 1-based numbers).
    Index(usize),
    /// A header name (the first record of each input is then a header).
    Name(String),
}

/// What a unit of input is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RecordMode {
    /// A line is an identifier.
    #[default]
    Lines,
    /// CSV (`quoting: true`, RFC 4180 quotes) or TSV (`quoting: false`:
    /// fields split at every delimiter, records at every line end).
    Delimited {
        /// Field separator (`,` for CSV, tab for TSV).
        delimiter: u8,
        /// Whether `"` quotes fields.
        quoting: bool,
        /// Where the identifier is.
        column: Column,
        /// A second identifier (pairs, for `compare`): its text is joined to
        /// the first with a TAB before the op sees it; the result then goes
        /// to `into`.
        column2: Option<Column>,
        /// Whether the first record of each input is a header (always
        /// with [`Column::Name`]).
        header: bool,
        /// Put the result in this column (by header name; appended when it
        /// does not exist or there is no header) instead of replacing the
        /// identifier.
        into: Option<String>,
    },
    /// JSON Lines: each line is a JSON object; `field` holds the identifier.
    Json {
        /// The field holding the identifier (a string).
        field: String,
        /// A second field (pairs, for `compare`), joined to the first with a
        /// TAB.
        field2: Option<String>,
        /// Put the result in this field (added when absent) instead of
        /// replacing `field`.
        into: Option<String>,
    },
}

impl RecordMode {
    pub(crate) fn has_header(&self) -> bool {
        matches!(self, RecordMode::Delimited { header: true, .. })
    }

    /// Whether records may span lines (quoted CSV), so chunks are cut at
    /// record ends found by the CSV parser rather than at any line end.
    pub(crate) fn quoted_csv(&self) -> Option<u8> {
        match self {
            RecordMode::Delimited {
                delimiter,
                quoting: true,
                ..
            } => Some(*delimiter),
            _ => None,
        }
    }
}

/// Where a delimited record's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// This column (replaced; added when the record is shorter).
    Column(usize),
    /// A new last column.
    Append,
}

/// The column layout of one input (resolved from its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) column: usize,
    /// The second column of a pair.
    pub(crate) column2: Option<usize>,
    pub(crate) target: Target,
}

impl Layout {
    /// The layout without a header.
    pub(crate) fn plain(mode: &RecordMode) -> Layout {
        match mode {
            RecordMode::Delimited {
                column: Column::Index(i),
                column2,
                into,
                ..
            } => Layout {
                column: *i,
                column2: match column2 {
                    Some(Column::Index(j)) => Some(*j),
                    _ => None,
                },
                target: if into.is_some() {
                    Target::Append
                } else {
                    Target::Column(*i)
                },
            },
            _ => Layout {
                column: 0,
                column2: None,
                target: Target::Column(0),
            },
        }
    }

    /// The layout of an input with this header record.
    pub(crate) fn from_header(mode: &RecordMode, names: &[&[u8]]) -> Result<Layout, String> {
        let RecordMode::Delimited {
            column,
            column2,
            into,
            ..
        } = mode
        else {
            return Ok(Layout::plain(mode));
        };
        let find = |n: &str| names.iter().position(|h| *h == n.as_bytes());
        // A name the header holds twice is ambiguous: csv.DictReader reads
        // the last column of that name, a spreadsheet the first. A filter
        // that checked one while the consumer reads the other would pass
        // anything, so the input is refused.
        for n in [column, column2.as_ref().unwrap_or(column)]
            .into_iter()
            .filter_map(|c| match c {
                Column::Name(n) => Some(n.as_str()),
                Column::Index(_) => None,
            })
            .chain(into.as_deref())
        {
            let at: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(_, h)| **h == n.as_bytes())
                .map(|(i, _)| (i + 1).to_string())
                .collect();
            if at.len() > 1 {
                return Err(format!(
                    "column {n:?} appears {} times in the header (columns {}): readers disagree on which one it names",
                    at.len(),
                    at.join(", ")
                ));
            }
        }
        let resolve = |c: &Column| match c {
            Column::Index(i) => Ok(*i),
            Column::Name(n) => find(n).ok_or_else(|| {
                let have: Vec<_> = names.iter().map(|h| String::from_utf8_lossy(h)).collect();
                format!("column {n:?} is not in the header ({})", have.join(", "))
            }),
        };
        let col = resolve(column)?;
        let column2 = column2.as_ref().map(resolve).transpose()?;
        let target = match into {
            None => Target::Column(col),
            Some(n) => match find(n) {
                Some(i) => Target::Column(i),
                None => Target::Append,
            },
        };
        Ok(Layout {
            column: col,
            column2,
            target,
        })
    }
}

/// A CSV/TSV parser over the bytes of one chunk (csv-core: no allocation
/// per record, never fails: it always finds *a* parse, as csv does).
pub(crate) struct CsvParser {
    rdr: csv_core::Reader,
    out: Vec<u8>,
    ends: Vec<usize>,
}

/// One parsed record.
pub(crate) struct CsvRecord<'a> {
    /// Byte range of the record in the chunk, without its terminator.
    pub(crate) span: Range<usize>,
    /// Line number (in the input) where the record starts.
    pub(crate) line: u64,
    out: &'a [u8],
    ends: &'a [usize],
}

impl CsvRecord<'_> {
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn field(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.out[start..end])
    }
}

/// Position of a [`CsvParser`] in a chunk.
pub(crate) struct CsvCursor {
    pub(crate) pos: usize,
    pub(crate) line: u64,
}

fn csv_reader(delimiter: u8, quoting: bool) -> csv_core::Reader {
    csv_core::ReaderBuilder::new()
        .delimiter(delimiter)
        .quoting(quoting)
        .build()
}

impl CsvParser {
    pub(crate) fn new(delimiter: u8, quoting: bool) -> Self {
        CsvParser {
            rdr: csv_reader(delimiter, quoting),
            out: vec![0; 4096],
            ends: vec![0; 64],
        }
    }

    /// Starts a chunk (records never continue across chunks).
    pub(crate) fn reset(&mut self) {
        self.rdr.reset();
    }

    /// The next record of `data` from `cur`, or `None` at the end. Blank
    /// lines between records are skipped (as csv does); line numbers count
    /// them.
    pub(crate) fn next<'s>(
        &'s mut self,
        data: &[u8],
        cur: &mut CsvCursor,
    ) -> Option<CsvRecord<'s>> {
        while cur.pos < data.len() && matches!(data[cur.pos], b'\n' | b'\r') {
            if data[cur.pos] == b'\n' {
                cur.line += 1;
            }
            cur.pos += 1;
        }
        if cur.pos >= data.len() {
            return None;
        }
        let start = cur.pos;
        let (mut o, mut e) = (0usize, 0usize);
        loop {
            let input = &data[cur.pos..];
            let (res, nin, nout, nend) =
                self.rdr
                    .read_record(input, &mut self.out[o..], &mut self.ends[e..]);
            cur.pos += nin;
            o += nout;
            e += nend;
            match res {
                csv_core::ReadRecordResult::InputEmpty => {
                    // The chunk ends inside a record only at the end of its
                    // input: the next call (empty input) ends the record.
                    if input.is_empty() {
                        break;
                    }
                }
                csv_core::ReadRecordResult::OutputFull => {
                    let n = self.out.len() * 2;
                    self.out.resize(n, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    let n = self.ends.len() * 2;
                    self.ends.resize(n, 0);
                }
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
            }
        }
        let line = cur.line;
        cur.line += memchr::memchr_iter(b'\n', &data[start..cur.pos]).count() as u64;
        let mut end = cur.pos;
        while end > start && matches!(data[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Some(CsvRecord {
            span: start..end,
            line,
            out: &self.out[..o],
            ends: &self.ends[..e],
        })
    }
}

/// Finds where the complete records of a growing buffer end (the reader's
/// side of quoted CSV: a quoted field may hold line ends).
pub(crate) struct CsvCutter {
    rdr: csv_core::Reader,
    scanned: usize,
    cut: usize,
    out: Vec<u8>,
    ends: Vec<usize>,
}

impl CsvCutter {
    pub(crate) fn new(delimiter: u8) -> Self {
        CsvCutter {
            rdr: csv_reader(delimiter, true),
            scanned: 0,
            cut: 0,
            out: vec![0; 64 * 1024],
            ends: vec![0; 1024],
        }
    }

    /// Starts a new buffer (at a record boundary).
    pub(crate) fn reset(&mut self) {
        self.rdr.reset();
        self.scanned = 0;
        self.cut = 0;
    }

    /// Scans what was appended to `data` since the last call; returns the
    /// end of the last complete record (0 when there is none yet).
    pub(crate) fn scan(&mut self, data: &[u8]) -> usize {
        while self.scanned < data.len() {
            let (res, nin, _, _) =
                self.rdr
                    .read_record(&data[self.scanned..], &mut self.out, &mut self.ends);
            self.scanned += nin;
            match res {
                csv_core::ReadRecordResult::Record => self.cut = self.scanned,
                csv_core::ReadRecordResult::InputEmpty | csv_core::ReadRecordResult::End => break,
                // Field contents are not needed here: the same scratch
                // buffers are handed again.
                csv_core::ReadRecordResult::OutputFull
                | csv_core::ReadRecordResult::OutputEndsFull => {}
            }
        }
        self.cut
    }
}

impl CsvCutter {
    /// Goes on with the record in progress over `bytes` (the reader skipping
    /// a record that is too long): where in `bytes` the record ends, or
    /// `None` when it goes on.
    pub(crate) fn record_end(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut pos = 0;
        while pos < bytes.len() {
            let (res, nin, _, _) =
                self.rdr
                    .read_record(&bytes[pos..], &mut self.out, &mut self.ends);
            pos += nin;
            match res {
                csv_core::ReadRecordResult::Record => return Some(pos),
                csv_core::ReadRecordResult::InputEmpty | csv_core::ReadRecordResult::End => {
                    return None
                }
                csv_core::ReadRecordResult::OutputFull
                | csv_core::ReadRecordResult::OutputEndsFull => {}
            }
        }
        None
    }
}

/// Writes one delimited field, quoting it when needed (`only` is true for
/// the single field of a one-field record: an empty one is written `""` so
/// that the record is not a blank line, which readers skip).
pub(crate) fn write_field(out: &mut Vec<u8>, f: &[u8], delimiter: u8, quoting: bool, only: bool) {
    if !quoting {
        out.extend_from_slice(f);
        return;
    }
    let needs = (only && f.is_empty())
        || f.iter()
            .any(|&b| b == delimiter || b == b'"' || b == b'\n' || b == b'\r');
    if !needs {
        out.extend_from_slice(f);
        return;
    }
    out.push(b'"');
    for &b in f {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Writes a record with the result `value` at `target`, then `\n`.
pub(crate) fn write_record(
    out: &mut Vec<u8>,
    rec: &CsvRecord<'_>,
    target: Target,
    value: &[u8],
    delimiter: u8,
    quoting: bool,
) {
    let n = rec.len();
    let (total, at) = match target {
        Target::Column(i) => (n.max(i + 1), i),
        Target::Append => (n + 1, n),
    };
    for i in 0..total {
        if i > 0 {
            out.push(delimiter);
        }
        let f = if i == at {
            value
        } else {
            rec.field(i).unwrap_or_default()
        };
        write_field(out, f, delimiter, quoting, total == 1);
    }
    out.push(b'\n');
}

/// A string that borrows from the JSON text when it holds no escapes.
struct CowStr<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON object with its members in their order, values kept as their
/// original text.
pub(crate) struct JsonRecord<'a> {
    members: Vec<(Cow<'a, str>, &'a RawValue)>,
}

impl<'de> Deserialize<'de> for JsonRecord<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonRecord<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8));
                while let Some(k) = map.next_key::<CowStr<'de>>()? {
                    let v: &'de RawValue = map.next_value()?;
                    members.push((k.0, v));
                }
                Ok(JsonRecord { members })
            }
        }
        d.deserialize_map(V)
    }
}

/// The index of the first member whose name an earlier member has (names
/// compared after unescaping: `"u"` and `"\u0075"` are one name).
fn first_duplicate(members: &[(Cow<'_, str>, &RawValue)]) -> Option<usize> {
    if members.len() <= 16 {
        return (1..members.len()).find(|&i| members[..i].iter().any(|(k, _)| *k == members[i].0));
    }
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    members.iter().position(|(k, _)| !seen.insert(k.as_ref()))
}

impl<'a> JsonRecord<'a> {
    /// Parses one line.
    pub(crate) fn parse(line: &'a str) -> Result<Self, Failure> {
        let rec: JsonRecord<'a> = serde_json::from_str(line).map_err(|e| {
            // serde_json columns are 1-based, in bytes, on the one line.
            Failure::new(
                kind::INVALID_JSON,
                e.column().saturating_sub(1),
                format!("not a JSON object: {e}"),
            )
        })?;
        // RFC 8259 §4: with duplicate names, "the behavior of software that
        // receives such an object is unpredictable" (Python keeps the last,
        // this reader would keep the first): a security filter must not
        // check one value while the consumer reads another, so the record
        // is refused, at the offset of the second value.
        if let Some(i) = first_duplicate(&rec.members) {
            let (k, v) = &rec.members[i];
            let offset = (v.get().as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
            return Err(Failure::new(
                kind::DUPLICATE_KEY,
                offset,
                format!("the name {k:?} appears more than once in the object: readers disagree on which value it has"),
            ));
        }
        Ok(rec)
    }

    /// The string value of `field`.
    pub(crate) fn get_str(&self, field: &str) -> Result<Cow<'a, str>, Failure> {
        let (_, v) = self
            .members
            .iter()
            .find(|(k, _)| k == field)
            .ok_or_else(|| Failure::new(kind::MISSING_FIELD, 0, format!("no field {field:?}")))?;
        let v: &'a RawValue = v;
        serde_json::from_str::<CowStr<'a>>(v.get())
            .map(|c| c.0)
            .map_err(|_| {
                Failure::new(
                    kind::NOT_A_STRING,
                    0,
                    format!("field {field:?} is not a string: {}", v.get()),
                )
            })
    }

    /// Writes the object with `key` set to the string `value` (replacing
    /// its first occurrence, or added last), then `\n`.
    pub(crate) fn write_with(&self, out: &mut Vec<u8>, key: &str, value: &str) {
        out.push(b'{');
        let mut done = false;
        for (i, (k, v)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            push_json_str(out, k);
            out.push(b':');
            if !done && k == key {
                push_json_str(out, value);
                done = true;
            } else {
                out.extend_from_slice(v.get().as_bytes());
            }
        }
        if !done {
            if !self.members.is_empty() {
                out.push(b',');
            }
            push_json_str(out, key);
            out.push(b':');
            push_json_str(out, value);
        }
        out.extend_from_slice(b"}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(data: &[u8], d: u8, q: bool) -> Vec<(u64, Vec<String>, String)> {
        let mut p = CsvParser::new(d, q);
        p.reset();
        let mut cur = CsvCursor { pos: 0, line: 1 };
        let mut v = Vec::new();
        while let Some(r) = p.next(data, &mut cur) {
            let fields = (0..r.len())
                .map(|i| String::from_utf8(r.field(i).unwrap().to_vec()).unwrap())
                .collect();
            v.push((
                r.line,
                fields,
                String::from_utf8(data[r.span.clone()].to_vec()).unwrap(),
            ));
        }
        v
    }

    #[test]
    fn csv_quoted_newlines_and_blank_lines() {
        let data = b"a,\"x\ny\",c\r\n\nb,\"q\"\"q\",d";
        let r = records(data, b',', true);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].0, 1);
        assert_eq!(r[0].1, vec!["a", "x\ny", "c"]);
        assert_eq!(r[0].2, "a,\"x\ny\",c");
        assert_eq!(r[1].0, 4);
        assert_eq!(r[1].1, vec!["b", "q\"q", "d"]);
    }

    #[test]
    fn tsv_no_quotes() {
        let r = records(b"\"a\tb\n", b'\t', false);
        assert_eq!(r[0].1, vec!["\"a", "b"]);
    }

    #[test]
    fn cutter_finds_record_ends() {
        let mut c = CsvCutter::new(b',');
        c.reset();
        let data = b"a,\"x\ny\"\nb,\"open\n";
        assert_eq!(c.scan(&data[..4]), 0);
        assert_eq!(c.scan(data), 8);
    }

    #[test]
    fn write_quotes_when_needed() {
        let mut o = Vec::new();
        write_field(&mut o, b"a,b", b',', true, false);
        write_field(&mut o, b"q\"", b',', true, false);
        write_field(&mut o, b"", b',', true, true);
        write_field(&mut o, b"plain", b',', true, false);
        assert_eq!(o, b"\"a,b\"\"q\"\"\"\"\"plain");
    }

    #[test]
    fn json_replace_and_add() {
        let line = r#"{"id":1,"url":"http://a/\u00e9","x":{"b":1,"a":2}}"#;
        let r = JsonRecord::parse(line).unwrap();
        assert_eq!(r.get_str("url").unwrap(), "http://a/é");
        assert_eq!(r.get_str("id").unwrap_err().kind, kind::NOT_A_STRING);
        assert_eq!(r.get_str("nope").unwrap_err().kind, kind::MISSING_FIELD);
        let mut o = Vec::new();
        r.write_with(&mut o, "url", "U");
        assert_eq!(
            String::from_utf8(o).unwrap(),
            "{\"id\":1,\"url\":\"U\",\"x\":{\"b\":1,\"a\":2}}\n"
        );
        let mut o = Vec::new();
        r.write_with(&mut o, "norm", "U");
        assert!(String::from_utf8(o)
            .unwrap()
            .ends_with(",\"norm\":\"U\"}\n"));
        assert_eq!(
            JsonRecord::parse("[1]").err().unwrap().kind,
            kind::INVALID_JSON
        );
    }

    #[test]
    fn json_duplicate_names_are_refused() {
        let line = r#"{"u":"http://ok/","u":"http://bad host/"}"#;
        let e = JsonRecord::parse(line).err().unwrap();
        assert_eq!((e.kind, e.offset), (kind::DUPLICATE_KEY, 22));
        // One name, two spellings.
        let e = JsonRecord::parse(r#"{"u":1,"\u0075":2}"#).err().unwrap();
        assert_eq!(e.kind, kind::DUPLICATE_KEY);
        // Past the linear scan's size, the hash set finds it too.
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
        let line = format!("{{{},\"k7\":0}}", many.join(","));
        assert_eq!(
            JsonRecord::parse(&line).err().unwrap().kind,
            kind::DUPLICATE_KEY
        );
        let line = format!("{{{}}}", many.join(","));
        assert!(JsonRecord::parse(&line).is_ok());
        // Nested objects are values: their names are not this record's.
        assert!(JsonRecord::parse(r#"{"u":"x","m":{"u":1,"u":2}}"#).is_ok());
    }

    #[test]
    fn header_with_a_selected_name_twice_is_refused() {
        let mode = |column: &str, into: Option<&str>| RecordMode::Delimited {
            delimiter: b',',
            quoting: true,
            column: Column::Name(column.into()),
            column2: None,
            header: true,
            into: into.map(str::to_owned),
        };
        let names: Vec<&[u8]> = vec![b"id", b"url", b"url", b"n", b"n"];
        let e = Layout::from_header(&mode("url", None), &names).unwrap_err();
        assert!(
            e.contains("appears 2 times in the header (columns 2, 3)"),
            "{e}"
        );
        let e = Layout::from_header(&mode("id", Some("n")), &names).unwrap_err();
        assert!(e.contains("\"n\""), "{e}");
        // A name that is not selected may repeat: nobody reads it by name.
        let names: Vec<&[u8]> = vec![b"x", b"url", b"x"];
        assert!(Layout::from_header(&mode("url", None), &names).is_ok());
    }
}
