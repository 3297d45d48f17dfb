//! The checks of issue 6 on a quality report, shared by the tests.

use irinorm_frontier::{Configuration, Kind, Report};

/// Every check of issue 6 on one report of a frontier that has every kind:
/// each alias merged exactly where the configuration includes its level,
/// no false merge at the RFC rungs and `rfc`, none but the documented ones
/// (`#` and `?` confusers) in the other presets.
pub(crate) fn check(r: &Report, lines: u64) {
    assert_eq!(r.lines, lines);
    for k in Kind::ALL {
        assert!(
            r.lines_per_kind.get(k.name()).copied().unwrap_or(0) > 0,
            "no line of kind {k}"
        );
    }
    for c in &r.configs {
        let name = &c.config;
        assert_eq!(c.key_errors, 0, "{name}: key errors");
        assert_eq!(c.orphans, 0, "{name}: aliases without original");
        assert_eq!(
            c.unexpected_merges, 0,
            "{name}: aliases merged below their level: {:#?}",
            c.unexpected_samples
        );
        assert_eq!(
            c.aliases_merged, c.aliases_expected,
            "{name}: missed aliases: {:#?}",
            c.missed_samples
        );
        for cell in &c.cells {
            let want = if cell.expected { cell.total } else { 0 };
            assert_eq!(
                cell.merged, want,
                "{name}: {} ({}) merged {}/{}",
                cell.kind, cell.equal_at, cell.merged, cell.total
            );
        }
        // Every alias kind has a cell (material), and is expected exactly
        // where the configuration includes its level.
        for k in Kind::aliases() {
            assert!(
                c.cells.iter().any(|x| x.kind == k.name() && x.total > 0),
                "{name}: no {k} alias"
            );
        }
        let conf: Configuration = name.parse().unwrap();
        if conf.is_rfc() {
            assert_eq!(
                c.false_merge_groups, 0,
                "{name}: false merges: {:#?}",
                c.false_merge_samples
            );
        } else {
            assert_eq!(
                c.false_merges_not_by_design(),
                0,
                "{name}: false merges beyond the documented ones: {:#?}",
                c.false_merge_samples
            );
        }
    }
    // The levels below: string merges no alias but `exact`, syntax none of
    // the scheme kinds, rfc none of the rule kinds.
    let cell = |conf: &str, kind: &str, eq: &str| {
        r.config(conf)
            .unwrap()
            .cell(kind, eq)
            .unwrap_or_else(|| panic!("{conf}: no cell {kind} {eq}"))
            .clone()
    };
    assert_eq!(cell("string", "host-case", "syntax").merged, 0);
    assert_eq!(cell("syntax", "default-port", "scheme").merged, 0);
    assert_eq!(cell("rfc", "fragment", "remove-fragment").merged, 0);
    let fp = cell("fetch", "fragment", "remove-fragment");
    assert!(fp.expected && fp.merged == fp.total);
    // `#` and `?` confusers are merged by the presets whose rules say so.
    let fetch = r.config("fetch").unwrap();
    assert!(fetch.false_merges_by_kind.contains_key("confuser-fragment"));
    assert!(!fetch.false_merges_by_kind.contains_key("confuser-query"));
    let aggr = r.config("aggressive").unwrap();
    assert!(aggr.false_merges_by_kind.contains_key("confuser-query"));
}
