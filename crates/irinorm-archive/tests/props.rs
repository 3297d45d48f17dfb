//! Properties of the readers on generated input: no input makes them
//! panic or loop; every record is accounted for (observations + skipped +
//! bad = records); every bad line of a CDX, CDXJ or TSV file is reported
//! with its own line number, and every good one is read.

use std::io::Cursor;

use irinorm_archive::{from_reader, Format};
use proptest::prelude::*;

/// A line that is good, or bad (prefixed with `x` so that it is never a
/// comment or header, at most 6 space-separated fields, no tab).
#[derive(Debug, Clone)]
enum L {
    Good(u32, u16),
    Bad(String),
}

fn lines() -> impl Strategy<Value = Vec<L>> {
    prop::collection::vec(
        prop_oneof![
            (any::<u32>(), 100u16..600).prop_map(|(n, s)| L::Good(n, s)),
            "x[^\r\n \t]{0,12}( [^\r\n \t]{0,8}){0,5}".prop_map(L::Bad),
        ],
        0..40,
    )
}

fn check(format: Format, header: &str, good: impl Fn(u32, u16) -> String, ls: &[L]) {
    let mut text = header.to_owned();
    let first = if header.is_empty() { 1 } else { 2 };
    let mut want_bad = Vec::new();
    let mut want_good = 0;
    for (i, l) in ls.iter().enumerate() {
        match l {
            L::Good(n, s) => {
                text.push_str(&good(*n, *s));
                want_good += 1;
            }
            L::Bad(b) => {
                text.push_str(b);
                want_bad.push(first + i as u64);
            }
        }
        text.push('\n');
    }
    let mut recs = from_reader(Cursor::new(text.clone()), Some(format)).unwrap();
    let mut got_bad = Vec::new();
    let mut got_good = 0;
    for r in recs.by_ref() {
        match r {
            Ok(o) => {
                got_good += 1;
                let at = o.offset as usize;
                assert!(at == 0 || text.as_bytes()[at - 1] == b'\n', "{o:?}");
                assert!(text[at..].split('\n').next().unwrap().contains(&o.url));
            }
            Err(e) => {
                assert!(!e.fatal, "{e}");
                got_bad.push(e.line.unwrap());
            }
        }
    }
    assert_eq!(got_bad, want_bad, "{text}");
    assert_eq!(got_good, want_good);
    let c = recs.counts();
    assert_eq!(c.records, c.observations + c.skipped + c.bad);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256.max(ProptestConfig::default().cases)))]

    #[test]
    fn cdx_reports_every_bad_line(ls in lines()) {
        check(Format::Cdx, " CDX a b s k r m N M S V g\n", |n, s| {
            format!("http://h/{n} 20200101000000 {s} ABC /x text/html k - 1 2 f")
        }, &ls);
    }

    #[test]
    fn redirect_tsv_reports_every_bad_line(ls in lines()) {
        check(Format::RedirectTsv, "", |n, s| format!("http://h/{n}\t{s}\t/x"), &ls);
    }

    #[test]
    fn digest_tsv_reports_every_bad_line(ls in lines()) {
        check(Format::DigestTsv, "", |n, _| format!("http://h/{n}\tsha1:ABC"), &ls);
    }

    #[test]
    fn cdxj_reports_every_bad_line(ls in lines()) {
        check(Format::Cdxj, "", |n, s| {
            format!("h)/{n} 20200101000000 {{\"url\": \"http://h/{n}\", \"status\": \"{s}\"}}")
        }, &ls);
    }

    #[test]
    fn no_bytes_make_a_reader_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        prefix in prop_oneof![
            Just(&b""[..]),
            Just(&b"WARC/1.0\r\n"[..]),
            Just(&b"filedesc://x 1 20200101000000 t 3\nabc\n"[..]),
            Just(&b" CDX N b a m s k r M S V g\n"[..]),
        ],
    ) {
        let mut input = prefix.to_vec();
        input.extend_from_slice(&bytes);
        for f in [None].into_iter().chain(Format::ALL.map(Some)) {
            if let Ok(mut recs) = from_reader(Cursor::new(input.clone()), f) {
                let mut fatal = 0;
                for r in recs.by_ref() {
                    if let Err(e) = r {
                        fatal += usize::from(e.fatal);
                        prop_assert!(e.offset <= input.len() as u64 * 2 + 2);
                    }
                }
                prop_assert!(fatal <= 1);
                let c = recs.counts();
                prop_assert_eq!(c.records, c.observations + c.skipped + c.bad);
            }
        }
    }
}
