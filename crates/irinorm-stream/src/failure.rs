//! Why an input was rejected ([`Failure`]) and the record of a rejected
//! line ([`Reject`]).

use std::fmt;

use irinorm::{MapError, ParseError};

/// Why one identifier was rejected: a stable kebab-case kind, the byte
/// offset into the identifier where it went wrong, and a reason for people.
///
/// `message` never repeats the offset (it is a field of its own); it is
/// built only on the reject path, so the hot path does not allocate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Kebab-case kind (`invalid-char`, `invalid-utf8`, `missing-field`...):
    /// the `ErrorKind::code()` of the core, or one of the stream kinds.
    pub kind: &'static str,
    /// Byte offset into the identifier (after decoding, when it was decoded).
    pub offset: usize,
    /// What was wrong, for people, without the offset.
    pub message: String,
}

impl Failure {
    /// A failure of one of the stream's own kinds.
    pub fn new(kind: &'static str, offset: usize, message: impl Into<String>) -> Self {
        Failure {
            kind,
            offset,
            message: message.into(),
        }
    }
}

/// The core's message without its trailing `" at byte N"` (the offset is a
/// field of its own here).
fn reason(e: &ParseError) -> String {
    let mut m = e.message();
    let suffix = format!(" at byte {}", e.offset());
    if m.ends_with(&suffix) {
        m.truncate(m.len() - suffix.len());
    }
    m
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure {
            kind: e.kind().code(),
            offset: e.offset(),
            message: reason(&e),
        }
    }
}

impl From<MapError> for Failure {
    fn from(e: MapError) -> Self {
        let mut message = reason(&e.error);
        if let Some(i) = &e.idna {
            message.push_str(": ");
            message.push_str(&i.to_string());
        }
        Failure {
            kind: e.error.kind().code(),
            offset: e.error.offset(),
            message,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} ({})",
            self.message, self.offset, self.kind
        )
    }
}

/// A rejected input line or record, as reported on stderr and written to
/// the `--rejects` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reject {
    /// Index of the input source (see [`crate::Inputs`]).
    pub source: usize,
    /// 1-based line number in its source where the line or record starts
    /// (for command-line arguments: the argument's position).
    pub line: u64,
    /// Why.
    pub failure: Failure,
    /// The original bytes of the line or record (no line terminator).
    pub original: Vec<u8>,
}

/// Stream kinds (beside the core's `ErrorKind` codes).
pub mod kind {
    /// The line is not valid UTF-8 and no `--input-encoding` was given.
    pub const INVALID_UTF8: &str = "invalid-utf8";
    /// A JSON Lines record that is not a JSON object.
    pub const INVALID_JSON: &str = "invalid-json";
    /// The `--field` is absent from a JSON record.
    pub const MISSING_FIELD: &str = "missing-field";
    /// The `--field` of a JSON record is not a string.
    pub const NOT_A_STRING: &str = "not-a-string";
    /// The unit (line, record, argument) is longer than `--max-len`: the
    /// core's `ErrorKind::TooLong` code, found before the op runs.
    pub const TOO_LONG: &str = "too-long";
    /// A JSON Lines record names one member twice (RFC 8259 §4).
    pub const DUPLICATE_KEY: &str = "duplicate-key";
    /// The `--column` is absent from a CSV/TSV record.
    pub const MISSING_COLUMN: &str = "missing-column";
}
