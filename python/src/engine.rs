//! A pipeline and the `repair` pass in front of it (the CLI's `--repair`,
//! docs/repair.md): what every call of the package runs.

use std::borrow::Cow;
use std::ops::Deref;

use irinorm_rules::Pipeline;

/// The pipeline, and whether inputs are repaired first (with the scheme of
/// the base, which decides how a scheme-relative reference is read).
#[derive(Debug)]
pub(crate) struct Engine {
    pub(crate) p: Pipeline,
    pub(crate) repair: Option<Option<String>>,
}

impl Engine {
    /// The input the pipeline sees: the repaired text when `repair` is on
    /// and changed something, else the input itself.
    pub(crate) fn prep<'a>(&self, s: &'a str) -> Cow<'a, str> {
        match &self.repair {
            None => Cow::Borrowed(s),
            Some(base_scheme) => {
                let r = irinorm::repair::repair(s, base_scheme.as_deref());
                if r.changed() {
                    Cow::Owned(r.text)
                } else {
                    Cow::Borrowed(s)
                }
            }
        }
    }
}

impl Deref for Engine {
    type Target = Pipeline;
    fn deref(&self) -> &Pipeline {
        &self.p
    }
}
