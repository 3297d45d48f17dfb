//! The vocabulary shared by the ladder and the scheme rules: the rungs,
//! the output forms, the warnings a rung reports instead of guessing, the
//! trace of applied rules, and UTS #46 on a written DNS name. It sits
//! beneath both: `scheme` depends on it, `ladder` on `scheme` and on it,
//! and nothing here depends on either. (`ladder::Options` stays in
//! `ladder`: it holds the `scheme::SchemeRegistry`; a scheme rule receives
//! only the form and the IDNA profile it needs.)

pub(crate) mod domain;
mod memo;
pub mod trace;
mod warning;

pub use self::warning::Warning;

/// A rung of the ladder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rung {
    /// Rung 0: code point by code point (RFC 3986 §6.2.1, RFC 3987 §5.3.1).
    String,
    /// Rung 1: syntax-based normalization (RFC 3986 §6.2.2, RFC 3987 §5.3.2).
    Syntax,
    /// Rung 2: scheme-based normalization (RFC 3986 §6.2.3, RFC 3987 §5.3.3).
    #[default]
    Scheme,
}

impl Rung {
    /// The rungs in order.
    pub const ALL: [Rung; 3] = [Rung::String, Rung::Syntax, Rung::Scheme];
    /// `string`, `syntax`, `scheme`.
    pub const fn name(self) -> &'static str {
        match self {
            Rung::String => "string",
            Rung::Syntax => "syntax",
            Rung::Scheme => "scheme",
        }
    }
}

impl core::str::FromStr for Rung {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rung::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown rung {s:?} (string, syntax or scheme)"))
    }
}

impl core::fmt::Display for Rung {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The output alphabet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// ASCII only: non-ASCII percent-encoded as UTF-8, IDN hosts as A-labels.
    /// Comparison always happens in this form.
    #[default]
    Uri,
    /// Readable: U-labels, percent-encoded UTF-8 of allowed characters decoded.
    Iri,
}

impl Form {
    /// `uri`, `iri`.
    pub const fn name(self) -> &'static str {
        match self {
            Form::Uri => "uri",
            Form::Iri => "iri",
        }
    }
}

impl core::str::FromStr for Form {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "uri" => Ok(Form::Uri),
            "iri" => Ok(Form::Iri),
            _ => Err(format!("unknown form {s:?} (uri or iri)")),
        }
    }
}
