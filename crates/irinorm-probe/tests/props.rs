//! Property tests of what the probe derives from server text: timestamps
//! round-trip, the next hop of any `Location` is a fixed point, and a
//! `Retry-After` number is that many seconds.

use std::time::{Duration, UNIX_EPOCH};

use irinorm_probe::prober::{next_hop, parse_retry_after, resolve_location};
use irinorm_probe::timestamp::{format14, parse14};
use proptest::prelude::*;

proptest! {
    #[test]
    fn timestamps_round_trip(secs in 0u64..253_402_300_800) {
        // Up to 9999-12-31T23:59:59Z, the last 14-digit time.
        let t = UNIX_EPOCH + Duration::from_secs(secs);
        let s = format14(t);
        prop_assert_eq!(s.len(), 14);
        prop_assert_eq!(parse14(&s), Some(t));
    }

    #[test]
    fn next_hop_is_a_fixed_point(
        base in "http://[a-z]{1,5}(:[0-9]{1,4})?(/[a-zA-Z0-9._~%-]{0,4}){0,3}",
        loc in "[ -~\u{a0}-\u{3ff}]{0,24}",
    ) {
        if let Some(next) = resolve_location(&base, &loc).as_deref().and_then(next_hop) {
            prop_assert!(next.starts_with("http://") || next.starts_with("https://"));
            prop_assert!(!next.contains('#'));
            prop_assert!(next.is_ascii());
            prop_assert_eq!(next_hop(&next), Some(next.clone()));
        }
    }

    #[test]
    fn retry_after_seconds(n in any::<u64>()) {
        prop_assert_eq!(parse_retry_after(&n.to_string()), Some(Duration::from_secs(n)));
    }
}
