//! Reference resolution: the strict algorithm of RFC 3986 §5.2.2, `merge`
//! (§5.2.3), `remove_dot_segments` (§5.2.4) and recomposition (§5.3). IRIs
//! resolve with the same algorithm (RFC 3987 §6.5): every delimiter is ASCII.

use crate::error::ParseError;
use crate::parse::{self, Grammar, Meta, HAS_AUTH, HAS_QUERY};
use crate::path::{has_dot_segment, remove_dot_segments};

/// Resolves the reference `r` (with components `rm`) against the base `base`
/// (components `bm`, which must have a scheme), appending the target to `out`.
///
/// Strict (§5.2.2): a reference with a scheme is used as it is, even when
/// the scheme equals the base's (`http:g` stays `http:g`). The base's
/// fragment is ignored. One repair beyond §5.3: a target without authority
/// whose path would start with `//` gets a `/.` prefix, so that it re-parses
/// with the same components (the same repair as WPT, uriparser, iri-string).
pub fn resolve_into(base: &str, bm: &Meta, r: &str, rm: &Meta, out: &mut String) {
    debug_assert!(bm.scheme(base).is_some(), "base must have a scheme");
    // Components that are copied unchanged are copied as runs of the input
    // text: `scheme ":" ["//" authority]` of one side in one piece, and the
    // reference's `["?" query] ["#" fragment]` in one piece at the end.
    let rp = rm.path(r);
    let has_authority;
    let path_start;
    if rm.scheme_end != 0 {
        // T = R, with dot segments removed from the path.
        out.push_str(&r[..rm.path_start as usize]);
        has_authority = rm.has(HAS_AUTH);
        path_start = out.len();
        push_path(rp, out);
    } else if rm.has(HAS_AUTH) {
        // T.scheme = Base.scheme; authority and path from R.
        out.push_str(&base[..bm.scheme_end as usize + 1]);
        out.push_str(&r[..rm.path_start as usize]);
        has_authority = true;
        path_start = out.len();
        push_path(rp, out);
    } else if rp.is_empty() {
        // Base scheme, authority and path; R's query, else Base's.
        has_authority = bm.has(HAS_AUTH);
        path_start = out.len() + bm.path_start as usize;
        if rm.has(HAS_QUERY) {
            out.push_str(&base[..bm.path_end as usize]);
        } else {
            out.push_str(&base[..bm.query_end as usize]);
        }
    } else if rp.starts_with('/') {
        has_authority = bm.has(HAS_AUTH);
        out.push_str(&base[..bm.path_start as usize]);
        path_start = out.len();
        push_path(rp, out);
    } else {
        has_authority = bm.has(HAS_AUTH);
        path_start = push_merged(base, bm, rp, out);
    }
    if !has_authority && out[path_start..].starts_with("//") {
        out.insert_str(path_start, "/.");
    }
    out.push_str(&r[rm.path_end as usize..]);
}

/// §5.2.4 `remove_dot_segments(path)` appended to `out`. A path without
/// dot segments is its own result (only rule E of §5.2.4 ever applies), so
/// it is copied as it is; an absolute path with dot segments goes through
/// [`append_segments`].
#[inline]
fn push_path(path: &str, out: &mut String) {
    if !has_dot_segment(path) {
        out.push_str(path);
    } else if let Some(tail) = path.strip_prefix('/') {
        let start = out.len();
        out.push('/');
        append_segments(out, start, tail, true);
    } else {
        remove_dot_segments(path, out);
    }
}

/// Appends the segments of `segs` (the text between slashes, `/`-separated)
/// to the absolute path being built in `out[start..]`, which is already
/// free of dot segments and ends with `/`: `.` is dropped, `..` removes the
/// last segment (never the root), any other segment is copied and followed
/// by `/` unless it is the very last one (`last_part`). The result is
/// §5.2.4 `remove_dot_segments` of the concatenated path.
fn append_segments(out: &mut String, start: usize, segs: &str, last_part: bool) {
    let mut rest = segs;
    loop {
        let (seg, more) = match rest.as_bytes().iter().position(|&c| c == b'/') {
            Some(p) => (&rest[..p], Some(&rest[p + 1..])),
            None => (rest, None),
        };
        match seg {
            "." => {}
            ".." => {
                // out[start..] is "/" or ".../x/": drop "x/".
                let body = &out.as_bytes()[start..out.len() - 1];
                if let Some(p) = body.iter().rposition(|&c| c == b'/') {
                    out.truncate(start + p + 1);
                }
            }
            _ => {
                out.push_str(seg);
                if more.is_some() || !last_part {
                    out.push('/');
                }
            }
        }
        match more {
            Some(m) => rest = m,
            None => break,
        }
    }
}

/// `base`'s `scheme ":" ["//" authority]`, then §5.2.3 merge of `rp` (a
/// non-empty relative path) with `base`'s path, then §5.2.4, all appended to
/// `out`; returns where the path starts in `out`.
///
/// When the base path is absolute (the usual case) the merged path is never
/// built: the base's directory, when it has no dot segment, is copied along
/// with the base's scheme and authority as one run of text, and the
/// reference's segments are then applied to it one by one, or copied whole
/// when none is a dot segment.
fn push_merged(base: &str, bm: &Meta, rp: &str, out: &mut String) -> usize {
    let bp = bm.path(base);
    let prefix = &base[..bm.path_start as usize];
    // "If the base URI has a defined authority component and an empty
    // path, then return a string consisting of "/" concatenated with the
    // reference's path."
    if bm.has(HAS_AUTH) && bp.is_empty() {
        out.push_str(prefix);
        let path_start = out.len();
        out.push('/');
        push_relative_segments(out, path_start, rp);
        return path_start;
    }
    // "...excluding any characters after the right-most "/" in the base
    // URI path, or excluding the entire base URI path if it does not
    // contain any "/" characters"
    let dir_len = bp
        .as_bytes()
        .iter()
        .rposition(|&c| c == b'/')
        .map_or(0, |p| p + 1);
    let dir = &bp[..dir_len];
    if !dir.starts_with('/') {
        // Rootless base path (no authority): rare; build the merged path.
        out.push_str(prefix);
        let path_start = out.len();
        let mut merged = String::with_capacity(dir.len() + rp.len());
        merged.push_str(dir);
        merged.push_str(rp);
        remove_dot_segments(&merged, out);
        return path_start;
    }
    let path_start = out.len() + prefix.len();
    if has_dot_segment(dir) {
        out.push_str(prefix);
        out.push('/');
        // `dir` is "/a/b/": its segments are "a", "b", each followed by '/'.
        append_segments(out, path_start, &dir[1..dir.len() - 1], false);
    } else {
        out.push_str(&base[..bm.path_start as usize + dir_len]);
    }
    push_relative_segments(out, path_start, rp);
    path_start
}

/// The segments of the relative path `rp` applied to the absolute path in
/// `out[path_start..]` (free of dot segments, ending with `/`).
#[inline]
fn push_relative_segments(out: &mut String, path_start: usize, rp: &str) {
    if has_dot_segment(rp) {
        append_segments(out, path_start, rp, true);
    } else {
        out.push_str(rp);
    }
}

/// Errors of the string-level [`resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The base is not an absolute IRI (it needs a scheme).
    Base(ParseError),
    /// The reference is not an IRI-reference.
    Reference(ParseError),
}

impl core::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ResolveError::Base(e) => write!(f, "base: {e}"),
            ResolveError::Reference(e) => write!(f, "reference: {e}"),
        }
    }
}

impl std::error::Error for ResolveError {}

impl ResolveError {
    /// The underlying parse error.
    pub fn parse_error(&self) -> &ParseError {
        match self {
            ResolveError::Base(e) | ResolveError::Reference(e) => e,
        }
    }
}

/// Resolves `reference` against `base`, both as text: the base must be an
/// `IRI` (a URI is one; its fragment is ignored), the reference an
/// `IRI-reference`.
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let bm = parse::parse(base, Grammar::Iri).map_err(ResolveError::Base)?;
    let rm = parse::parse(reference, Grammar::IriReference).map_err(ResolveError::Reference)?;
    let mut out = String::with_capacity(base.len() + reference.len());
    resolve_into(base, &bm, reference, &rm, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "http://a/b/c/d;p?q";

    fn r(reference: &str) -> String {
        resolve(BASE, reference).unwrap()
    }

    #[test]
    fn rfc3986_5_4_1_normal_examples() {
        for (rf, want) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ] {
            assert_eq!(r(rf), want, "{rf}");
        }
    }

    #[test]
    fn rfc3986_5_4_2_abnormal_examples() {
        for (rf, want) in [
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
            ("http:g", "http:g"),
        ] {
            assert_eq!(r(rf), want, "{rf}");
        }
    }

    #[test]
    fn structure_repair_and_rootless_bases() {
        assert_eq!(resolve("f:/a", ".//g").unwrap(), "f:/.//g");
        assert_eq!(
            resolve("non-spec:/p", "a/..//path").unwrap(),
            "non-spec:/.//path"
        );
        assert_eq!(resolve("foo:a/b", "../c").unwrap(), "foo:/c");
        assert_eq!(resolve("zz:abc", "foo/../bar").unwrap(), "zz:/bar");
        assert_eq!(resolve("foo:a", "b/c").unwrap(), "foo:b/c");
        assert_eq!(resolve("http://a", "b").unwrap(), "http://a/b");
        assert_eq!(resolve("http://a/b#frag", "").unwrap(), "http://a/b");
    }

    const PATHS: &[&str] = &[
        "/a/b/../../c",
        "/..",
        "/..//",
        "/a/.",
        "/a//../b",
        "/.",
        "/./",
        "/a/b/",
        "/",
        "",
        "/a/b/c/./../../g",
        "mid/content=5/../6",
        "a/b/../../c",
        ".//foo",
        "a/..//x",
        "../x",
        "..",
        ".",
        "/.a/..b/",
        "/a/.../b",
        "/a/..b/.c",
        "/a/b.",
        "/a/b..",
        "/x/./y/../../../z/",
        "/x//..//y/.",
    ];

    #[test]
    fn push_path_equals_literal() {
        for p in PATHS {
            let mut lit = String::from("pre");
            remove_dot_segments(p, &mut lit);
            let mut fast = String::from("pre");
            push_path(p, &mut fast);
            assert_eq!(fast, lit, "{p}");
        }
    }

    #[test]
    fn merge_equals_literal_merge() {
        // RFC 3986 §5.2.3 merge built literally, then §5.2.4, against the
        // segment-wise merge, for every (base path, reference path).
        let bases = [
            "/",
            "/a",
            "/a/",
            "/a/b",
            "/a/./b/",
            "/a/../b/c",
            "/./",
            "/../x",
            "/a//b",
        ];
        for bp in bases {
            for rp in PATHS
                .iter()
                .filter(|p| !p.is_empty() && !p.starts_with('/'))
            {
                let base = format!("http://h{bp}");
                let bm = parse::parse(&base, Grammar::Iri).unwrap();
                let dir = &bp[..bp.rfind('/').map_or(0, |p| p + 1)];
                let mut lit = String::new();
                remove_dot_segments(&format!("{dir}{rp}"), &mut lit);
                let mut fast = String::from("pre");
                let at = push_merged(&base, &bm, rp, &mut fast);
                assert_eq!(&fast[..at], "prehttp://h", "{bp} + {rp}");
                assert_eq!(&fast[at..], lit, "{bp} + {rp}");
            }
        }
    }

    #[test]
    fn iri_resolution() {
        assert_eq!(
            resolve("http://例え.jp/a/b", "../ç?é#ü").unwrap(),
            "http://例え.jp/ç?é#ü"
        );
    }
}
