//! # irinorm-lint
//!
//! The security rules of RFC 3986 §7, RFC 3987 §4 and §8 (and §7 of the
//! 2003 IRI draft) as a linter: [`lint`] returns the parse outcome and a
//! list of [`Finding`]s, each with a stable kebab-case code, a severity, the
//! component, and a byte offset and length into the input.
//!
//! ```
//! use irinorm_lint::{lint, Code, LintOptions};
//!
//! let r = lint("http://p\u{430}ypal.com/", &LintOptions::default());
//! let f = r.with_code(Code::Confusable).next().unwrap();
//! // UTS #39 skeletons also map ASCII ("m" to "rn"); "looks like" does not.
//! assert_eq!(
//!     f.detail.as_deref(),
//!     Some("skeleton: paypal.corn; looks like: paypal.com")
//! );
//! assert_eq!((f.offset, f.len), (7, 7));
//! ```
//!
//! Every code is listed in [`Code`] and described, with its specification
//! section and an example, in `docs/lint.md`; the limits are in
//! `docs/limits.md`.
//!
//! ## Cost
//!
//! Every check is linear in the input length, and the input is refused
//! (one `input-too-long` finding, no other work) past
//! [`LintOptions::max_input_len`]. Hosts are measured against the DNS
//! limits before any UTS #46 work, and a host that would need UTS #46 and
//! is longer than [`irinorm::idn::MAX_IDN_HOST_BYTES`] is never mapped.
//!
//! ## Inputs that do not parse
//!
//! The components are then found with the regular expression of RFC 3986
//! Appendix B (which splits any string), and every check still runs on
//! them: a bidi formatting character is reported whether or not the rest
//! is valid. The `parse-error` finding carries the parser's error.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod authority;
mod codes;
mod host;
mod report;
mod scan;
mod split;
mod text;
mod units;

pub use codes::{CheckSet, Code, Severity};
pub use host::{MAX_DNS_LABEL, MAX_DNS_NAME};
pub use report::{Finding, Part, Report, SyntaxError};

use irinorm::idn::IdnaProfile;
use irinorm::{parse, Grammar};

use report::Sink;
use split::Parts;

/// Default of [`LintOptions::max_input_len`]: 64 KiB. Eight times the
/// 8000 octets that RFC 9110 §4.1 asks every HTTP implementation to
/// support, and more than any browser sends in a request line; long
/// enough for every URL of the project's corpora, short enough that the
/// linear worst case stays in milliseconds.
pub const DEFAULT_MAX_INPUT_LEN: usize = 64 * 1024;

/// Default of [`LintOptions::max_findings`].
pub const DEFAULT_MAX_FINDINGS: usize = 1000;

/// What [`lint`] checks and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintOptions {
    /// Inputs longer than this (in bytes) get one `input-too-long` finding
    /// and no other work. Default [`DEFAULT_MAX_INPUT_LEN`].
    pub max_input_len: usize,
    /// At most this many findings are kept (then one `findings-truncated`).
    /// Default [`DEFAULT_MAX_FINDINGS`].
    pub max_findings: usize,
    /// The grammar the input must match. Default `IRI-reference`.
    pub grammar: Grammar,
    /// Findings below this severity are not reported. Default `info`.
    pub min_severity: Severity,
    /// Which codes are reported. Default: all.
    pub checks: CheckSet,
    /// UTS #46 flags for the `idna-*` checks. Default: irinorm's
    /// (non-transitional, CheckHyphens off, the URL deny list).
    pub idna_profile: IdnaProfile,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            max_input_len: DEFAULT_MAX_INPUT_LEN,
            max_findings: DEFAULT_MAX_FINDINGS,
            grammar: Grammar::IriReference,
            min_severity: Severity::Info,
            checks: CheckSet::all(),
            idna_profile: IdnaProfile::default(),
        }
    }
}

/// Lints one URI or IRI (reference). Never panics; linear in the input.
pub fn lint(input: &str, opts: &LintOptions) -> Report {
    let mut sink = Sink::new(opts, input.len());
    if input.len() > opts.max_input_len {
        let code = Code::InputTooLong;
        return Report {
            input_len: input.len(),
            grammar: opts.grammar.name(),
            valid: None,
            parse_error: None,
            findings: vec![Finding {
                code: code.as_str(),
                severity: code.severity(),
                component: Part::Input,
                offset: 0,
                len: input.len(),
                message: format!(
                    "input of {} bytes is longer than the maximum of {} bytes; not examined",
                    input.len(),
                    opts.max_input_len
                ),
                detail: Some(opts.max_input_len.to_string()),
            }],
            meta: None,
            error: None,
        };
    }
    let parsed = parse(input, opts.grammar);
    let parts = match &parsed {
        Ok(m) => Parts::from_meta(input, m),
        Err(_) => Parts::lenient(input),
    };
    let parse_error = parsed.as_ref().err().map(|e| {
        let offset = e.offset().min(input.len());
        let len = input[offset..].chars().next().map_or(0, char::len_utf8);
        let part = e.component().map_or(Part::Input, Part::from);
        sink.push(
            Code::ParseError,
            part,
            offset,
            len,
            format!("not a valid {}: {e}", opts.grammar),
            Some(e.kind().code().to_owned()),
        );
        SyntaxError {
            kind: e.kind().code(),
            offset,
            component: e.component().map(Part::from),
            message: e.to_string(),
        }
    });

    scan::literal_chars(input, &parts, &mut sink);
    scan::triplets(input, &parts, &mut sink);
    scan::dot_segments(input, &parts, &mut sink);
    scan::backslashes(input, &parts, &mut sink);
    authority::userinfo(input, &parts, &mut sink);
    authority::port(input, &parts, &mut sink);
    host::check_host(input, &parts, opts, &mut sink);
    units::check_components(input, &parts, &mut sink);

    Report {
        input_len: input.len(),
        grammar: opts.grammar.name(),
        valid: Some(parsed.is_ok()),
        parse_error,
        findings: sink.finish(),
        meta: parsed.ok(),
        error: parsed.err(),
    }
}
