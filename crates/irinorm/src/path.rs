//! Dot segments: `remove_dot_segments` exactly as RFC 3986 §5.2.4 writes
//! it, the relative-path variant of the normalization ladder, and the
//! prefixes that keep a recomposed reference parsing the same way.

/// RFC 3986 §5.2.4 `remove_dot_segments`, literally, appending the result
/// to `out`. Linear in the input: each byte is moved at most once and
/// removed at most once.
pub fn remove_dot_segments(input: &str, out: &mut String) {
    let base = out.len();
    let mut inp: &str = input;
    while !inp.is_empty() {
        // A. prefix "../" or "./": remove it.
        if let Some(rest) = inp.strip_prefix("../") {
            inp = rest;
        } else if let Some(rest) = inp.strip_prefix("./") {
            inp = rest;
        }
        // B. prefix "/./" or "/." as a complete segment: replace with "/".
        else if inp.starts_with("/./") {
            inp = &inp[2..];
        } else if inp == "/." {
            inp = "/";
        }
        // C. prefix "/../" or "/.." as a complete segment: replace with "/"
        //    and remove the last segment (and its preceding "/") from the output.
        else if inp.starts_with("/../") {
            inp = &inp[3..];
            pop_segment(out, base);
        } else if inp == "/.." {
            inp = "/";
            pop_segment(out, base);
        }
        // D. "." or "..": remove.
        else if inp == "." || inp == ".." {
            inp = "";
        }
        // E. move the first segment (with its initial "/", if any) to the output.
        else {
            let skip = usize::from(inp.starts_with('/'));
            let end = inp[skip..].find('/').map_or(inp.len(), |p| p + skip);
            out.push_str(&inp[..end]);
            inp = &inp[end..];
        }
    }
}

/// Removes the last segment and its preceding "/" (if any) from `out[base..]`.
#[inline]
fn pop_segment(out: &mut String, base: usize) {
    match out[base..].rfind('/') {
        Some(p) => out.truncate(base + p),
        None => out.truncate(base),
    }
}

/// Whether a path may contain a dot segment (`.` or `..` as a complete
/// segment). Percent-encoded dots do not count: decode first.
pub fn has_dot_segment(path: &str) -> bool {
    path.split('/').any(|s| s == "." || s == "..")
}

/// Dot-segment normalization of the path of a *relative-path reference*
/// (LADDER.md rung 1): `.` segments and `seg/..` pairs go, leading `..`
/// segments stay, so that the reference still resolves to the same target
/// against every base; a non-empty path that reduces to nothing is
/// written `./` (the empty reference would mean the base itself), and a
/// result whose first segment is empty or contains `:` gets a `./` prefix
/// (RFC 3986 §4.2: it would otherwise parse as a network-path reference or
/// as a scheme).
pub fn normalize_relative_path(input: &str, out: &mut String) {
    if input.is_empty() {
        return;
    }
    // Stack of kept segments, as byte ranges into `input`; a `None` marks
    // the empty segment that a trailing "." or ".." leaves.
    let mut stack: Vec<Option<(usize, usize)>> = Vec::new();
    let mut leading_up = 0usize; // ".." segments that could not be popped
    let mut start = 0usize;
    let bytes = input.as_bytes();
    loop {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(bytes.len(), |p| start + p);
        let seg = &input[start..end];
        let last = end == bytes.len();
        match seg {
            "." => {
                if last {
                    stack.push(None);
                }
            }
            ".." => {
                if stack.pop().is_none() {
                    leading_up += 1;
                }
                if last {
                    stack.push(None);
                }
            }
            _ => stack.push(Some((start, end))),
        }
        if last {
            break;
        }
        start = end + 1;
    }
    let before = out.len();
    for _ in 0..leading_up {
        out.push_str("../");
    }
    let body_start = out.len();
    for (k, seg) in stack.iter().enumerate() {
        if k > 0 {
            out.push('/');
        }
        if let Some((a, b)) = *seg {
            out.push_str(&input[a..b]);
        }
    }
    let body = &out[body_start..];
    if leading_up == 0 {
        let first = body.split('/').next().unwrap_or("");
        if body.is_empty() || first.is_empty() || first.contains(':') {
            // "", "/x" or "a:b" would change meaning: keep "./".
            out.insert_str(before, "./");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rds(s: &str) -> String {
        let mut o = String::new();
        remove_dot_segments(s, &mut o);
        o
    }
    fn rel(s: &str) -> String {
        let mut o = String::new();
        normalize_relative_path(s, &mut o);
        o
    }

    #[test]
    fn rfc3986_5_2_4_examples() {
        // The two worked examples of §5.2.4.
        assert_eq!(rds("/a/b/c/./../../g"), "/a/g");
        assert_eq!(rds("mid/content=5/../6"), "mid/6");
    }

    #[test]
    fn literal_edge_cases() {
        assert_eq!(rds("/.."), "/");
        assert_eq!(rds("/..//"), "//");
        assert_eq!(rds("/a/.."), "/");
        assert_eq!(rds("/a/."), "/a/");
        assert_eq!(rds("/a//../b"), "/a/b");
        assert_eq!(rds("foo/../bar"), "/bar");
        assert_eq!(rds("a/b/../../c"), "/c");
        assert_eq!(rds(".//foo"), "/foo");
        assert_eq!(rds("a/..//x"), "//x");
        assert_eq!(rds("../x"), "x");
        assert_eq!(rds(".."), "");
        assert_eq!(rds(""), "");
        assert_eq!(rds("/.a/..b/"), "/.a/..b/");
    }

    #[test]
    fn relative_paths_keep_meaning() {
        // Cases of LADDER.md rung 1 and the uriparser vectors.
        assert_eq!(rel("a/b/../../c"), "c");
        assert_eq!(rel("../../abc"), "../../abc");
        assert_eq!(rel("../../abc/.."), "../../");
        assert_eq!(rel("../../abc/../def"), "../../def");
        assert_eq!(rel("../../abc/./def"), "../../abc/def");
        assert_eq!(rel("./def"), "def");
        assert_eq!(rel("def/."), "def/");
        assert_eq!(rel("./abc:def"), "./abc:def");
        assert_eq!(rel("abc/.."), "./");
        assert_eq!(rel("."), "./");
        assert_eq!(rel(".."), "../");
        assert_eq!(rel("../"), "../");
        assert_eq!(rel(".//foo/bar"), ".//foo/bar");
        assert_eq!(rel("./path1:/path2"), "./path1:/path2");
        assert_eq!(rel("mid/content=5/../6"), "mid/6");
        assert_eq!(rel("a//../b"), "a/b");
        assert_eq!(rel("a"), "a");
        assert_eq!(rel(""), "");
        assert_eq!(rel("x/../../y"), "../y");
    }

    #[test]
    fn relative_is_idempotent_on_examples() {
        for s in [
            "../../abc/..",
            ".//foo",
            "./a:b",
            "abc/..",
            "..",
            "a/./b/../..",
            "x/../../y",
        ] {
            let once = rel(s);
            assert_eq!(rel(&once), once, "{s}");
        }
    }
}
