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

/// Whether some segment of `path` is `.` or `..` (RFC 3986 §5.2.4: the
/// segments `remove_dot_segments` removes; exactly: no false positives, no
/// false negatives). Percent-encoded dots do not count: decode first.
///
/// A dot segment starts at the start of the path or right after a `/`, so
/// the scan looks for the pair `/.`, eight positions at a time (the `.`
/// of a file extension is not a candidate and costs nothing), and checks
/// each candidate.
#[inline]
pub fn has_dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    // Whether the segment starting at `d` (a '.') is "." or "..".
    let dot_seg_at = |d: usize| {
        let end = |j: usize| j == b.len() || b[j] == b'/';
        end(d + 1) || (b[d + 1] == b'.' && end(d + 2))
    };
    if b.first() == Some(&b'.') && dot_seg_at(0) {
        return true;
    }
    let mut i = 1;
    while i < b.len() {
        if let Some(w) = b.get(i - 1..i + 8) {
            // Bytes i-1..i+7 (each byte's predecessor) against '/', bytes
            // i..i+8 against '.': a candidate where both match.
            let m = eq_bytes(word(&w[..8]), b'/') & eq_bytes(word(&w[1..]), b'.');
            if m == 0 {
                i += 8;
                continue;
            }
            let d = i + (m.trailing_zeros() / 8) as usize;
            if dot_seg_at(d) {
                return true;
            }
            i = d + 1;
        } else {
            if b[i] == b'.' && b[i - 1] == b'/' && dot_seg_at(i) {
                return true;
            }
            i += 1;
        }
    }
    false
}

/// Eight bytes as a little-endian word (`w.len() == 8`).
#[inline(always)]
fn word(w: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(w);
    u64::from_le_bytes(a)
}

/// `0x80` in each byte of `x` equal to `c`, `0` in the others (exact: no
/// carries between bytes).
#[inline(always)]
fn eq_bytes(x: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let t = x ^ (0x0101_0101_0101_0101 * u64::from(c));
    !(((t & LOW7) + LOW7) | t | LOW7)
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

/// How the dot segments of a path are removed; chosen from what precedes
/// the path (LADDER.md rung 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathMode {
    /// The path starts with `/` (there is an authority, or it is
    /// path-absolute): RFC 3986 §5.2.4 literally.
    Absolute,
    /// A relative-path reference: leading `..` segments stay (see
    /// [`normalize_relative_path`]).
    Relative,
}

/// Removes dot segments while the normalizer writes a path into `out`, one
/// segment at a time, so that no copy of the path is needed: call
/// [`PathWriter::begin`], append the (already percent-normalized) segment
/// text, then [`PathWriter::end`]; [`PathWriter::finish`] adds the prefixes
/// that keep the structure (`/.` before `//` without authority, `./` before
/// a relative path whose first segment is empty or has a `:`).
///
/// The rootless path of an absolute URI (`urn:a/../b`) has no mode: it is
/// opaque and never goes through here (LADDER.md rung 1).
///
/// Equal to [`remove_dot_segments`] (Absolute) and to
/// [`normalize_relative_path`] (Relative) on the concatenated segments;
/// property tests check both.
#[derive(Debug)]
pub(crate) struct PathWriter {
    mode: PathMode,
    /// Start of the path in `out`.
    base: usize,
    /// Start of the segment being written (before its `/`, if any).
    mark: usize,
    /// Whether the current segment was preceded by a `/` we pushed.
    slashed: bool,
    /// Relative: end of the leading "../" block, and real segments kept.
    lead_end: usize,
    real: usize,
    /// Whether any segment was written (the input path was non-empty).
    any: bool,
}

impl PathWriter {
    pub(crate) fn new(out: &str, mode: PathMode) -> Self {
        let base = out.len();
        PathWriter {
            mode,
            base,
            mark: base,
            slashed: false,
            lead_end: base,
            real: 0,
            any: false,
        }
    }

    /// Starts a segment: pushes its `/` where the mode wants one.
    #[inline]
    pub(crate) fn begin(&mut self, out: &mut String) {
        self.any = true;
        self.mark = out.len();
        self.slashed = match self.mode {
            PathMode::Absolute => true,
            PathMode::Relative => self.real > 0,
        };
        if self.slashed {
            out.push('/');
        }
    }

    /// Ends a segment: if it is `.` or `..`, applies §5.2.4 (or the
    /// relative-path rule). Always inlined: the instance of `write_normal`
    /// in `irinorm` itself called it out of line, about 40 instructions a
    /// reference more than the instances compiled downstream (issue 14,
    /// round 13, callgrind).
    #[inline(always)]
    pub(crate) fn end(&mut self, out: &mut String, last: bool) {
        let seg = &out.as_bytes()[self.mark + usize::from(self.slashed)..];
        let dot = match seg {
            b"." => 1,
            b".." => 2,
            _ => 0,
        };
        match self.mode {
            PathMode::Absolute => self.end_absolute(out, dot, last),
            PathMode::Relative => match dot {
                1 => {
                    out.truncate(self.mark);
                    if last && self.real > 0 {
                        out.push('/');
                    }
                }
                2 => {
                    out.truncate(self.mark);
                    if self.real > 0 {
                        match out[self.lead_end..].rfind('/') {
                            Some(p) => out.truncate(self.lead_end + p),
                            None => out.truncate(self.lead_end),
                        }
                        self.real -= 1;
                        if last && self.real > 0 {
                            out.push('/');
                        }
                    } else {
                        out.push_str("../");
                        self.lead_end = out.len();
                    }
                }
                _ => self.real += 1,
            },
        }
    }

    #[inline]
    fn end_absolute(&mut self, out: &mut String, dot: u8, last: bool) {
        if dot == 0 {
            return;
        }
        // B: "/./" or "/." -> "/";  C: "/../" or "/.." -> "/" and pop.
        out.truncate(self.mark);
        if dot == 2 {
            pop_segment(out, self.base);
        }
        if last {
            out.push('/');
        }
    }

    /// Adds the prefixes that keep the reference parsing with the same
    /// components (LADDER.md rung 1, "The result must re-parse to the same
    /// structure").
    pub(crate) fn finish(self, out: &mut String, has_authority: bool) {
        let path = &out[self.base..];
        match self.mode {
            PathMode::Absolute => {
                if !has_authority && path.starts_with("//") {
                    out.insert_str(self.base, "/.");
                }
            }
            PathMode::Relative => {
                if self.lead_end != self.base {
                    return;
                }
                let first = path.split('/').next().unwrap_or("");
                if path.is_empty() && self.any {
                    out.push_str("./");
                } else if !path.is_empty() && (first.is_empty() || first.contains(':')) {
                    out.insert_str(self.base, "./");
                }
            }
        }
    }
}

/// Runs a [`PathWriter`] over a path given as text (segments copied as
/// they are): the reference the tests compare the writer against.
#[cfg(test)]
pub(crate) fn write_path(path: &str, mode: PathMode, has_authority: bool, out: &mut String) {
    let mut w = PathWriter::new(out, mode);
    let body = if mode == PathMode::Absolute {
        path.strip_prefix('/').unwrap_or(path)
    } else {
        path
    };
    if !path.is_empty() {
        let mut segs = body.split('/').peekable();
        while let Some(seg) = segs.next() {
            w.begin(out);
            out.push_str(seg);
            w.end(out, segs.peek().is_none());
        }
    }
    w.finish(out, has_authority);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq_bytes_is_exact() {
        let x = u64::from_le_bytes(*b"/./\x00\xff.//");
        assert_eq!(eq_bytes(x, b'/'), 0x8080_0000_0080_0080);
        assert_eq!(eq_bytes(x, b'.'), 0x0000_8000_0000_8000);
        assert_eq!(eq_bytes(x, 0), 0x0000_0000_8000_0000);
    }

    #[test]
    fn dot_segment_detection_is_exact() {
        // Long paths, so that candidates fall in every lane of the word scan.
        let mut long = Vec::new();
        for k in 0..20 {
            let pad = "x".repeat(k);
            for tail in [".", "..", ".a", "a.", "...", "./", "../", ".x/"] {
                long.push(format!("/{pad}/{tail}"));
                long.push(format!("/{pad}/{tail}/{pad}"));
                long.push(format!("{pad}.{tail}"));
                long.push(format!("/{pad}{tail}"));
            }
        }
        let short = [
            "", ".", "..", "...", "/", "/.", "/..", "/...", "./", "../", ".a", "a/.", "a/..",
            "/a/./b", "/a/../b", "/a/.b", "/a/b.", "/a/b..", "//.", "/.//", "%2E", "/%2e/",
        ];
        for p in short.iter().copied().chain(long.iter().map(String::as_str)) {
            // The definition (RFC 3986 §5.2.4): some segment is `.` or `..`.
            let literal = p.split('/').any(|s| s == "." || s == "..");
            assert_eq!(has_dot_segment(p), literal, "{p}");
        }
    }

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

    fn streamed(path: &str, mode: PathMode, auth: bool) -> String {
        let mut o = String::new();
        write_path(path, mode, auth, &mut o);
        o
    }

    #[test]
    fn writer_matches_literal_and_relative() {
        let cases = [
            "/a/b/c/./../../g",
            "/..",
            "/..//",
            "/a/..",
            "/a/.",
            "/a//../b",
            "/.",
            "/./",
            "/",
            "/.//foo/bar",
            "/a/b/",
            "mid/content=5/../6",
            "foo/../bar",
            "a/b/../../c",
            ".//foo",
            "a/..//x",
            "../x",
            "..",
            ".",
            "./",
            ".//",
            "./..",
            "..//x",
            "a/.",
            "a/..",
            "./path1:/path2",
        ];
        for p in cases {
            let mut lit = String::new();
            remove_dot_segments(p, &mut lit);
            if p.starts_with('/') {
                assert_eq!(streamed(p, PathMode::Absolute, true), lit, "absolute {p}");
            } else {
                assert_eq!(
                    streamed(p, PathMode::Relative, false),
                    rel(p),
                    "relative {p}"
                );
            }
        }
        for p in [
            "../../abc/..",
            "../../abc/../def",
            "./abc:def",
            "abc/..",
            "x/../../y",
            "a//../b",
            ".//foo/bar",
        ] {
            assert_eq!(
                streamed(p, PathMode::Relative, false),
                rel(p),
                "relative {p}"
            );
        }
    }

    #[test]
    fn writer_keeps_structure() {
        assert_eq!(
            streamed("/.//foo/bar", PathMode::Absolute, false),
            "/.//foo/bar"
        );
        assert_eq!(
            streamed("/.//foo/bar", PathMode::Absolute, true),
            "//foo/bar"
        );
        assert_eq!(
            streamed(".//foo/bar", PathMode::Relative, false),
            ".//foo/bar"
        );
    }
}
