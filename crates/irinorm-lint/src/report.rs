//! What [`crate::lint`] returns: the parse outcome and the findings, each
//! serializable to JSON (one object per finding for JSON Lines).

use core::fmt;

use irinorm::{Meta, ParseError};
use serde::Serialize;

use crate::codes::{Code, Severity};
use crate::LintOptions;

/// The component a finding is in. `input` means the whole input (or no
/// single component).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// The whole input.
    Input,
    /// `scheme`.
    Scheme,
    /// `authority`, where userinfo and host are not told apart.
    Authority,
    /// `userinfo`.
    Userinfo,
    /// `host`.
    Host,
    /// `port`.
    Port,
    /// `path`.
    Path,
    /// `query`.
    Query,
    /// `fragment`.
    Fragment,
}

impl Part {
    /// Lower-case name, as in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Part::Input => "input",
            Part::Scheme => "scheme",
            Part::Authority => "authority",
            Part::Userinfo => "userinfo",
            Part::Host => "host",
            Part::Port => "port",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }
}

impl From<irinorm::Component> for Part {
    fn from(c: irinorm::Component) -> Self {
        use irinorm::Component as C;
        match c {
            C::Scheme => Part::Scheme,
            C::Authority => Part::Authority,
            C::Userinfo => Part::Userinfo,
            C::Host => Part::Host,
            C::Port => Part::Port,
            C::Path => Part::Path,
            C::Query => Part::Query,
            C::Fragment => Part::Fragment,
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding. `offset` and `len` are bytes of the input, always on
/// character boundaries, with `offset + len <= input.len()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable kebab-case code (see [`Code`] and `docs/lint.md`).
    pub code: &'static str,
    /// Fixed per code.
    pub severity: Severity,
    /// Where.
    pub component: Part,
    /// Byte offset into the input.
    pub offset: usize,
    /// Length in bytes (0 for a position between characters).
    pub len: usize,
    /// For people.
    pub message: String,
    /// Machine-readable context: the confusable skeleton, the scripts, the
    /// IPv4 address a rare form denotes... Never the text of a password.
    pub detail: Option<String>,
}

impl Finding {
    /// The code as an enum.
    pub fn code(&self) -> Code {
        // Every finding is built from a `Code`, so the lookup succeeds.
        Code::from_name(self.code).unwrap_or(Code::ParseError)
    }

    /// The input text the finding points at.
    pub fn text<'a>(&self, input: &'a str) -> &'a str {
        input
            .get(self.offset..self.offset + self.len)
            .unwrap_or_default()
    }
}

impl fmt::Display for Finding {
    /// `severity[code] component@offset+len: message (detail)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}] {}@{}+{}: {}",
            self.severity, self.code, self.component, self.offset, self.len, self.message
        )?;
        if let Some(d) = &self.detail {
            write!(f, " ({d})")?;
        }
        Ok(())
    }
}

/// The parse error of the input, in serializable form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    /// `irinorm::ErrorKind::code()` (`invalid-char`, `bad-port`...).
    pub kind: &'static str,
    /// Byte offset of the first invalid byte.
    pub offset: usize,
    /// Component being parsed there.
    pub component: Option<Part>,
    /// For people.
    pub message: String,
}

/// The result of [`crate::lint`].
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Length of the input in bytes.
    pub input_len: usize,
    /// Grammar the input was parsed with (`IRI-reference` by default).
    pub grammar: &'static str,
    /// Whether the input matches the grammar; `None` when it was not parsed
    /// (longer than the maximum).
    pub valid: Option<bool>,
    /// The parse error, when invalid.
    pub parse_error: Option<SyntaxError>,
    /// The findings, ordered by offset.
    pub findings: Vec<Finding>,
    /// The parser's component offsets, when valid.
    #[serde(skip)]
    pub meta: Option<Meta>,
    /// The parse error as the core crate's type, when invalid.
    #[serde(skip)]
    pub error: Option<ParseError>,
}

impl Report {
    /// The highest severity among the findings.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.max_severity() == Some(Severity::Error)
    }

    /// Whether some finding has this code.
    pub fn has(&self, code: Code) -> bool {
        self.findings.iter().any(|f| f.code == code.as_str())
    }

    /// The findings with this code.
    pub fn with_code(&self, code: Code) -> impl Iterator<Item = &Finding> + '_ {
        self.findings
            .iter()
            .filter(move |f| f.code == code.as_str())
    }
}

/// Collects findings: applies the enabled set, the severity floor and the
/// cap, and keeps every span inside the input.
pub(crate) struct Sink<'o> {
    pub(crate) findings: Vec<Finding>,
    opts: &'o LintOptions,
    input_len: usize,
    dropped: usize,
}

impl<'o> Sink<'o> {
    pub(crate) fn new(opts: &'o LintOptions, input_len: usize) -> Self {
        Sink {
            findings: Vec::new(),
            opts,
            input_len,
            dropped: 0,
        }
    }

    /// Whether findings with `code` are wanted at all (lets a check skip
    /// work nobody will see).
    pub(crate) fn wants(&self, code: Code) -> bool {
        self.opts.checks.contains(code) && code.severity() >= self.opts.min_severity
    }

    pub(crate) fn wants_any(&self, codes: &[Code]) -> bool {
        codes.iter().any(|&c| self.wants(c))
    }

    pub(crate) fn push(
        &mut self,
        code: Code,
        component: Part,
        offset: usize,
        len: usize,
        message: String,
        detail: Option<String>,
    ) {
        if !self.wants(code) {
            return;
        }
        if self.findings.len() >= self.opts.max_findings {
            self.dropped += 1;
            return;
        }
        debug_assert!(
            offset <= self.input_len && len <= self.input_len - offset,
            "{code}: {offset}+{len} outside {}",
            self.input_len
        );
        let offset = offset.min(self.input_len);
        let len = len.min(self.input_len - offset);
        self.findings.push(Finding {
            code: code.as_str(),
            severity: code.severity(),
            component,
            offset,
            len,
            message,
            detail: detail.map(|d| truncate(&d, MAX_DETAIL)),
        });
    }

    pub(crate) fn finish(mut self) -> Vec<Finding> {
        self.findings.sort_by_key(|f| f.offset);
        if self.dropped > 0 {
            let code = Code::FindingsTruncated;
            self.findings.push(Finding {
                code: code.as_str(),
                severity: code.severity(),
                component: Part::Input,
                offset: 0,
                len: 0,
                message: format!(
                    "{} more findings dropped (maximum {})",
                    self.dropped, self.opts.max_findings
                ),
                detail: Some(self.dropped.to_string()),
            });
        }
        self.findings
    }
}

/// Details are cut to this many bytes (at a character boundary) so that a
/// report stays readable and its size proportional to the findings.
pub(crate) const MAX_DETAIL: usize = 256;

/// `s` cut to at most `max` bytes at a character boundary, with `…` when cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
