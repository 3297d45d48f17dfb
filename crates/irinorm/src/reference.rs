//! Typed references: the type says what the text holds. URI or IRI,
//! reference or absolute, borrowed ([`Ref`]) or owned ([`RefBuf`]); a value
//! of one of these types has been validated against its grammar once, and
//! its components are known.
//!
//! ```
//! use irinorm::{Iri, UriRef};
//! let base = Iri::parse("http://例え.jp/a/b").unwrap();
//! let r = UriRef::parse("../c?q").unwrap();
//! assert_eq!(base.resolve(&r).as_str(), "http://例え.jp/c?q");
//! ```

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

use crate::error::ParseError;
use crate::host::HostKind;
use crate::mapping;
use crate::parse::{self, Grammar, Meta};
use crate::resolve::resolve_into;

mod sealed {
    pub trait Sealed {}
}

/// A grammar, as a type.
pub trait Spec: sealed::Sealed + Copy + fmt::Debug + 'static {
    /// The grammar values of this type are valid under.
    const GRAMMAR: Grammar;
}

/// Types whose values always have a scheme: they can be resolution bases.
pub trait Absolute: Spec {}

/// `Self` values are always valid `K` values too.
pub trait SubsetOf<K: Spec>: Spec {}

/// The type of `base.resolve(r)`: a URI when both are URIs, else an IRI.
pub trait ResolvesWith<R: Spec>: Absolute {
    /// The target's type.
    type Target: Absolute;
}

/// Marker types, one per grammar.
pub mod kind {
    macro_rules! kinds {
        ($($name:ident => $g:ident, $doc:literal;)*) => {$(
            #[doc = $doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum $name {}
            impl super::sealed::Sealed for $name {}
            impl super::Spec for $name {
                const GRAMMAR: crate::parse::Grammar = crate::parse::Grammar::$g;
            }
        )*};
    }
    kinds! {
        UriRef => UriReference, "`URI-reference` (RFC 3986 §4.1).";
        Uri => Uri, "`URI` (RFC 3986 §3).";
        AbsoluteUri => AbsoluteUri, "`absolute-URI` (RFC 3986 §4.3).";
        RelativeRef => RelativeRef, "`relative-ref` (RFC 3986 §4.2).";
        IriRef => IriReference, "`IRI-reference` (RFC 3987 §2.2).";
        Iri => Iri, "`IRI` (RFC 3987 §2.2).";
        AbsoluteIri => AbsoluteIri, "`absolute-IRI` (RFC 3987 §2.2).";
        IriRelativeRef => IrelativeRef, "`irelative-ref` (RFC 3987 §2.2).";
    }
}

macro_rules! subsets {
    ($($from:ident => [$($to:ident),*];)*) => {$($(
        impl SubsetOf<kind::$to> for kind::$from {}
    )*)*};
}
subsets! {
    UriRef => [UriRef, IriRef];
    Uri => [Uri, UriRef, Iri, IriRef];
    AbsoluteUri => [AbsoluteUri, Uri, UriRef, AbsoluteIri, Iri, IriRef];
    RelativeRef => [RelativeRef, UriRef, IriRelativeRef, IriRef];
    IriRef => [IriRef];
    Iri => [Iri, IriRef];
    AbsoluteIri => [AbsoluteIri, Iri, IriRef];
    IriRelativeRef => [IriRelativeRef, IriRef];
}

impl Absolute for kind::Uri {}
impl Absolute for kind::AbsoluteUri {}
impl Absolute for kind::Iri {}
impl Absolute for kind::AbsoluteIri {}

macro_rules! resolves {
    ($target:ident: $($base:ident),* ; $($r:ident),*) => {
        resolves!(@outer $target [$($base),*] [$($r),*]);
    };
    (@outer $target:ident [$($base:ident),*] $rs:tt) => {
        $( resolves!(@inner $target $base $rs); )*
    };
    (@inner $target:ident $base:ident [$($r:ident),*]) => {
        $( impl ResolvesWith<kind::$r> for kind::$base { type Target = kind::$target; } )*
    };
}
resolves!(Uri: Uri, AbsoluteUri; UriRef, Uri, AbsoluteUri, RelativeRef);
resolves!(Iri: Uri, AbsoluteUri; IriRef, Iri, AbsoluteIri, IriRelativeRef);
resolves!(Iri: Iri, AbsoluteIri; UriRef, Uri, AbsoluteUri, RelativeRef, IriRef, Iri, AbsoluteIri, IriRelativeRef);

/// A borrowed, validated reference of grammar `K`.
pub struct Ref<'a, K: Spec> {
    text: &'a str,
    meta: Meta,
    _k: PhantomData<K>,
}

/// An owned, validated reference of grammar `K`.
pub struct RefBuf<K: Spec> {
    text: String,
    meta: Meta,
    _k: PhantomData<K>,
}

/// A borrowed `URI-reference`.
pub type UriRef<'a> = Ref<'a, kind::UriRef>;
/// A borrowed `URI`.
pub type Uri<'a> = Ref<'a, kind::Uri>;
/// A borrowed `absolute-URI`.
pub type AbsoluteUri<'a> = Ref<'a, kind::AbsoluteUri>;
/// A borrowed `relative-ref`.
pub type RelativeRef<'a> = Ref<'a, kind::RelativeRef>;
/// A borrowed `IRI-reference`.
pub type IriRef<'a> = Ref<'a, kind::IriRef>;
/// A borrowed `IRI`.
pub type Iri<'a> = Ref<'a, kind::Iri>;
/// A borrowed `absolute-IRI`.
pub type AbsoluteIri<'a> = Ref<'a, kind::AbsoluteIri>;
/// A borrowed `irelative-ref`.
pub type IriRelativeRef<'a> = Ref<'a, kind::IriRelativeRef>;
/// An owned `URI-reference`.
pub type UriRefBuf = RefBuf<kind::UriRef>;
/// An owned `URI`.
pub type UriBuf = RefBuf<kind::Uri>;
/// An owned `absolute-URI`.
pub type AbsoluteUriBuf = RefBuf<kind::AbsoluteUri>;
/// An owned `relative-ref`.
pub type RelativeRefBuf = RefBuf<kind::RelativeRef>;
/// An owned `IRI-reference`.
pub type IriRefBuf = RefBuf<kind::IriRef>;
/// An owned `IRI`.
pub type IriBuf = RefBuf<kind::Iri>;
/// An owned `absolute-IRI`.
pub type AbsoluteIriBuf = RefBuf<kind::AbsoluteIri>;
/// An owned `irelative-ref`.
pub type IriRelativeRefBuf = RefBuf<kind::IriRelativeRef>;

/// Every component of a reference, as slices of its text; `None` is
/// absent, `Some("")` is present and empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Components<'a> {
    /// Scheme, without `:`.
    pub scheme: Option<&'a str>,
    /// Authority, without `//`.
    pub authority: Option<&'a str>,
    /// Userinfo, without `@`.
    pub userinfo: Option<&'a str>,
    /// Host (with brackets for an IP literal); present iff the authority is.
    pub host: Option<&'a str>,
    /// Host kind, when there is a host.
    pub host_kind: Option<HostKind>,
    /// Port digits, without `:`.
    pub port: Option<&'a str>,
    /// Path (always present).
    pub path: &'a str,
    /// Query, without `?`.
    pub query: Option<&'a str>,
    /// Fragment, without `#`.
    pub fragment: Option<&'a str>,
}

impl<'a> Components<'a> {
    /// Components of `s` given its metadata.
    pub fn of(s: &'a str, m: &Meta) -> Self {
        Components {
            scheme: m.scheme(s),
            authority: m.authority(s),
            userinfo: m.userinfo(s),
            host: m.host(s),
            host_kind: m.host(s).map(|_| m.host_kind()),
            port: m.port(s),
            path: m.path(s),
            query: m.query(s),
            fragment: m.fragment(s),
        }
    }

    /// Recomposes the components (RFC 3986 §5.3).
    pub fn recompose(&self, out: &mut String) {
        if let Some(s) = self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(a) = self.authority {
            out.push_str("//");
            out.push_str(a);
        }
        out.push_str(self.path);
        if let Some(q) = self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = self.fragment {
            out.push('#');
            out.push_str(f);
        }
    }
}

impl<'a, K: Spec> Ref<'a, K> {
    /// Validates `s` against `K`'s grammar.
    pub fn parse(s: &'a str) -> Result<Self, ParseError> {
        let meta = parse::parse(s, K::GRAMMAR)?;
        Ok(Ref {
            text: s,
            meta,
            _k: PhantomData,
        })
    }

    /// The text.
    pub fn as_str(&self) -> &'a str {
        self.text
    }
    /// The component offsets.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }
    /// Scheme, without `:`.
    pub fn scheme(&self) -> Option<&'a str> {
        self.meta.scheme(self.text)
    }
    /// Authority, without `//`.
    pub fn authority(&self) -> Option<&'a str> {
        self.meta.authority(self.text)
    }
    /// Userinfo, without `@`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.meta.userinfo(self.text)
    }
    /// Host; present iff the authority is.
    pub fn host(&self) -> Option<&'a str> {
        self.meta.host(self.text)
    }
    /// Host kind, when there is a host.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host().map(|_| self.meta.host_kind())
    }
    /// Port digits.
    pub fn port(&self) -> Option<&'a str> {
        self.meta.port(self.text)
    }
    /// Path.
    pub fn path(&self) -> &'a str {
        self.meta.path(self.text)
    }
    /// Query, without `?`.
    pub fn query(&self) -> Option<&'a str> {
        self.meta.query(self.text)
    }
    /// Fragment, without `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.meta.fragment(self.text)
    }
    /// All components.
    pub fn components(&self) -> Components<'a> {
        Components::of(self.text, &self.meta)
    }
    /// An owned copy.
    pub fn to_buf(&self) -> RefBuf<K> {
        RefBuf {
            text: self.text.to_owned(),
            meta: self.meta,
            _k: PhantomData,
        }
    }
    /// The same reference as a wider type (every URI is an IRI, every URI
    /// is a URI-reference...).
    pub fn upcast<K2: Spec>(self) -> Ref<'a, K2>
    where
        K: SubsetOf<K2>,
    {
        Ref {
            text: self.text,
            meta: self.meta,
            _k: PhantomData,
        }
    }
    /// The same reference as a narrower type, if it is valid there.
    pub fn try_cast<K2: Spec>(self) -> Result<Ref<'a, K2>, ParseError> {
        Ref::parse(self.text)
    }

    /// Resolves `r` against this base (RFC 3986 §5.2).
    pub fn resolve<R: Spec>(&self, r: &Ref<'_, R>) -> RefBuf<<K as ResolvesWith<R>>::Target>
    where
        K: ResolvesWith<R>,
    {
        let mut out = String::with_capacity(self.text.len() + r.text.len());
        resolve_into(self.text, &self.meta, r.text, &r.meta, &mut out);
        RefBuf::from_trusted(out)
    }
}

impl<'a> Iri<'a> {
    /// RFC 3987 §3.1 mapping to a URI (non-ASCII percent-encoded).
    pub fn to_uri(&self) -> UriBuf {
        to_uri_trusted(self.text)
    }
}
impl<'a> IriRef<'a> {
    /// RFC 3987 §3.1 mapping to a URI-reference.
    pub fn to_uri(&self) -> UriRefBuf {
        to_uri_trusted(self.text)
    }
}
impl<'a> Uri<'a> {
    /// RFC 3987 §3.2 conversion to an IRI.
    pub fn to_iri(&self) -> IriBuf {
        let mut out = String::with_capacity(self.text.len());
        mapping::uri_to_iri_into(self.text, &self.meta, &mut out);
        RefBuf::from_trusted(out)
    }
}
impl<'a> UriRef<'a> {
    /// RFC 3987 §3.2 conversion to an IRI-reference.
    pub fn to_iri(&self) -> IriRefBuf {
        let mut out = String::with_capacity(self.text.len());
        mapping::uri_to_iri_into(self.text, &self.meta, &mut out);
        RefBuf::from_trusted(out)
    }
}

fn to_uri_trusted<K: Spec>(s: &str) -> RefBuf<K> {
    let mut out = String::with_capacity(s.len() + s.len() / 2);
    crate::pct::push_non_ascii_encoded(&mut out, s);
    RefBuf::from_trusted(out)
}

impl<K: Spec> RefBuf<K> {
    /// Validates `s` against `K`'s grammar.
    pub fn parse(s: String) -> Result<Self, ParseError> {
        let meta = parse::parse(&s, K::GRAMMAR)?;
        Ok(RefBuf {
            text: s,
            meta,
            _k: PhantomData,
        })
    }

    /// For text this crate produced and knows to be valid: splits without
    /// validating (checked against the parser in debug builds).
    pub(crate) fn from_trusted(text: String) -> Self {
        debug_assert!(
            parse::parse(&text, K::GRAMMAR).is_ok(),
            "{text:?} is not {}",
            K::GRAMMAR
        );
        let meta = parse::split_trusted(&text);
        RefBuf {
            text,
            meta,
            _k: PhantomData,
        }
    }

    /// A borrowed view.
    pub fn as_ref(&self) -> Ref<'_, K> {
        Ref {
            text: &self.text,
            meta: self.meta,
            _k: PhantomData,
        }
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The text, owned.
    pub fn into_string(self) -> String {
        self.text
    }
}

impl<K: Spec> Clone for Ref<'_, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: Spec> Copy for Ref<'_, K> {}
impl<K: Spec> Clone for RefBuf<K> {
    fn clone(&self) -> Self {
        RefBuf {
            text: self.text.clone(),
            meta: self.meta,
            _k: PhantomData,
        }
    }
}

// Equality of typed references is rung 0 of the ladder: code point by code
// point (RFC 3986 §6.2.1). Use `irinorm::ladder` for anything else.
impl<K: Spec> PartialEq for Ref<'_, K> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl<K: Spec> Eq for Ref<'_, K> {}
impl<K: Spec> Hash for Ref<'_, K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state)
    }
}
impl<K: Spec> PartialEq for RefBuf<K> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl<K: Spec> Eq for RefBuf<K> {}
impl<K: Spec> Hash for RefBuf<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state)
    }
}

impl<K: Spec> fmt::Display for Ref<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}
impl<K: Spec> fmt::Debug for Ref<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?})", K::GRAMMAR, self.text)
    }
}
impl<K: Spec> fmt::Display for RefBuf<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
impl<K: Spec> fmt::Debug for RefBuf<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?})", K::GRAMMAR, self.text)
    }
}
impl<K: Spec> AsRef<str> for Ref<'_, K> {
    fn as_ref(&self) -> &str {
        self.text
    }
}
impl<K: Spec> AsRef<str> for RefBuf<K> {
    fn as_ref(&self) -> &str {
        &self.text
    }
}
impl<K: Spec> core::str::FromStr for RefBuf<K> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RefBuf::parse(s.to_owned())
    }
}
impl<'a, K: Spec> TryFrom<&'a str> for Ref<'a, K> {
    type Error = ParseError;
    fn try_from(s: &'a str) -> Result<Self, Self::Error> {
        Ref::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_say_what_they_hold() {
        assert!(Uri::parse("http://a/b#c").is_ok());
        assert!(AbsoluteUri::parse("http://a/b#c").is_err());
        assert!(Uri::parse("/b").is_err());
        assert!(RelativeRef::parse("/b").is_ok());
        assert!(Uri::parse("http://a/é").is_err());
        assert!(Iri::parse("http://a/é").is_ok());
        let u = AbsoluteUri::parse("http://a/b").unwrap();
        let as_iri: IriRef<'_> = u.upcast();
        assert_eq!(as_iri.path(), "/b");
        let r: Result<Uri<'_>, _> = UriRef::parse("a/b").unwrap().try_cast();
        assert!(r.is_err());
    }

    #[test]
    fn resolve_types() {
        let base = Uri::parse("http://a/b/c/d;p?q").unwrap();
        let t: UriBuf = base.resolve(&UriRef::parse("../g").unwrap());
        assert_eq!(t.as_str(), "http://a/b/g");
        let t: IriBuf = base.resolve(&IriRef::parse("é").unwrap());
        assert_eq!(t.as_str(), "http://a/b/c/é");
        assert_eq!(t.as_ref().host(), Some("a"));
    }

    #[test]
    fn mapping_types() {
        let i = Iri::parse("http://résumé.example.org/é").unwrap();
        assert_eq!(
            i.to_uri().as_str(),
            "http://r%C3%A9sum%C3%A9.example.org/%C3%A9"
        );
        let u = Uri::parse("http://a/D%C3%BCrst").unwrap();
        assert_eq!(u.to_iri().as_str(), "http://a/Dürst");
    }

    #[test]
    fn components_round_trip() {
        let s = "s://u@h:1/p?q#f";
        let c = IriRef::parse(s).unwrap().components();
        let mut out = String::new();
        c.recompose(&mut out);
        assert_eq!(out, s);
    }
}
