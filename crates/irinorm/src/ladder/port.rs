//! Port rules of rung 2 (RFC 3986 §6.2.3: "Normalization should not remove
//! delimiters when their associated component is empty unless licensed to
//! do so by the scheme specification... the port component ... should be
//! omitted if it is empty or equal to the default port"; LADDER.md adds
//! canonical digits for every scheme).

use crate::error::Component;
use crate::norm::trace::{note, Rule, Trace};

/// Appends `:port` in canonical form, or nothing when the port is empty or
/// the scheme's default. `port` is the digits as parsed (`*DIGIT`, RFC 3986
/// §3.2.3), found at byte `offset` of the input.
#[inline]
pub(crate) fn write_port<T: Trace>(
    out: &mut String,
    port: &str,
    default: Option<u16>,
    offset: usize,
    t: &mut T,
) {
    if port.is_empty() {
        // (all) `http://a:/` -> `http://a/`
        note(
            t,
            Rule::RemoveEmptyPort,
            Some(Component::Port),
            Some(offset),
            ":",
            "",
        );
        return;
    }
    // (all) `:0080` -> `:80`; all zeros is `0`.
    let trimmed = port.trim_start_matches('0');
    let digits = if trimmed.is_empty() { "0" } else { trimmed };
    if digits.len() != port.len() {
        note(
            t,
            Rule::PortDigits,
            Some(Component::Port),
            Some(offset),
            port,
            digits,
        );
    }
    if let Some(d) = default {
        if digits.len() <= 5 && digits.parse::<u32>() == Ok(u32::from(d)) {
            note(
                t,
                Rule::RemoveDefaultPort,
                Some(Component::Port),
                Some(offset),
                digits,
                "",
            );
            return;
        }
    }
    out.push(':');
    out.push_str(digits);
}

/// Whether rung 2 would leave this port exactly as it is.
#[inline]
pub(crate) fn is_normal(port: &str, default: Option<u16>) -> bool {
    let b = port.as_bytes();
    if b.is_empty() || (b[0] == b'0' && b.len() > 1) {
        return false;
    }
    match default {
        Some(d) => !(b.len() <= 5 && port.parse::<u32>() == Ok(u32::from(d))),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::trace::NoTrace;

    fn p(port: &str, default: Option<u16>) -> String {
        let mut out = String::new();
        write_port(&mut out, port, default, 0, &mut NoTrace);
        assert_eq!(
            is_normal(port, default),
            out == format!(":{port}"),
            "{port}"
        );
        out
    }

    #[test]
    fn rules() {
        assert_eq!(p("", Some(80)), "");
        assert_eq!(p("", None), "");
        assert_eq!(p("80", Some(80)), "");
        assert_eq!(p("0080", Some(80)), "");
        assert_eq!(p("0080", None), ":80");
        assert_eq!(p("8080", Some(80)), ":8080");
        assert_eq!(p("000", None), ":0");
        assert_eq!(p("0", Some(80)), ":0");
        assert_eq!(p("99999999999999999999", Some(80)), ":99999999999999999999");
        assert_eq!(p("00000000000000000443", Some(443)), "");
    }
}
