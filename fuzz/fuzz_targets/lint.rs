//! `irinorm_lint::lint` on any input: never panics, and every report keeps
//! its promises:
//!
//! - every finding lies inside the input (`offset + len <= input.len()`),
//!   on character boundaries, with the severity its code has;
//! - findings are ordered by offset (`findings-truncated` last), and there
//!   are at most `max_findings` of them plus that one;
//! - `valid` agrees with `irinorm::parse` under the same grammar, and a
//!   `parse-error` finding is there exactly when the input is invalid;
//! - an input over `max_input_len` gets exactly one `input-too-long`;
//! - `min_severity` and `checks` only ever remove findings.
//!
//! The first byte picks the options (grammar, a small maximum length or
//! findings cap), the rest is the input.
#![no_main]

use irinorm::{parse, Grammar};
use irinorm_lint::{lint, CheckSet, Code, LintOptions, Report, Severity};
use libfuzzer_sys::fuzz_target;

fn check(s: &str, opts: &LintOptions, r: &Report) {
    assert_eq!(r.input_len, s.len());
    let mut last = 0;
    let mut truncated = false;
    for f in &r.findings {
        assert!(
            f.offset <= s.len() && f.len <= s.len() - f.offset,
            "{s:?}: {f} outside the input"
        );
        assert!(s.is_char_boundary(f.offset) && s.is_char_boundary(f.offset + f.len));
        let code = Code::from_name(f.code).expect("a known code");
        assert_eq!(f.severity, code.severity());
        assert!(f.severity >= opts.min_severity || code == Code::FindingsTruncated);
        if code == Code::FindingsTruncated {
            assert!(!truncated, "one findings-truncated");
            truncated = true;
        } else {
            assert!(!truncated, "findings-truncated comes last");
            assert!(f.offset >= last, "ordered by offset");
            last = f.offset;
        }
    }
    assert!(r.findings.len() <= opts.max_findings + 1);
    if s.len() > opts.max_input_len {
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.findings[0].code, "input-too-long");
        assert_eq!(r.valid, None);
        return;
    }
    let valid = parse(s, opts.grammar).is_ok();
    assert_eq!(r.valid, Some(valid));
    assert_eq!(r.parse_error.is_some(), !valid);
    if opts.checks.contains(Code::ParseError) && !truncated && !valid {
        assert!(r.has(Code::ParseError), "{s:?}");
    }
    if valid {
        assert!(!r.has(Code::ParseError));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(s) = std::str::from_utf8(rest) else {
        return;
    };
    let mut opts = LintOptions {
        grammar: Grammar::ALL[usize::from(sel & 7)],
        ..LintOptions::default()
    };
    if sel & 0x08 != 0 {
        opts.max_input_len = usize::from(sel >> 4) * 4;
    }
    if sel & 0x10 != 0 {
        opts.max_findings = usize::from(sel >> 5);
    }
    let full = lint(s, &opts);
    check(s, &opts, &full);

    // Filters only remove findings.
    let errors = LintOptions {
        min_severity: Severity::Error,
        ..opts.clone()
    };
    let r = lint(s, &errors);
    check(s, &errors, &r);
    if !full.has(Code::FindingsTruncated) {
        for f in &r.findings {
            assert!(full.findings.contains(f), "{s:?}: {f} only with a filter");
        }
    }
    let some = LintOptions {
        checks: CheckSet::all()
            .without(Code::Confusable)
            .without(Code::MixedScript)
            .without(Code::UserinfoPresent),
        ..opts.clone()
    };
    let r = lint(s, &some);
    check(s, &some, &r);
    assert!(!r.has(Code::Confusable) && !r.has(Code::MixedScript));
});
