//! What a rung could not do and left as it was.

use crate::idn::IdnaError;

/// Something a rung could not do and left as it was, reported rather than
/// guessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A DNS host (or mailto domain) that UTS #46 refused: kept as rung 1
    /// left it.
    Idna {
        /// Byte offset of the host in the input, when known.
        offset: Option<usize>,
        /// Why, and which label.
        error: IdnaError,
    },
}

impl Warning {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::Idna { error, .. } => error.kind.code(),
        }
    }
}

impl core::fmt::Display for Warning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Warning::Idna {
                offset: Some(o),
                error,
            } => write!(f, "host at byte {o} kept as is: {error}"),
            Warning::Idna {
                offset: None,
                error,
            } => write!(f, "domain kept as is: {error}"),
        }
    }
}
