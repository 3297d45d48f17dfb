//! `data` (RFC 2397 §2): `data:[<mediatype>][;base64],<data>`. The media
//! type's type, subtype and parameter names are case-insensitive (RFC 2045
//! §5.1), as is the value of `charset` (RFC 2046 §4.1.2) and the `base64`
//! token; the data itself is never touched.

use super::{lower_outside_triplets, rule_path};

/// Rung 2 for a normalized `data` reference; `None` when nothing changes,
/// when there is no `,`, or when what precedes the first `;` is neither
/// empty nor one `type/subtype` (not a data URL: nothing is guessed).
pub(crate) fn normalize(s: &str) -> Option<String> {
    let (_, path) = rule_path(s)?;
    let comma = path.find(',')?;
    let meta = &path[..comma];
    if !media_type(meta.split(';').next().unwrap_or("")) {
        return None;
    }
    let mut new_meta = String::with_capacity(meta.len());
    for (k, part) in meta.split(';').enumerate() {
        if k > 0 {
            new_meta.push(';');
        }
        if k == 0 {
            new_meta.push_str(&lower_outside_triplets(part));
            continue;
        }
        match part.find('=') {
            Some(e) => {
                let name = lower_outside_triplets(&part[..e]);
                let value = &part[e + 1..];
                let value = if name == "charset" {
                    lower_outside_triplets(value)
                } else {
                    value.to_owned()
                };
                new_meta.push_str(&name);
                new_meta.push('=');
                new_meta.push_str(&value);
            }
            None if part.eq_ignore_ascii_case("base64") => new_meta.push_str("base64"),
            None => new_meta.push_str(part),
        }
    }
    if new_meta == meta {
        return None;
    }
    let p = path.as_ptr() as usize - s.as_ptr() as usize;
    Some(format!("{}{}{}", &s[..p], new_meta, &s[p + comma..]))
}

/// RFC 2397 §3 `mediatype := [ type "/" subtype ] *( ";" parameter )`,
/// `type` and `subtype` RFC 2045 §5.1 tokens (never empty, never holding
/// `/`). A path that starts with `/` therefore holds no media type: it is
/// a `path-absolute` (RFC 3986 §3.3), and resolution (§5.2.3) merges
/// against its segments, so lower-casing them would break invariant 4
/// (`data:/Text/PLAIN;a,x` with `.a` resolves to `data:/Text/.a`, which is
/// no data URL and keeps its case).
fn media_type(t: &str) -> bool {
    t.is_empty()
        || t.split_once('/')
            .is_some_and(|(ty, sub)| !ty.is_empty() && !sub.is_empty() && !sub.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_type_case() {
        assert_eq!(
            normalize("data:Text/HTML;Charset=UTF-8;BASE64,PGI+").as_deref(),
            Some("data:text/html;charset=utf-8;base64,PGI+")
        );
        assert_eq!(
            normalize("data:text/plain;Name=AbC,Hello").as_deref(),
            Some("data:text/plain;name=AbC,Hello")
        );
        assert_eq!(normalize("data:,Hello%2C%20World"), None);
        assert_eq!(normalize("data:text/plain,ABC"), None);
        assert_eq!(normalize("data:nocomma"), None);
        assert_eq!(
            normalize("data:;Charset=UTF-8,x").as_deref(),
            Some("data:;charset=utf-8,x")
        );
    }

    #[test]
    fn a_path_that_holds_no_media_type_is_left_alone() {
        // A rooted path (empty type) and three segments: not RFC 2397's
        // `type/subtype`. The first broke invariant 4 (prop_ladder's
        // `resolution_commutes`, B = `data:/Text/PLAIN;Charset=UTF-8;
        // BASE64,é`, R = `.a`).
        assert_eq!(normalize("data:/Text/PLAIN;Charset=UTF-8;BASE64,x"), None);
        assert_eq!(normalize("data:Text/Plain/X;BASE64,x"), None);
        assert_eq!(normalize("data:Text;BASE64,x"), None);
        assert_eq!(normalize("data:Text/;BASE64,x"), None);
    }

    /// Round 8: resolution removes the dot segments of a reference with a
    /// scheme (RFC 3986 §5.2.2), rung 1 keeps them (opaque path). B =
    /// `mailto:/`, R = `data:./a@B.COM,` resolves to `data:a@B.COM,` (no
    /// media type), while `./a@B.COM` read as type `.`, subtype
    /// `a@B.COM` and was lower-cased (prop_ladder's
    /// `resolution_commutes_for_scheme_rules`). And the removal can turn
    /// a media type into none: `A/B;charset=Q/../X/Y` becomes `A/X/Y`.
    #[test]
    fn paths_with_dot_segments_are_left_alone() {
        assert_eq!(normalize("data:./a@B.COM,"), None);
        assert_eq!(normalize("data:A/B;charset=Q/../X/Y,z"), None);
        assert_eq!(normalize("data:A/B;charset=Q/./X,z"), None);
        // Dots that are no segment of their own are data.
        assert_eq!(
            normalize("data:A/B;Name=..,x..").as_deref(),
            Some("data:a/b;name=..,x..")
        );
    }
}
