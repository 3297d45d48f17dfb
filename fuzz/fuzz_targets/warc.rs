//! WARC and ARC readers: no input makes them panic or loop; at most one
//! fatal error, and it is the last item; `records = observations + skipped
//! + bad`; offsets strictly increase, and in an uncompressed WARC every
//! observation's offset points at a `WARC/` line. The first byte picks the
//! framing: plain WARC, the same bytes cut into gzip members at each
//! `WARC/` (offsets must then be member starts), plain ARC, or detection.
#![no_main]

use std::io::{Cursor, Write};

use irinorm_archive::{from_reader, Format};
use libfuzzer_sys::fuzz_target;

fn gzip_members(data: &[u8]) -> (Vec<u8>, Vec<u64>) {
    let mut cuts: Vec<usize> = memchr_all(data);
    cuts.push(data.len());
    let mut out = Vec::new();
    let mut starts = Vec::new();
    let mut prev = 0;
    for c in cuts {
        if c > prev || prev == 0 {
            starts.push(out.len() as u64);
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&data[prev..c]).unwrap();
            out.extend(e.finish().unwrap());
        }
        prev = c;
    }
    (out, starts)
}

fn memchr_all(data: &[u8]) -> Vec<usize> {
    (1..data.len())
        .filter(|&i| data[i..].starts_with(b"WARC/"))
        .collect()
}

fuzz_target!(|input: &[u8]| {
    let Some((&mode, data)) = input.split_first() else {
        return;
    };
    let (bytes, format, member_starts) = match mode % 4 {
        0 => (data.to_vec(), Some(Format::Warc), None),
        1 => {
            let (g, s) = gzip_members(data);
            (g, Some(Format::Warc), Some(s))
        }
        2 => (data.to_vec(), Some(Format::Arc), None),
        _ => (data.to_vec(), None, None),
    };
    let Ok(mut recs) = from_reader(Cursor::new(bytes.clone()), format) else {
        return;
    };
    let mut last_offset = None;
    let mut fatal_seen = false;
    for r in recs.by_ref() {
        assert!(!fatal_seen, "an item after a fatal error");
        let offset = match r {
            Ok(o) => {
                if mode % 4 == 0 {
                    assert!(bytes[o.offset as usize..].starts_with(b"WARC/"), "{o:?}");
                }
                if let Some(s) = &member_starts {
                    assert!(s.contains(&o.offset), "{o:?} not at a member start");
                }
                o.offset
            }
            Err(e) => {
                fatal_seen = e.fatal;
                if e.fatal {
                    continue;
                }
                e.offset
            }
        };
        if let Some(l) = last_offset {
            assert!(offset > l, "offsets go back: {offset} after {l}");
        }
        last_offset = Some(offset);
    }
    let c = recs.counts();
    assert_eq!(c.records, c.observations + c.skipped + c.bad);
});
