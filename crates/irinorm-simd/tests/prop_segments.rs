//! `keep_segments` against slicing and joining (issue 14, round 15): random
//! strings of 1- to 4-byte characters, segments cut at character
//! boundaries (short, empty, longer than 64 bytes, at the string's end),
//! any choice of kept ones, with and without a lead byte.

use irinorm_simd::keep_segments;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(vec!['a', '&', '=', '?', '#']),
            1 => prop::sample::select(vec!['é', '€', '𝄞', 'z']),
        ],
        0..200,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn equals_slicing(s in text(), picks in prop::collection::vec(any::<u16>(), 0..66), keep in any::<u64>(), lead in any::<bool>()) {
        let cuts: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
        let mut at: Vec<usize> = picks.iter().map(|&p| cuts[usize::from(p) % cuts.len()]).collect();
        at.sort_unstable();
        at.truncate(65);
        prop_assume!(!at.is_empty());
        let base = at[0].min(3);
        let bounds: Vec<u16> = at.iter().map(|&a| (a - base) as u16).collect();
        let count = at.len() - 1;
        let mut mid: String = (0..count)
            .filter(|&i| (keep >> i) & 1 == 1)
            .map(|i| &s[at[i]..at[i + 1]])
            .collect();
        let lead = (lead && mid.as_bytes().first().is_some_and(u8::is_ascii)).then_some(b'?');
        if lead.is_some() {
            mid.replace_range(..1, "?");
        }
        let want = format!("{}{mid}{}", &s[..at[0]], &s[at[count]..]);
        let mut got = s.clone();
        let w = keep_segments(&mut got, base, &bounds, keep, lead);
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(w, mid.len());
    }
}
