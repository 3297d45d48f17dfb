//! `tel` (RFC 3966 §4, "URI Comparisons"): two tel URIs are equivalent
//! when both are global (`+`) or both local, their digits are equal after
//! removing visual separators (`-` `.` `(` `)`), and their parameters are
//! equal compared by name regardless of order; comparisons are
//! case-insensitive. The canonical text follows §3's order: `ext` and
//! `isub` first, then `phone-context`, then the other parameters in
//! lexicographical order; names and values in lower case (§3: "All
//! parameter names and values SHOULD use lower-case characters").

use super::{dot_segments, lower_outside_triplets, rule_path};

fn is_separator(c: u8) -> bool {
    matches!(c, b'-' | b'.' | b'(' | b')')
}

/// Removes visual separators (never inside a triplet: `%2E` is not `.`
/// here because rung 1 already decoded unreserved triplets). Character by
/// character: in `iri` form a value may hold non-ASCII text, whose UTF-8
/// bytes must not be turned into characters one by one.
fn strip_separators(s: &str) -> String {
    s.chars()
        .filter(|&c| !(c.is_ascii() && is_separator(c as u8)))
        .collect()
}

/// `global-number-digits` or `local-number-digits` (RFC 3966 §3), with
/// `#` percent-encoded as `%23`.
fn valid_number(n: &str) -> bool {
    let body = n.strip_prefix('+').unwrap_or(n);
    let b = body.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_hexdigit() || c == b'*' => digits += 1,
            c if is_separator(c) => {}
            b'%' if body[i..].starts_with("%23") => {
                digits += 1;
                i += 2;
            }
            _ => return false,
        }
        i += 1;
    }
    // A global number has decimal digits only.
    digits > 0
        && (!n.starts_with('+') || body.bytes().all(|c| c.is_ascii_digit() || is_separator(c)))
}

fn rank(name: &str) -> u8 {
    match name {
        "ext" | "isub" => 0,
        "phone-context" => 1,
        _ => 2,
    }
}

/// Rung 2 for a normalized `tel` reference; `None` when nothing changes
/// or when the path is not a telephone-subscriber (nothing is guessed).
pub(crate) fn normalize(s: &str) -> Option<String> {
    let (_, path) = rule_path(s)?;
    let mut parts = path.split(';');
    let number = parts.next()?;
    if !valid_number(number) {
        return None;
    }
    let mut params: Vec<(String, Option<String>)> = Vec::new();
    for p in parts {
        let (name, value) = match p.find('=') {
            Some(e) => (&p[..e], Some(&p[e + 1..])),
            None => (p, None),
        };
        if name.is_empty() {
            return None;
        }
        let name = lower_outside_triplets(name);
        let value = value.map(|v| {
            let v = lower_outside_triplets(v);
            // Numbers in ext and in a global phone-context compare digit by
            // digit, without visual separators (§4).
            if name == "ext" || (name == "phone-context" && v.starts_with('+')) {
                strip_separators(&v)
            } else {
                v
            }
        });
        params.push((name, value));
    }
    params.sort_by(|a, b| rank(&a.0).cmp(&rank(&b.0)).then_with(|| a.0.cmp(&b.0)));
    let mut new_path = lower_outside_triplets(&strip_separators(number));
    for (name, value) in &params {
        new_path.push(';');
        new_path.push_str(name);
        if let Some(v) = value {
            new_path.push('=');
            new_path.push_str(v);
        }
    }
    // RFC 3966 allows `/` in parameter values (§3 `param-unreserved`,
    // `uric`), so a tel path may hold `.` and `..` segments. Resolution
    // removes them (RFC 3986 §5.2.2 applies §5.2.4 to the path of a
    // reference with a scheme), while rung 1 keeps an opaque path as it
    // is; stripping the `.` of `..` (a visual separator) or sorting a
    // `/.` parameter to the end would remove or create such a segment,
    // and N(resolve(B, R)) would differ from N(resolve(N(B), N(R)))
    // (invariant 4). A path with dot segments, or one the rewrite would
    // give them, is left as it is (the first by [`rule_path`]).
    if new_path == path || dot_segments(&new_path) {
        return None;
    }
    let p = path.as_ptr() as usize - s.as_ptr() as usize;
    Some(format!("{}{}{}", &s[..p], new_path, &s[p + path.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3966_comparison() {
        // §6 examples, compared per §4.
        assert_eq!(
            normalize("tel:+1-201-555-0123").as_deref(),
            Some("tel:+12015550123")
        );
        assert_eq!(normalize("tel:+12015550123"), None);
        assert_eq!(
            normalize("tel:7042;phone-context=example.com").as_deref(),
            None
        );
        assert_eq!(
            normalize("tel:863-1234;phone-context=+1-914-555").as_deref(),
            Some("tel:8631234;phone-context=+1914555")
        );
        assert_eq!(
            normalize("tel:+1(800)555-1212;Foo=Bar;ext=1-2;phone-context=Example.COM").as_deref(),
            Some("tel:+18005551212;ext=12;phone-context=example.com;foo=bar")
        );
        assert_eq!(normalize("tel:*%23ab"), None);
        assert_eq!(normalize("tel:*%23AB").as_deref(), Some("tel:*%23ab"));
    }

    #[test]
    fn non_ascii_values_survive() {
        // iri form: rung 1 leaves `ß` literal; only `-` `.` `(` `)` go.
        assert_eq!(
            normalize("tel:+1;ext=1-ß-").as_deref(),
            Some("tel:+1;ext=1ß")
        );
        assert_eq!(
            normalize("tel:+1;phone-context=+1-é.2").as_deref(),
            Some("tel:+1;phone-context=+1é2")
        );
        assert_eq!(normalize("tel:+1;ext=ß"), None);
    }

    /// prop_ladder's `resolution_commutes` (round 8, 60,000 cases):
    /// with B = `http:/`, R = `tel:+1-201;Ext=1-ß/..` resolves to `tel:/`
    /// (RFC 3986 §5.2.2 removes R's dot segments), while the rule turned
    /// R's `..` into an empty segment (`ext=1ß/`), which resolution then
    /// kept. Sorting parameters can likewise create a `.` segment.
    #[test]
    fn paths_with_dot_segments_are_left_alone() {
        assert_eq!(normalize("tel:+1-201;Ext=1-ß/.."), None);
        assert_eq!(normalize("tel:+1-2;a=/./x"), None);
        // `;b=/.` sorted last would end the path with a `.` segment.
        assert_eq!(normalize("tel:+1;b=/.;a=c"), None);
        // A `/` alone is no reason to leave the path.
        assert_eq!(
            normalize("tel:+1-2;isub=A/B").as_deref(),
            Some("tel:+12;isub=a/b")
        );
    }

    #[test]
    fn not_a_number_is_left_alone() {
        assert_eq!(normalize("tel:call-me"), None);
        assert_eq!(normalize("tel:+1-ABC"), None);
        assert_eq!(normalize("tel:"), None);
    }
}
