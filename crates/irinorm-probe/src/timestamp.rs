//! Timestamps in the 14-digit form of WARC-Date / CDX (`YYYYMMDDhhmmss`, UTC).

use std::time::SystemTime;

use time::OffsetDateTime;

/// `t` as `YYYYMMDDhhmmss` (UTC).
pub fn format14(t: SystemTime) -> String {
    let t = OffsetDateTime::from(t);
    format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// Parses `YYYYMMDDhhmmss` (UTC) back into a time; None if malformed.
pub fn parse14(s: &str) -> Option<SystemTime> {
    if s.len() != 14 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = |a: usize, b: usize| s[a..b].parse::<u32>().ok();
    let month = time::Month::try_from(n(4, 6)? as u8).ok()?;
    let date = time::Date::from_calendar_date(n(0, 4)? as i32, month, n(6, 8)? as u8).ok()?;
    let t = time::Time::from_hms(n(8, 10)? as u8, n(10, 12)? as u8, n(12, 14)? as u8).ok()?;
    Some(date.with_time(t).assume_utc().into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn known_instants() {
        // 2000-03-01 is day 11017 after the epoch (leap-year February of 2000 included).
        let t = UNIX_EPOCH + Duration::from_secs(11017 * 86400 + 3600 + 2 * 60 + 3);
        assert_eq!(format14(t), "20000301010203");
        assert_eq!(format14(UNIX_EPOCH), "19700101000000");
        assert_eq!(parse14("20000301010203"), Some(t));
    }

    #[test]
    fn malformed() {
        for s in [
            "",
            "2000030101020",
            "2000130101020x",
            "20001301010203",
            "20000230000000",
        ] {
            assert_eq!(parse14(s), None, "{s}");
        }
    }
}
