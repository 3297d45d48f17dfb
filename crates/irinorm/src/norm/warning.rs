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
    /// A text that NFC / NFKC (the `nfc` / `nfkc` options) would have
    /// turned into a delimiter, a `%` or a dot segment, kept as written
    /// (issue 16: NFKC never changes the structure of a reference).
    CharNormKept {
        /// The text kept (a run between delimiters of the rung-1 `iri`
        /// form, where character normalization is applied).
        text: String,
        /// What normalization would have made of it.
        would_be: String,
    },
}

impl Warning {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::Idna { error, .. } => error.kind.code(),
            Warning::CharNormKept { .. } => "charnorm-kept",
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
            Warning::CharNormKept { text, would_be } => write!(
                f,
                "{text:?} kept as is: character normalization would make it {would_be:?}, \
                 a delimiter or dot segment that was not there"
            ),
        }
    }
}
