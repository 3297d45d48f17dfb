//! `data` (RFC 2397 §2): `data:[<mediatype>][;base64],<data>`. The media
//! type's type, subtype and parameter names are case-insensitive (RFC 2045
//! §5.1), as is the value of `charset` (RFC 2046 §4.1.2) and the `base64`
//! token; the data itself is never touched.

use super::lower_outside_triplets;
use crate::parse::split_trusted;

/// Rung 2 for a normalized `data` reference; `None` when nothing changes
/// or when there is no `,` (not a data URL: nothing is guessed).
pub(crate) fn normalize(s: &str) -> Option<String> {
    let m = split_trusted(s);
    if m.authority(s).is_some() {
        return None;
    }
    let path = m.path(s);
    let comma = path.find(',')?;
    let meta = &path[..comma];
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
    }
}
