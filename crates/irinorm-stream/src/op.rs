//! The per-identifier operation ([`Op`]) that the engine runs on every
//! line or record, and the JSON Lines object writer ([`JsonObject`]).

use crate::failure::Failure;

/// Output format of line input: `text` (one result a line) or `jsonl`
/// (one JSON object per input line, in input order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One result a line; what a line holds is the op's choice.
    #[default]
    Text,
    /// One JSON object per input line: `"input"`, the op's fields, `"error"`.
    Jsonl,
}

/// One operation on one identifier: a parse, a check, a resolution, a
/// mapping, a normalization... The engine calls it from several threads at
/// once, on every line (or on the selected field of every record), and
/// reuses the buffers it passes: an op that writes only into them does not
/// allocate on the hot path.
///
/// Only [`Op::apply`] is required. It gives the op's *value* for an
/// identifier, which is what text output prints (one a line), what replaces
/// or is added to the field in record modes (`--column`, `--field`), and
/// the key when the op is a dedupe key. The other methods have defaults
/// built on it and exist for ops whose output is richer than one value
/// (`parse` prints components, `check` prints a verdict).
///
/// Returning `Err` rejects the input: the engine counts it, reports it
/// (line, offset, kind, reason) and, with `--strict`, stops.
pub trait Op: Sync {
    /// Appends the value for `input` to `out` (which the engine cleared).
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure>;

    /// Text output for one input line: by default the value and `\n`, and
    /// nothing for a rejected input. `scratch` is a reusable buffer.
    /// Whatever is appended to `out` is written, even when the result is
    /// `Err` (an op may print a line for a rejected input).
    fn write_text(
        &self,
        input: &str,
        scratch: &mut String,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        scratch.clear();
        self.apply(input, scratch)?;
        out.extend_from_slice(scratch.as_bytes());
        out.push(b'\n');
        Ok(())
    }

    /// Text output for an input rejected before it reached the op (not
    /// UTF-8, not decodable): nothing by default.
    fn write_text_unavailable(&self, _failure: &Failure, _out: &mut Vec<u8>) {}

    /// Whether text output is exactly what the defaults write: the value
    /// and `\n` for an accepted input, nothing for a rejected one (neither
    /// [`Op::write_text`] nor [`Op::write_text_unavailable`] overridden).
    /// The engine then has [`Op::apply`] append the value straight into
    /// the chunk's output, without the copy through a scratch buffer (issue
    /// 14: the bulk `normalize` path). `false` by default: an op that
    /// overrides either method must leave it so.
    fn text_is_value(&self) -> bool {
        false
    }

    /// Whether [`Op::apply`] appends its value to an `out` that is not
    /// empty, leaving what was there: the engine then has it write a dedupe
    /// key straight into the chunk's batch of keys, without the copy
    /// through a scratch buffer (issue 14: the bulk `dedupe` path). `false`
    /// by default.
    fn appends(&self) -> bool {
        false
    }

    /// The JSON fields of one input besides `"input"` and `"error"` (which
    /// the engine writes): by default `"output"`, the value or null.
    fn write_json(
        &self,
        input: &str,
        scratch: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        scratch.clear();
        match self.apply(input, scratch) {
            Ok(()) => {
                obj.str("output", scratch);
                Ok(())
            }
            Err(f) => {
                obj.null("output");
                Err(f)
            }
        }
    }

    /// The op's JSON fields for an input rejected before it reached the op:
    /// by default `"output": null`.
    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        obj.null("output");
    }

    /// Record modes (`--column`, `--field`): the value written in place of
    /// an identifier the op rejected, so that output records stay aligned
    /// with input records (`--on-reject empty|keep`). `None`, the default,
    /// drops the record. The input is rejected and reported either way.
    fn reject_value(&self, _input: &str) -> Option<String> {
        None
    }
}

/// Writes one JSON object on one line, field by field, escaping strings
/// with serde_json.
#[derive(Debug)]
pub struct JsonObject<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> JsonObject<'a> {
    /// Starts an object (`{`).
    pub fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        JsonObject { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        push_json_str(self.out, k);
        self.out.push(b':');
    }

    /// `"k": "v"`.
    pub fn str(&mut self, k: &str, v: &str) {
        self.key(k);
        push_json_str(self.out, v);
    }

    /// `"k": "v"` or `"k": null`.
    pub fn opt_str(&mut self, k: &str, v: Option<&str>) {
        match v {
            Some(v) => self.str(k, v),
            None => self.null(k),
        }
    }

    /// `"k": null`.
    pub fn null(&mut self, k: &str) {
        self.key(k);
        self.out.extend_from_slice(b"null");
    }

    /// `"k": true|false`.
    pub fn bool(&mut self, k: &str, v: bool) {
        self.key(k);
        self.out
            .extend_from_slice(if v { b"true" as &[u8] } else { b"false" });
    }

    /// `"k": n`.
    pub fn u64(&mut self, k: &str, v: u64) {
        self.key(k);
        self.out.extend_from_slice(v.to_string().as_bytes());
    }

    /// `"k": [..strings..]`.
    pub fn str_array<'s>(&mut self, k: &str, items: impl IntoIterator<Item = &'s str>) {
        self.key(k);
        self.out.push(b'[');
        for (i, s) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            push_json_str(self.out, s);
        }
        self.out.push(b']');
    }

    /// `"k": <value>` for any serializable value (nested objects keep
    /// their fields in declaration order).
    pub fn value<T: serde::Serialize + ?Sized>(&mut self, k: &str, v: &T) {
        self.key(k);
        // Writing JSON into a Vec<u8> cannot fail.
        let _ = serde_json::to_writer(&mut *self.out, v);
    }

    /// `"error": null` or `"error": {"kind", "offset", "message"}`.
    pub fn error(&mut self, e: Option<&Failure>) {
        match e {
            None => self.null("error"),
            Some(f) => {
                self.key("error");
                let mut o = JsonObject::begin(self.out);
                o.str("kind", f.kind);
                o.u64("offset", f.offset as u64);
                o.str("message", &f.message);
                o.out.push(b'}');
            }
        }
    }

    /// Ends the object and the line (`}\n`).
    pub fn end(self) {
        self.out.extend_from_slice(b"}\n");
    }
}

/// Appends `s` as a JSON string (quotes and escapes as serde_json writes them).
pub fn push_json_str(out: &mut Vec<u8>, s: &str) {
    // Writing a &str into a Vec<u8> cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object() {
        let mut v = Vec::new();
        let mut o = JsonObject::begin(&mut v);
        o.str("input", "a\"b\\c\n\u{1}é");
        o.opt_str("x", None);
        o.bool("valid", false);
        o.error(Some(&Failure::new("invalid-char", 3, "bad")));
        o.end();
        let s = String::from_utf8(v).unwrap();
        assert!(s.ends_with('\n'));
        let val: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(val["input"], "a\"b\\c\n\u{1}é");
        assert!(val["x"].is_null());
        assert_eq!(val["error"]["offset"], 3);
        assert_eq!(val["error"]["kind"], "invalid-char");
    }
}
