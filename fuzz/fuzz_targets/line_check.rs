// Shared by the `cdx` and `cdxj` fuzz targets (included, not a target).

pub fn check(data: &[u8], format: irinorm_archive::Format) {
    let Ok(mut recs) = irinorm_archive::from_reader(std::io::Cursor::new(data.to_vec()), Some(format))
    else {
        return;
    };
    let lines = data.split(|&b| b == b'\n').count() as u64;
    let mut prev_line = 0;
    for r in recs.by_ref() {
        match r {
            Ok(o) => {
                let at = o.offset as usize;
                assert!(at == 0 || data[at - 1] == b'\n', "{o:?}");
                let end = data[at..].iter().position(|&b| b == b'\n').map_or(data.len(), |i| at + i);
                let line = String::from_utf8_lossy(&data[at..end]);
                assert!(line.contains(o.url.as_str()), "{o:?} not on {line:?}");
            }
            Err(e) => {
                assert!(!e.fatal, "{e}");
                let l = e.line.expect("a line number");
                assert!(l > prev_line && l <= lines, "{e}");
                prev_line = l;
            }
        }
    }
    let c = recs.counts();
    assert_eq!(c.records, c.observations + c.skipped + c.bad);
}
