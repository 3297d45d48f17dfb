//! What a probe reads from servers and from its own options: `Retry-After`
//! values, `Location` resolution and the next hop, 14-digit timestamps,
//! `--resolve` values and robots.txt files. The first byte picks the
//! parser; the rest is its input (lossily UTF-8 where text is needed).
//!
//! - `Retry-After`: never panics; a plain number of seconds is exactly
//!   that many seconds (RFC 9110 §10.2.3).
//! - timestamps: whatever `parse14` accepts, `format14` gives back.
//! - `--resolve`: whatever is accepted reads back the same when written
//!   as `host:port:addr`.
//! - `Location` (`base NUL location`): the next hop, when there is one, is
//!   an http(s) rung-2 URI without fragment, and its own next hop.
//! - robots.txt: parsing and matching never panic.

#![no_main]

use irinorm_probe::prober::{next_hop, parse_retry_after, resolve_location};
use irinorm_probe::timestamp::{format14, parse14};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    match sel % 5 {
        0 => {
            let r = parse_retry_after(&text);
            if let Ok(n) = text.trim().parse::<u64>() {
                assert_eq!(r, Some(std::time::Duration::from_secs(n)));
            }
        }
        1 => {
            if let Some(t) = parse14(&text) {
                assert_eq!(format14(t), text);
            }
        }
        2 => {
            if let Ok((h, a)) = irinorm_probe::parse_resolve(&text) {
                let ip = match a.ip() {
                    std::net::IpAddr::V6(v) => format!("[{v}]"),
                    v => v.to_string(),
                };
                let again = irinorm_probe::parse_resolve(&format!("{h}:{}:{ip}", a.port()));
                assert_eq!(again, Ok((h, a)));
            }
        }
        3 => {
            let (base, loc) = match text.split_once('\0') {
                Some((b, l)) => (b.to_owned(), l.to_owned()),
                None => ("http://a/b/c/d;p?q".to_owned(), text.to_string()),
            };
            if let Some(next) = resolve_location(&base, &loc).as_deref().and_then(next_hop) {
                assert!(next.starts_with("http://") || next.starts_with("https://"), "{next}");
                assert!(!next.contains('#'), "{next}");
                assert_eq!(next_hop(&next).as_deref(), Some(next.as_str()));
            }
        }
        _ => {
            if let Ok(r) = texting_robots::Robot::new("irinorm-probe", rest) {
                let _ = r.allowed("/a/b?c");
                let _ = r.allowed("http://h/x%2Fy");
            }
        }
    }
});
