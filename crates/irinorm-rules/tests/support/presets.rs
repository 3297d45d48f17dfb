//! The presets as normalizers and invariant 4 for one of them, shared by
//! `prop_presets.rs` and the `presets` fuzz target (`fuzz/fuzz_targets/
//! presets.rs`, which includes this file by its path): no proptest here.

use irinorm::ladder::{Form, Normalizer, Options};
use irinorm::{parse, resolve, Grammar};
use irinorm_rules::{Config, Pipeline, Preset};

/// The nested presets, smallest first.
pub(crate) const NESTED: [Preset; 4] = [
    Preset::Rfc,
    Preset::Fetch,
    Preset::Crawler,
    Preset::Aggressive,
];

pub(crate) fn pipeline(p: Preset, form: Form) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options::new(p.rung(), form)),
        p.rule_set(),
        Config::default(),
    )
}

/// The pipelines of [`NESTED`] in `form`, built once per process (a
/// pipeline with the query tables costs ~26,000 instructions to build: per
/// fuzz input, it was most of the run).
pub(crate) fn nested(form: Form) -> &'static [Pipeline] {
    static P: std::sync::OnceLock<[Vec<Pipeline>; 2]> = std::sync::OnceLock::new();
    let both = P.get_or_init(|| {
        [Form::Uri, Form::Iri].map(|f| NESTED.iter().map(|&p| pipeline(p, f)).collect())
    });
    &both[usize::from(form == Form::Iri)]
}

pub(crate) fn n(p: &Pipeline, x: &str) -> Option<String> {
    p.normalize(x).ok().map(|o| o.text.into_owned())
}

/// Whether a path has a segment that is `.` or `..` only once its
/// triplets are decoded (rung 1 decodes `%2E`; resolution does not).
pub(crate) fn encoded_dot_segment(path: &str) -> bool {
    path.split('/').any(|g| {
        g.contains('%')
            && matches!(
                g.to_ascii_lowercase().replace("%2e", ".").as_str(),
                "." | ".."
            )
    })
}

/// Invariant 4 for one pipeline; `Err` on a mismatch.
pub(crate) fn commutes(p: &Pipeline, b: &str, r: &str) -> Result<(), String> {
    let Ok(target) = resolve(b, r) else {
        return Ok(());
    };
    let Ok(bm) = parse(b, Grammar::Iri) else {
        return Ok(());
    };
    let Ok(rm) = parse(r, Grammar::IriReference) else {
        return Ok(());
    };
    if bm.authority(b).is_none()
        || bm.path(b).split('/').next_back() == Some("..")
        || encoded_dot_segment(bm.path(b))
        || encoded_dot_segment(rm.path(r))
    {
        return Ok(());
    }
    let (Some(lhs), Some(nb), Some(nr)) = (n(p, &target), n(p, b), n(p, r)) else {
        return Ok(());
    };
    let t2 = resolve(&nb, &nr).map_err(|e| format!("resolve({nb:?}, {nr:?}): {e:?}"))?;
    match n(p, &t2) {
        Some(rhs) if rhs == lhs => Ok(()),
        rhs => Err(format!(
            "B={b:?} R={r:?}: N(resolve(B,R))={lhs:?}; N(B)={nb:?} N(R)={nr:?} -> {t2:?} -> {rhs:?}"
        )),
    }
}
