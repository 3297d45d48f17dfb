//! Evidence generators shared by the property tests of rung 3 (LADDER.md
//! "Rung 3"): `prop_protocol.rs`, `prop_protocol_options.rs` and, by its
//! path, irinorm-rules' `prop_rules_over_protocol.rs`. Each test brings its
//! own small universe of URLs (so that random observations form chains,
//! cycles and host conventions); these draw observations and policies over
//! it.

// Each test uses one of the two status lists.
#![allow(dead_code)]

use irinorm::protocol::{ProtocolOptions, RawObservation, RedirectPolicy};
use proptest::prelude::*;

/// Statuses that make edges under some policy: permanent (301, 308) and
/// temporary (302) redirects, and a 200 that records a page.
pub(crate) const DENSE: &[u16] = &[200, 301, 302, 308];

/// Every status class a store holds: `DENSE`, a 404, and the other
/// temporary redirects (303, 307) that only the `all` policy follows.
pub(crate) const ALL_STATUSES: &[u16] = &[200, 404, 301, 302, 303, 307, 308];

/// One observation of a URL drawn from `url`: a status from `statuses`,
/// a redirect target (also from `url`) on 3xx only, when `untimed` is set
/// sometimes no time and sometimes no target (a record that says nothing),
/// and one of four offsets (the record's place in its source).
pub(crate) fn observation<S>(
    url: fn() -> S,
    statuses: &'static [u16],
    untimed: bool,
) -> impl Strategy<Value = RawObservation>
where
    S: Strategy<Value = String>,
{
    let time = prop::sample::select(vec!["20200101000000", "20210101000000", "20220101000000"]);
    (
        url(),
        prop::sample::select(statuses),
        url(),
        time,
        0u64..4,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            move |(u, status, target, time, offset, no_target, no_time)| RawObservation {
                url: u,
                status,
                target: ((300..400).contains(&status) && !(untimed && no_target)).then_some(target),
                time: (!(untimed && no_time)).then(|| time.to_owned()),
                source: "gen".to_owned(),
                offset,
            },
        )
}

/// A redirect policy and a host-convention threshold from 0 (every
/// convention shown once applies) to 3 (LADDER.md's default N).
pub(crate) fn policy() -> impl Strategy<Value = ProtocolOptions> {
    (prop::sample::select(RedirectPolicy::ALL.to_vec()), 0u32..4).prop_map(
        |(redirects, min_host_support)| ProtocolOptions {
            redirects,
            min_host_support,
        },
    )
}
