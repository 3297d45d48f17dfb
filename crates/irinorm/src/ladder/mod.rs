//! The comparison ladder of `LADDER.md`: rung 0 `string`, rung 1 `syntax`,
//! rung 2 `scheme` (RFC 3986 §6.2, RFC 3987 §5.3), as normalization, as
//! comparison and as hashing keys, in `uri` and `iri` forms.
//!
//! ```
//! use irinorm::ladder::{Normalizer, Options, Rung};
//! let n = Normalizer::new(Options::default()); // rung scheme, uri form
//! assert_eq!(n.normalize("HTTP://Example.COM:80/%7euser/./a").unwrap(), "http://example.com/~user/a");
//! assert_eq!(n.compare("http://a/b", "HTTP://A:80/b").unwrap(), Some(Rung::Scheme));
//! assert!(!n.equivalent("http://a/b%2Fc", "http://a/b/c").unwrap());
//! ```
//!
//! Invariants (`LADDER.md`, checked by property tests and fuzzing):
//! idempotent, stable structure, monotone across rungs, commutes with
//! resolution, `iri` and `uri` forms agree, reserved characters / `%25` /
//! invalid or overlong UTF-8 never decoded, total and linear.
//!
//! Fast path: [`Normalizer::normalize`] returns the input borrowed when it
//! is already normal; the parser's hints (upper case, triplets that would
//! change, dot segments, non-ASCII) decide that without a second pass.

pub mod charnorm;
pub(crate) mod host;
pub(crate) mod key;
pub(crate) mod percent;
pub(crate) mod port;
pub mod transcode;

use std::borrow::Cow;

use self::percent::{write_component, Ctx};
use crate::error::{Component, ErrorKind, ParseError};
use crate::host::HostKind;
use crate::idn::IdnaProfile;
use crate::norm::trace::{note, Change, NoTrace, Rule, Trace};
pub use crate::norm::{trace, Form, Rung, Warning};
use crate::parse::{
    self, Grammar, Meta, AUTH_DASH2, BIDI, DOT_SEG, HAS_AUTH, HAS_FRAGMENT, NON_ASCII, PCT_ANY,
    PCT_DIRTY, PCT_HIGH, UPPER_HOST, UPPER_SCHEME,
};
use crate::path::{PathMode, PathWriter};
use crate::scheme::{self, SchemeInfo, SchemeRegistry, Special};

pub use self::charnorm::CharNorm;
pub use self::key::Key;
pub use self::transcode::{decode_input, encoding_for_label};

/// How to normalize.
#[derive(Clone, Debug)]
pub struct Options {
    /// Highest rung applied (default: `scheme`).
    pub rung: Rung,
    /// Output alphabet (default: `uri`).
    pub form: Form,
    /// Leave the fragment out (RFC 3986 §6.1: comparing for a network action).
    pub ignore_fragment: bool,
    /// NFC / NFKC on request (default none, RFC 3987 §5.3.2.2).
    pub char_norm: CharNorm,
    /// Scheme knowledge for rung 2.
    pub schemes: SchemeRegistry,
    /// UTS #46 flags for DNS hosts.
    pub idna: IdnaProfile,
    /// Longer inputs are refused ([`ErrorKind::TooLong`]).
    pub max_len: usize,
}

/// Default maximum input length: 1 MiB. URLs in the wild stay under 64 KiB;
/// the bound keeps memory per line bounded in bulk runs.
pub const DEFAULT_MAX_LEN: usize = 1 << 20;

impl Default for Options {
    fn default() -> Self {
        Options {
            rung: Rung::Scheme,
            form: Form::Uri,
            ignore_fragment: false,
            char_norm: CharNorm::None,
            schemes: SchemeRegistry::builtin(),
            idna: IdnaProfile::default(),
            max_len: DEFAULT_MAX_LEN,
        }
    }
}

impl Options {
    /// Options for a rung and form, the rest default.
    pub fn new(rung: Rung, form: Form) -> Self {
        Options {
            rung,
            form,
            ..Options::default()
        }
    }
}

/// A normalized reference and what could not be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalized<'a> {
    /// The normal form (borrowed when the input was already normal).
    pub text: Cow<'a, str>,
    /// Reported problems (the text is still valid and normal).
    pub warnings: Vec<Warning>,
}

/// Which side of a comparison failed to parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first argument.
    A,
    /// The second argument.
    B,
}

/// A comparison whose input was not a valid reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareError {
    /// Which input.
    pub side: Side,
    /// Why.
    pub error: ParseError,
}

impl core::fmt::Display for CompareError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}: {}",
            if self.side == Side::A { "a" } else { "b" },
            self.error
        )
    }
}

impl std::error::Error for CompareError {}

/// One rung and form of an [`Explanation`].
#[derive(Clone, Debug)]
pub struct Step {
    /// The rung.
    pub rung: Rung,
    /// The form.
    pub form: Form,
    /// The normal form.
    pub output: String,
    /// Every change, in order.
    pub changes: Vec<Change>,
    /// What could not be done.
    pub warnings: Vec<Warning>,
}

/// `explain`: the input at every rung, in both forms, with each rule that
/// changed something.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The input.
    pub input: String,
    /// One step per (rung, form).
    pub steps: Vec<Step>,
}

/// Normalizes, compares and hashes references with fixed [`Options`] and
/// an optional base. Cheap to clone; `Sync`, so one can serve many threads.
#[derive(Clone, Debug)]
pub struct Normalizer {
    opts: Options,
    base: Option<(String, Meta)>,
    /// `opts`' rung 2 answers for `http`, `https` and `file`, looked up
    /// once ([`HotSchemes`]).
    hot: HotSchemes,
}

impl Default for Normalizer {
    fn default() -> Self {
        Normalizer::new(Options::default())
    }
}

impl Normalizer {
    /// A normalizer with these options.
    pub fn new(opts: Options) -> Self {
        let hot = HotSchemes::of(&opts, false);
        Normalizer {
            opts,
            base: None,
            hot,
        }
    }

    /// Resolves every relative reference against `base` (an IRI; its
    /// fragment is ignored) before normalizing or comparing (RFC 3986 §6.1,
    /// §5.2).
    pub fn with_base(mut self, base: &str) -> Result<Self, ParseError> {
        let m = parse::parse(base, Grammar::Iri)?;
        self.base = Some((base.to_owned(), m));
        self.hot = HotSchemes::of(&self.opts, true);
        Ok(self)
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The normal form of `input`, borrowed when the input is already normal.
    pub fn normalize<'a>(&self, input: &'a str) -> Result<Cow<'a, str>, ParseError> {
        self.normalize_full(input).map(|n| n.text)
    }

    /// The normal form and the warnings.
    pub fn normalize_full<'a>(&self, input: &'a str) -> Result<Normalized<'a>, ParseError> {
        let mut m = Meta::default();
        let scanned = self.parse_input_into(input, &mut m)?;
        let fast = self.fast_path(input, &m, &self.opts, scanned);
        match fast {
            Fast::Same => {
                return Ok(Normalized {
                    text: Cow::Borrowed(input),
                    warnings: Vec::new(),
                })
            }
            Fast::Root => {
                let mut out = String::with_capacity(input.len() + 1);
                push_with_root(&mut out, input, &m);
                return Ok(Normalized {
                    text: Cow::Owned(out),
                    warnings: Vec::new(),
                });
            }
            Fast::Slow | Fast::Repair => {}
        }
        let mut out = String::with_capacity(input.len() + 16);
        let mut warnings = Vec::new();
        self.run_slow(
            fast,
            input,
            &m,
            &self.opts,
            &mut out,
            &mut NoTrace,
            &mut warnings,
        );
        let text = if out == input {
            Cow::Borrowed(input)
        } else {
            Cow::Owned(out)
        };
        Ok(Normalized { text, warnings })
    }

    /// Appends the normal form of `input` to `out` (nothing is appended on
    /// error); returns the warnings. The allocation-free entry point for
    /// bulk work: reuse `out`.
    pub fn normalize_into(
        &self,
        input: &str,
        out: &mut String,
    ) -> Result<Vec<Warning>, ParseError> {
        // The list is made in the slow arm only: made here, it lived on
        // the stack for the whole call (the slow arm borrows it) and was
        // copied to the caller's result on every fast answer, sixteen
        // bytes read from two eight-byte stores (issue 14, round 22).
        self.write_text(input, out, |fast, m, out| {
            let mut warnings = Vec::new();
            self.run_slow(fast, input, m, &self.opts, out, &mut NoTrace, &mut warnings);
            warnings
        })
    }

    /// [`Normalizer::normalize_into`] for a caller that reads only the
    /// text (a bulk run writing the normal forms: the CLI's `normalize`):
    /// the same text, the warnings dropped. Only the slow arm makes a list
    /// of them; the fast path has no `Vec` to make, hand back and drop, and
    /// the `Result` fits two registers (issue 14, round 14: about 20
    /// instructions per line of the CLI, callgrind).
    pub fn normalize_text_only(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        self.write_text(input, out, |fast, m, out| {
            let mut warnings = Vec::new();
            self.run_slow(fast, input, m, &self.opts, out, &mut NoTrace, &mut warnings);
        })
    }

    /// The text of [`Normalizer::normalize_into`] and
    /// [`Normalizer::normalize_text_only`]: parse, then the fast answers in
    /// order of frequency (a `match` here became a jump table), else `slow`
    /// (the slow arm, given the fast path's verdict and the `Meta`), whose
    /// value is returned (the fast answers return `R::default()`: no
    /// warnings). As `normalize_into_split`, without moving the `Meta`
    /// around. Inlined into each entry, so that each keeps its own
    /// `Result` and only the slow arms make a list of warnings.
    #[inline(always)]
    fn write_text<R: Default>(
        &self,
        input: &str,
        out: &mut String,
        slow: impl FnOnce(Fast, &Meta, &mut String) -> R,
    ) -> Result<R, ParseError> {
        let mut m = Meta::default();
        let scanned = self.parse_input_into(input, &mut m)?;
        let fast = self.fast_path(input, &m, &self.opts, scanned);
        if fast == Fast::Same {
            out.push_str(input);
        } else if fast == Fast::Root {
            push_with_root(out, input, &m);
        } else {
            return Ok(slow(fast, &m, out));
        }
        Ok(R::default())
    }

    /// [`Normalizer::normalize_into`], and the components of the text it
    /// appended (offsets from the start of the appended text), known
    /// without a second scan: when the input was already normal, the
    /// appended text is the input and its components are the parser's;
    /// otherwise the ladder noted each component's start as it wrote it
    /// (then the `Meta` is what [`crate::split_trusted`] gives on the
    /// output: every hint set). Always `Some` today; `None` stays allowed
    /// (the caller then splits the output itself). For layers on top of
    /// the ladder (named rules: issue 14, `crawler` on rewritten input).
    #[inline]
    pub fn normalize_into_split(
        &self,
        input: &str,
        out: &mut String,
    ) -> Result<(Vec<Warning>, Option<Meta>), ParseError> {
        let mut m = Meta::default();
        let warnings = self.split_in_place(input, out, &mut m)?;
        Ok((warnings, Some(m)))
    }

    /// [`Normalizer::normalize_into_split`] with the components written
    /// into the caller's `meta` (whatever it held before; left unspecified
    /// on error): the text appended to `out`, the warnings returned. For
    /// a caller that reads the components where they lie: returned in the
    /// `Result`, the `Meta` the scanner had just written field by field
    /// was copied into it in sixteen-byte pieces (store-to-load forwarding
    /// fails there) through a temporary, on every URL of `rfc` and
    /// `crawler` (issue 14, round 22).
    #[inline]
    pub fn normalize_into_meta(
        &self,
        input: &str,
        out: &mut String,
        meta: &mut Meta,
    ) -> Result<Vec<Warning>, ParseError> {
        *meta = Meta::default();
        self.split_in_place(input, out, meta)
    }

    /// The body of [`Normalizer::normalize_into_split`] and
    /// [`Normalizer::normalize_into_meta`]: `m` (`Meta::default()`) becomes
    /// the components of the appended text. The list of warnings is made
    /// in the slow arm only (as in [`Normalizer::normalize_into`]).
    #[inline(always)]
    fn split_in_place(
        &self,
        input: &str,
        out: &mut String,
        m: &mut Meta,
    ) -> Result<Vec<Warning>, ParseError> {
        let scanned = self.parse_input_into(input, m)?;
        let start = out.len();
        let mut warnings = Vec::new();
        match self.fast_path(input, m, &self.opts, scanned) {
            Fast::Same => {
                out.push_str(input);
                return Ok(Vec::new());
            }
            Fast::Root => *m = push_with_root(out, input, m),
            // Repair and Slow in one arm, out of line (issue 14, round 13).
            fast => {
                *m = self.run_slow(fast, input, m, &self.opts, out, &mut NoTrace, &mut warnings);
            }
        }
        debug_assert_eq!(
            *m,
            parse::split_trusted(&out[start..]),
            "the ladder's offsets for {input:?}"
        );
        Ok(warnings)
    }

    /// The comparison key of `input` at the configured rung: the `uri`-form
    /// normal string, without the fragment when `ignore_fragment`, and
    /// without the r/q/f-components of a URN (RFC 8141 §3.1). Two inputs
    /// are equivalent at that rung iff their keys are equal.
    pub fn key(&self, input: &str) -> Result<String, ParseError> {
        let mut out = String::with_capacity(input.len() + 8);
        self.key_into(input, &mut out)?;
        Ok(out)
    }

    /// [`Normalizer::key`], appended to `out`.
    pub fn key_into(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        self.key_at(self.opts.rung, input, out).map(|_| ())
    }

    /// [`Normalizer::key_into`], and the components of the key when they
    /// are known without a second scan (as [`Normalizer::normalize_into_split`]).
    #[inline]
    pub fn key_into_split(
        &self,
        input: &str,
        out: &mut String,
    ) -> Result<Option<Meta>, ParseError> {
        self.key_at(self.opts.rung, input, out)
    }

    /// A 128-bit digest of the key (xxh3-128): for sets of hundreds of
    /// millions of keys. Two different keys collide with probability about
    /// 2^-128; among n keys, about n²/2^129 (for n = 10^9: 1.5·10^-21).
    pub fn digest(&self, input: &str) -> Result<Key, ParseError> {
        self.key_split(input).map(|(k, _)| Key::of(&k))
    }

    /// The key of `input`, borrowed when it is the input itself (already
    /// normal: the fast path never holds for a URN at rung 2, the one
    /// scheme whose key differs from its normal form), with its components
    /// then (as [`Normalizer::normalize_into_split`]). No allocation for
    /// already-normal input: what digests and the named rules build on.
    pub fn key_split<'a>(
        &self,
        input: &'a str,
    ) -> Result<(Cow<'a, str>, Option<Meta>), ParseError> {
        let mut m = Meta::default();
        let scanned = self.parse_input_into(input, &mut m)?;
        let opts = self.key_options(self.opts.rung);
        let fast = self.fast_path(input, &m, &opts, scanned);
        if fast == Fast::Same {
            return Ok((Cow::Borrowed(input), Some(m)));
        }
        let mut s = String::with_capacity(input.len() + 8);
        if fast == Fast::Root {
            push_with_root(&mut s, input, &m);
        } else {
            self.run_slow(
                fast,
                input,
                &m,
                &opts,
                &mut s,
                &mut NoTrace,
                &mut Vec::new(),
            );
        }
        key::project(&mut s, 0, &opts);
        Ok((Cow::Owned(s), None))
    }

    /// Whether `a` and `b` are equivalent at the configured rung.
    pub fn equivalent(&self, a: &str, b: &str) -> Result<bool, CompareError> {
        let (mut ka, mut kb) = (String::new(), String::new());
        self.key_into(a, &mut ka).map_err(|error| CompareError {
            side: Side::A,
            error,
        })?;
        self.key_into(b, &mut kb).map_err(|error| CompareError {
            side: Side::B,
            error,
        })?;
        Ok(ka == kb)
    }

    /// The lowest rung at which `a` and `b` are equivalent (`None`:
    /// different at every rung up to `scheme`). The configured rung does
    /// not limit the search; compare the result with it.
    pub fn compare(&self, a: &str, b: &str) -> Result<Option<Rung>, CompareError> {
        let (mut ka, mut kb) = (String::new(), String::new());
        for r in Rung::ALL {
            ka.clear();
            kb.clear();
            self.key_at(r, a, &mut ka).map_err(|error| CompareError {
                side: Side::A,
                error,
            })?;
            self.key_at(r, b, &mut kb).map_err(|error| CompareError {
                side: Side::B,
                error,
            })?;
            if ka == kb {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }

    /// `input` at every rung, in both forms, with every change.
    pub fn explain(&self, input: &str) -> Result<Explanation, ParseError> {
        let mut m = Meta::default();
        self.parse_input_into(input, &mut m)?;
        let mut steps = Vec::new();
        for rung in Rung::ALL {
            for form in [Form::Uri, Form::Iri] {
                let opts = Options {
                    rung,
                    form,
                    ..self.opts.clone()
                };
                let mut changes: Vec<Change> = Vec::new();
                let mut warnings = Vec::new();
                let mut out = String::new();
                self.run(input, &m, &opts, &mut out, &mut changes, &mut warnings);
                steps.push(Step {
                    rung,
                    form,
                    output: out,
                    changes,
                    warnings,
                });
            }
        }
        Ok(Explanation {
            input: input.to_owned(),
            steps,
        })
    }

    /// Parses an input (at most `max_len` bytes, as `IRI-reference`) into
    /// `m` (`Meta::default()`): the wide scanner inlined here, writing in place, so that the `Meta` of the
    /// path most inputs take is never copied as a whole (BENCHMARKS.md,
    /// issue 14: the copy of a `Meta` written field by field stalled
    /// store-to-load forwarding).
    ///
    /// Also what the wide scanner proved on the way ([`Scanned`]), which
    /// [`fast_kind`] and [`Normalizer::fast_hot`] then need not check
    /// again (issue 14, rounds 5 and 6).
    #[inline(always)]
    fn parse_input_into(&self, input: &str, m: &mut Meta) -> Result<Scanned, ParseError> {
        if input.len() > self.opts.max_len {
            return Err(ParseError::whole(ErrorKind::TooLong, self.opts.max_len));
        }
        // What the scan refused from the start is scanned again with upper
        // case accepted in the scheme and host (RFC 3986 §6.2.2.1: the
        // ladder then repairs or rewrites the reference), out of line: in
        // the first scan it made the already-normal path longer (issue 14,
        // round 13, callgrind); else the full parser from the first byte.
        let scan = match crate::scan::common_or_resume(input, m) {
            Err(None) => crate::scan::upper_or_resume(input, m),
            scan => scan,
        };
        match scan {
            Ok(()) => {
                debug_assert_eq!(Ok(*m), parse::parse_full(input, Grammar::IriReference));
                Ok(Scanned::Whole)
            }
            // The scanner stopped after the authority (a lower-case triplet
            // in a long query...): the parser goes on from there, nothing
            // is read twice (issue 14, round 4).
            Err(Some(r)) => {
                let got = parse::parse_from(input, Grammar::IriReference, m, r);
                debug_assert_eq!(got, parse::parse_full(input, Grammar::IriReference));
                *m = got?;
                Ok(Scanned::Authority)
            }
            Err(None) => {
                *m = parse::parse_full(input, Grammar::IriReference)?;
                Ok(Scanned::No)
            }
        }
    }

    /// The key at `rung` appended to `out`; its components when known
    /// (the fast answers: the key is the text they wrote).
    fn key_at(
        &self,
        rung: Rung,
        input: &str,
        out: &mut String,
    ) -> Result<Option<Meta>, ParseError> {
        let mut m = Meta::default();
        Ok(self.key_in_place(rung, input, out, &mut m)?.then_some(m))
    }

    /// [`Normalizer::key_into_split`] with the components written into the
    /// caller's `meta` (whatever it held before): `Ok(true)` when they are
    /// the key's, `Ok(false)` when the caller must split the key itself
    /// (the slow path, whose key may be projected); unspecified on error.
    /// For a caller that reads the components where they lie, as
    /// [`Normalizer::normalize_into_meta`] (issue 14, round 22): returned
    /// in the `Result`, the `Meta` the scanner had just written field by
    /// field was copied in wider pieces on every key (`dedupe`'s path;
    /// issue 14, round 23).
    #[inline]
    pub fn key_into_meta(
        &self,
        input: &str,
        out: &mut String,
        meta: &mut Meta,
    ) -> Result<bool, ParseError> {
        *meta = Meta::default();
        self.key_in_place(self.opts.rung, input, out, meta)
    }

    /// The body of [`Normalizer::key_at`] and [`Normalizer::key_into_meta`]:
    /// `m` (`Meta::default()`) becomes the components of the appended key
    /// when the answer is `true`.
    #[inline(always)]
    fn key_in_place(
        &self,
        rung: Rung,
        input: &str,
        out: &mut String,
        m: &mut Meta,
    ) -> Result<bool, ParseError> {
        let scanned = self.parse_input_into(input, m)?;
        let opts = self.key_options(rung);
        let start = out.len();
        match self.fast_path(input, m, &opts, scanned) {
            // Never a URN at rung 2 on the fast path (it refuses scheme
            // normalizers): the projection has nothing to remove.
            Fast::Same => {
                out.push_str(input);
                return Ok(true);
            }
            // The text written is the key, and these writers know its
            // components (as in `split_in_place`): the rules need not
            // split it again.
            Fast::Root => *m = push_with_root(out, input, m),
            // `http` or `https` only: nothing for the projection either.
            Fast::Repair => *m = self.push_repaired_any(out, input, m, &opts),
            Fast::Slow => {
                self.run(input, m, &opts, out, &mut NoTrace, &mut Vec::new());
                key::project(out, start, &opts);
                return Ok(false);
            }
        }
        debug_assert_eq!(
            *m,
            parse::split_trusted(&out[start..]),
            "the key's offsets for {input:?}"
        );
        Ok(true)
    }

    /// The options of a key at `rung`: `uri` form (borrowed when the
    /// normalizer's own options are those).
    fn key_options(&self, rung: Rung) -> Cow<'_, Options> {
        if rung == self.opts.rung && self.opts.form == Form::Uri {
            Cow::Borrowed(&self.opts)
        } else {
            Cow::Owned(Options {
                rung,
                form: Form::Uri,
                ..self.opts.clone()
            })
        }
    }

    /// Whether the normal form of `input` (parsed as `m`) under `o` is
    /// known without computing it: no base, no character normalization,
    /// and the parser's hints say so ([`fast_kind`]). Debug builds check
    /// the answer against the full computation (same text, no warnings).
    /// `scanned`: what the wide scanner proved
    /// ([`Normalizer::parse_input_into`]). The common case (an `http`,
    /// `https` or `file` URL the scanner validated) is answered inline
    /// ([`Normalizer::fast_hot`]), the rest by [`fast_kind`]; debug builds
    /// check that both give the same answer. Always inlined: a call here
    /// cost more than the inline answer itself (round 6).
    #[inline(always)]
    fn fast_path(&self, input: &str, m: &Meta, o: &Options, scanned: Scanned) -> Fast {
        let fast = match self.fast_hot(input, m, o, scanned) {
            Some(hot) => {
                debug_assert_eq!(hot, fast_kind(input, m, o, scanned), "{input:?}");
                hot
            }
            None if self.base.is_some() || o.char_norm != CharNorm::None => Fast::Slow,
            None => self.fast_cold(input, m, o, scanned),
        };
        #[cfg(debug_assertions)]
        if fast != Fast::Slow {
            let (mut out, mut w) = (String::new(), Vec::new());
            write_normal(input, m, o, &mut out, &mut NoTrace, &mut w);
            let mut want = String::new();
            match fast {
                Fast::Root => {
                    push_with_root(&mut want, input, m);
                }
                Fast::Repair => {
                    self.push_repaired_any(&mut want, input, m, o);
                }
                _ => want.push_str(input),
            }
            assert!(
                out == want && w.is_empty(),
                "fast path {fast:?} is wrong for {input:?} at {} / {}: {out:?} {w:?}",
                o.rung,
                o.form.name()
            );
        }
        fast
    }

    /// [`fast_kind`] for the references most lists are made of, inline and
    /// with what the scanner and the normalizer's construction already
    /// know: `None` when the reference is not one of them (then ask
    /// [`fast_kind`]). Issue 14, round 6: `fast_kind` was about 130
    /// instructions per already-normal URL (a call, its registers saved,
    /// the scheme looked up by name, the profile's flags read, the `file`
    /// host compared with `localhost`, a second look at the path when a
    /// segment starts with `.`); this is about 25 (BENCHMARKS.md).
    ///
    /// Handled here: rung 2, an authority validated by the scanner
    /// ([`Scanned::Authority`] or [`Scanned::Whole`]), no port, and the
    /// scheme `http`, `https` or `file` (not `localhost`), known by the
    /// first eight bytes. What is not checked again, and why:
    /// - the scheme's name: a reference that begins `https://` (`http://`,
    ///   `file://`) has that scheme (RFC 3986 §3.1: it ends at the first
    ///   `:`; `//` then starts the authority, §3.2); its rung 2 rules are
    ///   [`HotSchemes`]', computed from the same registry and profile;
    /// - the host's UTS #46 search: the scanner's host run (`scan::HOST_RUN`)
    ///   admits only lower-case ASCII `reg-name` bytes without `%` or `--`,
    ///   so only the profile's ASCII checks can make it change (as in
    ///   [`fast_kind`]); and it yields a `reg-name` or IPv4 host, never an IP
    ///   literal, so no IPv6 zone either (test
    ///   `hosts_the_scanner_refuses_are_still_refused`);
    /// - dot segments, after a whole scan: the scanner stops at every `/.`
    ///   and hands a segment that is `.` or `..` whole to the parser
    ///   (`scan::common_fields`), so a DOT_SEG hint on [`Scanned::Whole`] is a
    ///   segment like `.well-known`, which no rung changes (RFC 3986 §5.2.4)
    ///   (test `whole_dot_segments_are_never_scanned`).
    #[inline(always)]
    fn fast_hot(&self, s: &str, m: &Meta, o: &Options, scanned: Scanned) -> Option<Fast> {
        const HTTPS: u64 = u64::from_le_bytes(*b"https://");
        const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
        const FILE: u64 = u64::from_le_bytes(*b"file://\0");
        const SEVEN: u64 = 0x00ff_ffff_ffff_ffff;
        let b = s.as_bytes();
        // The normalizer's own options were judged once; a key's options
        // (another rung or form) are judged here.
        let mode = if core::ptr::eq(o, &self.opts) {
            self.hot.own
        } else {
            Mode::of(o, self.base.is_some())
        };
        if !mode.on || scanned == Scanned::No || m.port_start != 0 || b.len() < 8 {
            return None;
        }
        let mut deny = mode.deny;
        if scanned != Scanned::Whole {
            deny |= DOT_SEG;
        }
        if m.flags & (deny | HAS_AUTH) != HAS_AUTH {
            return None;
        }
        let head = u64::from_le_bytes(b[..8].try_into().expect("eight bytes"));
        let hot = if head == HTTPS {
            self.hot.https
        } else if head & SEVEN == HTTP {
            self.hot.http
        } else if head & SEVEN == FILE {
            self.hot.file
        } else {
            return None;
        };
        debug_assert!(matches!(m.scheme_end, 4 | 5), "{s:?}");
        debug_assert_eq!(hot.named_host_slow, {
            let info = o.schemes.get(&s[..m.scheme_end as usize]);
            info.is_some_and(|i| i.dns_host) && o.idna.checks_ascii()
        });
        debug_assert!(m.host_kind() != HostKind::Ipv6, "{s:?}");
        // `http` and `https` under the usual profiles: none of the checks
        // below can refuse (issue 14, round 9: about ten instructions per
        // URL, the `localhost` length and the host's emptiness and kind
        // read for nothing).
        if hot.plain {
            return Some(if hot.root && m.path_start == m.path_end {
                Fast::Root
            } else {
                Fast::Same
            });
        }
        let (hs, he) = (m.host_start as usize, m.host_end as usize);
        let empty_host = hs == he;
        // `file://localhost/p` is `file:///p` (RFC 8089 §2): [`fast_kind`]
        // says so. A scanned host holds no `%` and no upper case, so
        // `localhost` has no other spelling here (`is_file_localhost` also
        // decodes triplets and folds case).
        if !hot.known || (hot.file && he - hs == 9 && &b[hs..he] == b"localhost") {
            return None;
        }
        // Under a profile that checks ASCII names, [`fast_kind`] asks
        // UTS #46 whether it keeps the host (`uts46_keeps`).
        if hot.named_host_slow && !empty_host && m.host_kind() == HostKind::RegName {
            return None;
        }
        Some(if hot.root && m.path_start == m.path_end {
            Fast::Root
        } else {
            Fast::Same
        })
    }

    /// [`Normalizer::fast_path`] for what [`Normalizer::fast_hot`]
    /// refused: [`Fast::Repair`] when [`Normalizer::repairable`] says so,
    /// else [`fast_kind`]. One call out of line, as `fast_kind` alone was
    /// (issue 14, round 13: `repairable` asked inline made the
    /// already-normal path longer).
    #[inline(never)]
    fn fast_cold(&self, input: &str, m: &Meta, o: &Options, scanned: Scanned) -> Fast {
        // Nothing to repair without upper case, a triplet, non-ASCII, a
        // dot segment or a port: one test for the rest of the slow path.
        const REPAIRED: u16 =
            UPPER_SCHEME | UPPER_HOST | PCT_DIRTY | NON_ASCII | PCT_HIGH | DOT_SEG;
        if m.flags & REPAIRED == 0 && m.port_start == 0 {
            return fast_kind(input, m, o, scanned);
        }
        if self.repairable(input, m, o, scanned) {
            debug_assert_eq!(fast_kind(input, m, o, scanned), Fast::Slow, "{input:?}");
            return Fast::Repair;
        }
        fast_kind(input, m, o, scanned)
    }

    /// What the entry points do when [`Normalizer::fast_path`] says
    /// [`Fast::Slow`] or [`Fast::Repair`]: [`Normalizer::push_repaired`] or
    /// the full computation ([`Normalizer::run`]). Returns the components
    /// of what it appended, as [`write_normal`].
    ///
    /// One arm out of line (issue 14, round 13): a fourth arm in the
    /// dispatch after the scan spilled a register and added jumps on the
    /// already-normal path (round 12: +1.4% instructions on already-normal
    /// references, callgrind). Generic, as [`Normalizer::run`], so that it
    /// and the `write_normal` it calls are compiled where they are used: a
    /// plain function here ran the slow kinds 2% to 5% slower (callgrind).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn run_slow<T: Trace>(
        &self,
        fast: Fast,
        input: &str,
        m: &Meta,
        o: &Options,
        out: &mut String,
        trace: &mut T,
        warnings: &mut Vec<Warning>,
    ) -> Meta {
        if fast == Fast::Repair {
            return self.push_repaired_any(out, input, m, o);
        }
        // Without a base or character normalization, `run` is
        // `write_normal` after a copy of the `Meta`.
        if self.base.is_none() && o.char_norm == CharNorm::None {
            return write_normal(input, m, o, out, trace, warnings);
        }
        self.run(input, m, o, out, trace, warnings)
    }

    /// The references [`Normalizer::fast_path`] refuses whose normal form
    /// is still known without [`write_normal`]: `http` or `https` (any
    /// case) under the usual profiles (`Hot::plain`), an authority the
    /// scanner validated, and nothing to change but upper case in the
    /// scheme or host and the port (RFC 3986 §6.2.2.1, §6.2.3): what
    /// [`Normalizer::push_repaired`] writes. Issue 14, round 12: these were about
    /// 1,000 instructions each in `write_normal` (upper-case hosts, default
    /// and empty ports: a tenth of the frontier). Asked on the slow path
    /// only ([`Normalizer::run_slow`]): the already-normal references never
    /// call it.
    fn repairable(&self, s: &str, m: &Meta, o: &Options, scanned: Scanned) -> bool {
        let b = s.as_bytes();
        const HTTPS: u64 = u64::from_le_bytes(*b"https://");
        const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
        const SEVEN: u64 = 0x00ff_ffff_ffff_ffff;
        // Bit 5 of each letter's byte: `c | 0x20` is the lower-case letter
        // iff `c` is that letter in either case.
        const CASE5: u64 = 0x0000_0020_2020_2020;
        const CASE4: u64 = 0x0000_0000_2020_2020;
        // As `fast_hot`: its options judged, the authority scanned, and the
        // hints that refuse the fast path (DOT_SEG unless scanned whole)
        // but upper case in the scheme and host.
        let mode = if core::ptr::eq(o, &self.opts) {
            self.hot.own
        } else {
            Mode::of(o, self.base.is_some())
        };
        if !mode.on || scanned == Scanned::No || b.len() < 8 {
            return false;
        }
        let mut deny = mode.deny;
        if scanned != Scanned::Whole {
            deny |= DOT_SEG;
        }
        // An ignored fragment is the one hint left to the full computation
        // (the key's projection); the rest is repaired.
        if m.flags & ((deny & HAS_FRAGMENT) | HAS_AUTH) != HAS_AUTH {
            return false;
        }
        let head = u64::from_le_bytes(b[..8].try_into().expect("eight bytes"));
        let (hot, default_port) = if head | CASE5 == HTTPS {
            (self.hot.https, self.hot.ports[1])
        } else if (head | CASE4) & SEVEN == HTTP {
            (self.hot.http, self.hot.ports[0])
        } else {
            return false;
        };
        // Something to repair: else [`Normalizer::run`] (an already-normal
        // port is not refused by `fast_hot` alone: `fast_kind` judged it).
        // A DOT_SEG hint after a partial scan may be `.well-known`: looked
        // at as [`fast_kind`] looks (issue 14, round 15).
        let repair = m.flags & deny & !(HAS_FRAGMENT | DOT_SEG) != 0
            || m.port(s).is_some_and(|p| !port::is_normal(p, default_port))
            || (m.flags & deny & DOT_SEG != 0 && crate::path::has_dot_segment(m.path(s)));
        hot.plain && repair
    }

    /// The input repaired as [`Normalizer::repairable`] found it can be:
    /// its scheme and host lower-cased (RFC 3986 §6.2.2.1), its port
    /// written as rung 2 writes it (no empty or default port, no leading
    /// zeros: §6.2.3, [`port::write_port`]), `/` for an empty path where
    /// the scheme says so, and the rest copied. Returns the components of
    /// what it appended, as [`write_normal`] does (every hint set).
    #[inline(never)]
    fn push_repaired(&self, out: &mut String, s: &str, m: &Meta) -> Meta {
        let (hot, _, new_ps, mut r) = self.repair_head(out, s, m);
        let (ps, pe) = (m.path_start as usize, m.path_end as usize);
        let root = u32::from(hot.root && ps == pe);
        if root == 1 {
            out.push('/');
        }
        out.push_str(&s[ps..]);
        // Every offset from the path on moves by the same amount.
        let shift = |x: u32| (x as usize - ps + new_ps) as u32;
        r.path_start = new_ps as u32;
        r.path_end = shift(m.path_end) + root;
        r.query_end = shift(m.query_end) + root;
        r
    }

    /// [`Fast::Repair`]'s text: [`Normalizer::push_repaired_tail`] when
    /// the hints say rung 1 may change the path, query or fragment (one
    /// constant mask; non-ASCII in `iri` form is kept, but goes there too:
    /// the same text, rare beside upper case or a port), else
    /// [`Normalizer::push_repaired`], whose signature and code stay as
    /// they were: given the options too, it made the repair of upper case
    /// and ports dearer (callgrind, issue 14, round 15).
    #[inline(always)]
    fn push_repaired_any(&self, out: &mut String, s: &str, m: &Meta, o: &Options) -> Meta {
        if m.flags & (PCT_DIRTY | NON_ASCII | PCT_HIGH | DOT_SEG) != 0 {
            return self.push_repaired_tail(out, s, m, o);
        }
        self.push_repaired(out, s, m)
    }

    /// [`Normalizer::push_repaired`] when rung 1 changes the path, query or
    /// fragment: a triplet (RFC 3986 §6.2.2.1 upper-case hex, §6.2.2.2
    /// unreserved decoded), non-ASCII the form encodes (RFC 3987 §3.1) or
    /// a dot segment (RFC 3986 §6.2.2.3) after an authority the scanner
    /// validated. The scheme and authority repaired as there, the rest as
    /// [`write_normal`] writes it ([`write_tail`]), without its scheme
    /// look-up and host writer (issue 14, round 15). Out of line: in
    /// `push_repaired`, it made the repair of upper case and ports dearer
    /// (callgrind).
    #[inline(never)]
    fn push_repaired_tail(&self, out: &mut String, s: &str, m: &Meta, o: &Options) -> Meta {
        let (hot, start, new_ps, mut r) = self.repair_head(out, s, m);
        r.path_start = new_ps as u32;
        write_tail(s, m, o, out, start, &mut r, hot.root, &mut NoTrace);
        r
    }

    /// The scheme and authority of [`Normalizer::push_repaired`]: the
    /// scheme's rules, where the text began, where the path begins in it,
    /// and the components so far (every hint set).
    #[inline(always)]
    fn repair_head(&self, out: &mut String, s: &str, m: &Meta) -> (Hot, usize, usize, Meta) {
        // `http` or `https` (`repairable`), told apart by their fifth byte.
        let (hot, default_port) = if s.as_bytes()[4] == b':' {
            (self.hot.http, self.hot.ports[0])
        } else {
            (self.hot.https, self.hot.ports[1])
        };
        let start = out.len();
        let (se, hs, he) = (
            m.scheme_end as usize,
            m.host_start as usize,
            m.host_end as usize,
        );
        out.push_str(&s[..he]);
        if m.has(UPPER_SCHEME) {
            out[start..start + se].make_ascii_lowercase();
        }
        if m.has(UPPER_HOST) {
            out[start + hs..start + he].make_ascii_lowercase();
        }
        let mut r = *m;
        r.flags |= parse::HINTS;
        if let Some(p) = m.port(s) {
            let at = out.len();
            port::write_port(out, p, default_port, m.port_start as usize, &mut NoTrace);
            r.port_start = if out.len() == at { 0 } else { he as u32 + 1 };
        }
        (hot, start, out.len() - start, r)
    }

    /// Everything before the ladder proper: base resolution and character
    /// normalization, then [`write_normal`].
    /// Returns the components of what it appended, as [`write_normal`].
    fn run<T: Trace>(
        &self,
        input: &str,
        m: &Meta,
        o: &Options,
        out: &mut String,
        t: &mut T,
        w: &mut Vec<Warning>,
    ) -> Meta {
        let resolved;
        let (mut s, mut meta) = (input, *m);
        if let Some((base, bm)) = &self.base {
            let mut r = String::with_capacity(base.len() + input.len());
            crate::resolve::resolve_into(base, bm, input, m, &mut r);
            if r != input {
                note(t, Rule::ResolveBase, None, None, input, &r);
            }
            resolved = r;
            s = &resolved;
            meta =
                parse::parse(s, Grammar::IriReference).unwrap_or_else(|_| parse::split_trusted(s));
        }
        if o.char_norm != CharNorm::None && o.rung != Rung::String {
            // Character normalization applies to the readable form, so that
            // percent-encoded UTF-8 is normalized too; the result is then
            // normalized again at the requested rung and form.
            let mut iri = String::with_capacity(s.len());
            let syntax_iri = Options {
                rung: Rung::Syntax,
                form: Form::Iri,
                char_norm: CharNorm::None,
                ..o.clone()
            };
            write_normal(
                s,
                &meta,
                &syntax_iri,
                &mut iri,
                &mut NoTrace,
                &mut Vec::new(),
            );
            let mut kept = Vec::new();
            let normalized = charnorm::apply_reporting(&iri, o.char_norm, &mut kept);
            w.extend(kept.into_iter().map(|k| Warning::CharNormKept {
                text: k.text,
                would_be: k.would_be,
            }));
            if let Ok(nm) = parse::parse(&normalized, Grammar::IriReference) {
                if normalized != s {
                    note(t, Rule::CharNorm, None, None, s, &normalized);
                }
                return write_normal(&normalized, &nm, o, out, t, w);
            }
        }
        write_normal(s, &meta, o, out, t, w)
    }
}

/// The rootless path of an absolute URI (`urn:isbn:1/../x`,
/// `data:text/plain,a/../b`): opaque, `/` is no hierarchy there (RFC 8141
/// §2, RFC 2397 §3), so its dot segments stay (LADDER.md rung 1; RFC 3986
/// §6.2.2.3 removes them from hierarchical paths). The percent rules of
/// rung 1 apply, except that a segment whose triplets would decode to `.`
/// or `..` keeps them (hex upper-cased): no rung creates a dot segment that
/// was not written, which resolution (RFC 3986 §5.2.2 applies §5.2.4 to
/// the path of every reference) would then remove, so that a normalizer
/// with a base would not be idempotent (`zz:%2E` -> `zz:.` -> `zz:`).
fn write_opaque_path<T: Trace>(
    out: &mut String,
    path: &str,
    poff: usize,
    pctx: Ctx,
    form: Form,
    t: &mut T,
) {
    if !path.contains('%') {
        return write_component(out, path, poff, pctx, form, t);
    }
    let mut start = 0;
    for (i, seg) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        if seg.contains('%') && matches!(&*crate::pct::decode(seg), b"." | b"..") {
            // Only `.` and `%2E` / `%2e` here.
            let upper = seg.to_ascii_uppercase();
            if upper != seg {
                note(
                    t,
                    Rule::UppercasePercent,
                    Some(Component::Path),
                    Some(poff + start),
                    seg,
                    &upper,
                );
            }
            out.push_str(&upper);
        } else {
            write_component(out, seg, poff + start, pctx, form, t);
        }
        start += seg.len() + 1;
    }
}

/// The normal form of `input` with `opts` (see [`Normalizer::normalize`]).
pub fn normalize<'a>(input: &'a str, opts: &Options) -> Result<Cow<'a, str>, ParseError> {
    Normalizer::new(opts.clone()).normalize(input)
}

/// Whether `a` and `b` are equivalent at `opts.rung`.
pub fn equivalent(a: &str, b: &str, opts: &Options) -> Result<bool, CompareError> {
    Normalizer::new(opts.clone()).equivalent(a, b)
}

/// The lowest rung at which `a` and `b` are equivalent.
pub fn compare(a: &str, b: &str, opts: &Options) -> Result<Option<Rung>, CompareError> {
    Normalizer::new(opts.clone()).compare(a, b)
}

/// The comparison key of `input` at `opts.rung`.
pub fn key(input: &str, opts: &Options) -> Result<String, ParseError> {
    Normalizer::new(opts.clone()).key(input)
}

/// Looks up the scheme of a reference (given lower case) for rung 2.
#[inline(always)]
fn scheme_info(o: &Options, lower: &str) -> SchemeInfo {
    o.schemes.get(lower).copied().unwrap_or(SchemeInfo::UNKNOWN)
}

/// What the wide scanner proved of a reference while parsing it
/// ([`Normalizer::parse_input_into`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scanned {
    /// Nothing: the full parser read it from the start.
    No,
    /// Its authority: the scanner stopped after it (a lower-case triplet
    /// in a long query...) and the parser went on from there. A host there
    /// is lower-case ASCII `reg-name` (or IPv4) without `%` or `--`
    /// (`scan::HOST_RUN`), which [`fast_kind`] then need not search for
    /// them (issue 14, round 5).
    Authority,
    /// All of it (`scan::common_or_resume` accepted it): the authority as
    /// above, and no path segment is `.` or `..` (the scanner stops at
    /// every `/.` and leaves a whole dot segment to the parser), so a
    /// DOT_SEG hint is a segment such as `.well-known` (round 6).
    Whole,
}

impl Scanned {
    /// The authority was validated by the scanner.
    #[inline(always)]
    fn authority(self) -> bool {
        self != Scanned::No
    }
}

/// Rung 2's rules for one scheme, as much of them as
/// [`Normalizer::fast_hot`] reads.
#[derive(Clone, Copy, Debug, Default)]
struct Hot {
    /// No scheme normalizer but `file`'s (`Special::None` or `File`):
    /// otherwise [`fast_kind`] answers (it says [`Fast::Slow`]).
    known: bool,
    /// `file` (RFC 8089): a host may be `localhost`, which [`fast_kind`] checks.
    file: bool,
    /// A DNS host (`dns_host`) under a profile that checks ASCII names:
    /// every non-empty `reg-name` host goes to UTS #46.
    named_host_slow: bool,
    /// An empty path after an authority means `/` (`empty_path_is_root`).
    root: bool,
    /// `known`, neither `file` nor `named_host_slow`: [`Normalizer::fast_hot`]
    /// needs nothing of the host.
    plain: bool,
}

/// [`Hot`] for `http`, `https` and `file`, the schemes of nearly every
/// reference in crawl frontiers and file lists, computed once per
/// [`Normalizer`] from its registry and IDNA profile (a normalizer's
/// key options differ from its own in rung and form only, never in these).
#[derive(Clone, Copy, Debug)]
struct HotSchemes {
    http: Hot,
    https: Hot,
    file: Hot,
    /// [`Mode`] of the normalizer's own options.
    own: Mode,
    /// The default ports of `http` and `https` (RFC 3986 §6.2.3), for
    /// [`Normalizer::push_repaired`]: not in [`Hot`], whose copy on the
    /// already-normal path grew with them (callgrind, round 12).
    ports: [Option<u16>; 2],
}

/// Whether options allow [`Normalizer::fast_hot`] at all, and the parser
/// hints that then send a reference to the full computation
/// ([`fast_kind`] tests the same ones one by one).
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// Rung 2, no base, no character normalization.
    on: bool,
    /// Upper case in the scheme or host, a triplet that would change;
    /// non-ASCII (`uri`) or high triplets and bidi controls (`iri`); a
    /// fragment when it is ignored.
    deny: u16,
}

impl Mode {
    fn of(o: &Options, has_base: bool) -> Mode {
        let mut deny = UPPER_SCHEME | UPPER_HOST | PCT_DIRTY;
        deny |= match o.form {
            Form::Uri => NON_ASCII,
            Form::Iri => PCT_HIGH | BIDI,
        };
        if o.ignore_fragment {
            deny |= HAS_FRAGMENT;
        }
        Mode {
            on: o.rung == Rung::Scheme && !has_base && o.char_norm == CharNorm::None,
            deny,
        }
    }
}

impl HotSchemes {
    fn of(o: &Options, has_base: bool) -> HotSchemes {
        let hot = |name: &str| {
            let info = o.schemes.get(name).unwrap_or(&SchemeInfo::UNKNOWN);
            let known = matches!(info.special, Special::None | Special::File);
            let file = info.special == Special::File;
            let named_host_slow = info.dns_host && o.idna.checks_ascii();
            Hot {
                known,
                file,
                named_host_slow,
                root: info.empty_path_is_root,
                plain: known && !file && !named_host_slow,
            }
        };
        HotSchemes {
            http: hot("http"),
            https: hot("https"),
            file: hot("file"),
            own: Mode::of(o, has_base),
            ports: ["http", "https"].map(|n| o.schemes.get(n).and_then(|i| i.default_port)),
        }
    }
}

/// What the fast path knows of a normal form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fast {
    /// Nothing: compute it ([`write_normal`]).
    Slow,
    /// The input is already normal.
    Same,
    /// The input with `/` as its path: normal but for an empty path after
    /// an authority, which the scheme says means `/` (`http://a.example`,
    /// `https://a.example?q`). Common enough in crawled links to be spared
    /// the full computation.
    Root,
    /// The input with its scheme and host lower-cased and its port in
    /// rung 2's form ([`Normalizer::repairable`], [`Normalizer::push_repaired`]).
    /// No payload: a `Fast` with one cost the already-normal path five
    /// instructions per reference (callgrind, round 12); [`Normalizer::push_repaired`]
    /// looks the scheme's rules up again. Written by
    /// [`Normalizer::run_slow`], the one arm out of line with
    /// [`Fast::Slow`] (round 13).
    Repair,
}

/// The input with `/` inserted where its (empty) path is; returns the
/// components of what it appended: the parser's, shifted by the `/` after
/// the path's start, with every hint set (as [`write_normal`] returns
/// them: what [`crate::split_trusted`] gives on the output).
#[inline]
fn push_with_root(out: &mut String, s: &str, m: &Meta) -> Meta {
    let p = m.path_start as usize;
    out.push_str(&s[..p]);
    out.push('/');
    out.push_str(&s[p..]);
    let mut r = *m;
    r.path_end += 1;
    r.query_end += 1;
    r.flags |= parse::HINTS;
    r
}

/// Whether the parser's hints prove that `s` is already normal (or normal
/// but for its empty path, [`Fast::Root`]), so it can be returned without
/// being computed. Conservative: [`Fast::Slow`] only means "compute it".
/// `scanned`: what the wide scanner proved ([`Scanned`]: a host it
/// validated holds no `%`, non-ASCII or `--`, `scan::HOST_RUN`; after a
/// whole scan no path segment is a dot segment).
#[inline(never)]
fn fast_kind(s: &str, m: &Meta, o: &Options, scanned: Scanned) -> Fast {
    let f = m.flags;
    if o.rung == Rung::String {
        return if o.ignore_fragment && f & HAS_FRAGMENT != 0 {
            Fast::Slow
        } else {
            Fast::Same
        };
    }
    if f & (UPPER_SCHEME | UPPER_HOST | PCT_DIRTY) != 0 {
        return Fast::Slow;
    }
    // DOT_SEG: a segment starts with `.`. Only `.` and `..` as whole
    // segments are dot segments (RFC 3986 §5.2.4, §6.2.2.3); without
    // them, and without a triplet that decodes to `.` (PCT_DIRTY, above),
    // removing dot segments changes nothing (`/.well-known/`).
    // After a whole scan no segment is `.` or `..` ([`Scanned::Whole`]).
    if f & DOT_SEG != 0 && scanned != Scanned::Whole && crate::path::has_dot_segment(m.path(s)) {
        return Fast::Slow;
    }
    debug_assert!(
        scanned != Scanned::Whole || !crate::path::has_dot_segment(m.path(s)),
        "{s:?}"
    );
    match o.form {
        Form::Uri if f & NON_ASCII != 0 => return Fast::Slow,
        Form::Iri if f & (PCT_HIGH | BIDI) != 0 => return Fast::Slow,
        _ => {}
    }
    if o.ignore_fragment && f & HAS_FRAGMENT != 0 {
        return Fast::Slow;
    }
    // Byte offsets from here on (this runs for every input: `&s[a..b]`
    // would check two char boundaries each time).
    let b = s.as_bytes();
    let has_auth = f & HAS_AUTH != 0;
    let host: &[u8] = if has_auth {
        &b[m.host_start as usize..m.host_end as usize]
    } else {
        &[]
    };
    // The parser does not look into the triplets of an RFC 6874 zone
    // (`[fe80::1%25en%2f1]`, `%25%41`): rung 1 normalizes them like any
    // other, so a zone always takes the slow path (zones are rare).
    if has_auth && m.host_kind() == HostKind::Ipv6 && host.contains(&b'%') {
        return Fast::Slow;
    }
    if o.rung == Rung::Scheme {
        // By reference: only the fields read below are loaded (a copy of
        // the whole `SchemeInfo` was unpacked field by field on every call).
        let info: &SchemeInfo = match m.scheme_end {
            0 => &SchemeInfo::UNKNOWN,
            end => o
                .schemes
                .get(&s[..end as usize])
                .unwrap_or(&SchemeInfo::UNKNOWN),
        };
        match info.special {
            Special::None => {}
            Special::File if !host::is_file_localhost(s, m) => {}
            _ => return Fast::Slow,
        }
        if has_auth {
            match m.host_kind() {
                HostKind::Ipv6 => return Fast::Slow,
                // Without `%`, non-ASCII and "--" anywhere in the authority
                // (parser hints) no host can need UTS #46, unless the
                // profile checks ASCII names too. PCT_ANY is any `%`, in
                // the path and query too: searching the host for one
                // instead, by `memchr` or eight bytes at a time, cost more
                // mispredicted branches than `scan_host` on query-heavy
                // URLs (BENCHMARKS.md, issue 14 round 4). A host the
                // scanner accepted holds none of the three, so only the
                // profile's ASCII checks remain (what `may_need_idn_bytes`
                // answers there): 68 instructions less per query-heavy
                // URL (round 5).
                HostKind::RegName
                    if info.dns_host
                        && if scanned.authority() {
                            debug_assert!(!crate::idn::scan_host(host, true), "{s:?}");
                            o.idna.checks_ascii() && !host.is_empty()
                        } else {
                            (f & (NON_ASCII | PCT_ANY | AUTH_DASH2) != 0 || o.idna.checks_ascii())
                                && crate::norm::domain::may_need_idn_bytes(host, &o.idna)
                        }
                        && !uts46_keeps(host, o) =>
                {
                    return Fast::Slow
                }
                _ => {}
            }
            if let Some(p) = m.port(s) {
                if !port::is_normal(p, info.default_port) {
                    return Fast::Slow;
                }
            }
            if info.empty_path_is_root && m.path_start == m.path_end {
                // Everything else is normal (this test comes last).
                return Fast::Root;
            }
        }
    }
    Fast::Same
}

/// Whether rung 2 leaves a host that may need UTS #46 as it is, with no
/// warning, for a host whose rung-1 form is itself (the caller checked
/// the hints: no upper case, no triplet that changes): what
/// `host::idn_host` computes, asked of the same function
/// ([`crate::norm::domain::idn_convert`], `Ok(None)`), so the answer is
/// exact by construction. Only for ASCII hosts without `%`: there
/// ToASCII keeps a valid name (an `xn--` label that decodes to a valid
/// U-label and encodes back to itself, UTS #46 §4.1 step 4, or any name
/// under a profile that checks ASCII names) or refuses it; a host that
/// UTS #46 changes (non-ASCII, triplets) would be converted twice, here
/// and again by the full computation. An `xn--` host costs its UTS #46
/// check and no longer the full computation of the whole reference
/// (issue 14, round 7: about 2,300 of its 5,200 instructions).
#[cold]
#[inline(never)]
fn uts46_keeps(host: &[u8], o: &Options) -> bool {
    if !host.is_ascii() || host.contains(&b'%') {
        return false;
    }
    let Ok(host) = core::str::from_utf8(host) else {
        return false;
    };
    crate::norm::domain::idn_convert(host, o.form, &o.idna) == Ok(None)
}

/// Whether rung 1 leaves every path, query and fragment of a reference
/// parsed as `m` as it is ([`write_component`] would copy them byte for
/// byte), by the parser's hints alone: no triplet with lower-case hex or
/// of an unreserved character (PCT_DIRTY: RFC 3986 §6.2.2.1, §6.2.2.2),
/// and nothing the form re-encodes: non-ASCII in `uri` form (RFC 3987
/// §3.1), triplets of UTF-8 or bidi controls in `iri` form (RFC 3987
/// §3.2, §4.1). Then [`write_normal`] copies those components with one
/// `push_str` each: issue 14, round 12, the references the fast path
/// refuses for their scheme, host or port alone (an upper-case host, a
/// default port) spent about a third of their rewrite searching their
/// path and query for bytes that are not there. The hints of a `Meta`
/// that did not come from the parser are all set ([`crate::split_trusted`]),
/// so this is then `false`.
#[inline(always)]
fn tail_is_verbatim(m: &Meta, form: Form) -> bool {
    let deny = PCT_DIRTY
        | match form {
            Form::Uri => NON_ASCII,
            Form::Iri => PCT_HIGH | BIDI,
        };
    m.flags & deny == 0
}

/// Whether rung 1 writes `text` (a component of a parsed reference, or a
/// part of one cut at `/`) byte for byte: it holds no `%`, and no
/// non-ASCII where the form encodes it (`uri`, or a reference with a
/// possible bidi control: RFC 3987 §3.1 step 2, §4.1). Every other byte of
/// a parsed component is kept by [`write_component`] (its runs stop only
/// at those); what [`tail_is_verbatim`] says of the whole tail, asked of
/// one component whose reference has a triplet or non-ASCII elsewhere
/// (issue 14, round 14).
#[inline(always)]
fn component_is_plain(text: &str, form: Form, bidi: bool) -> bool {
    let keep_high = form == Form::Iri && !bidi;
    irinorm_simd::words::find_byte_or_high(text.as_bytes(), 0, b'%', keep_high) == text.len()
}

/// Rungs 1 and 2 in one pass over the components of `s`, appending to
/// `out`. Returns the components of what it appended (offsets from where
/// it started), noted as each is written: exactly what
/// [`crate::split_trusted`] gives on the appended text (every hint set,
/// the host's kind from its written bytes), so that a layer on top of the
/// ladder (named rules) need not find them again (issue 14). A debug check
/// in [`Normalizer::normalize_into_split`] and a property test compare
/// the two.
pub(crate) fn write_normal<T: Trace>(
    s: &str,
    m: &Meta,
    o: &Options,
    out: &mut String,
    t: &mut T,
    w: &mut Vec<Warning>,
) -> Meta {
    let start = out.len();
    // The offsets, relative to `start` (a reference is at most `max_len`,
    // and a `Meta`'s offsets are u32: the parser refused longer input).
    let rel = |out: &String| (out.len() - start) as u32;
    let mut r = Meta {
        flags: parse::HINTS,
        ..Meta::default()
    };
    if o.rung == Rung::String {
        // Rung 0 is the identity; it never maps an IRI to a URI.
        match m.fragment(s).filter(|_| o.ignore_fragment) {
            Some(_) => {
                out.push_str(&s[..m.query_end as usize]);
                note(
                    t,
                    Rule::IgnoreFragment,
                    Some(Component::Fragment),
                    Some(m.query_end as usize),
                    &s[m.query_end as usize..],
                    "",
                );
            }
            None => out.push_str(s),
        }
        // The input itself, or cut before its `#` (rare: no bookkeeping).
        return parse::split_trusted(&out[start..]);
    }
    let rung2 = o.rung == Rung::Scheme;
    let form = o.form;
    let bidi = m.has(BIDI);
    let mut info = SchemeInfo::UNKNOWN;

    // Scheme: RFC 3986 §6.2.2.1, "scheme and host are case-insensitive".
    if let Some(sch) = m.scheme(s) {
        let at = out.len();
        if m.has(UPPER_SCHEME) {
            out.extend(sch.bytes().map(|c| c.to_ascii_lowercase() as char));
            note(
                t,
                Rule::LowercaseScheme,
                Some(Component::Scheme),
                Some(0),
                sch,
                &out[at..],
            );
        } else {
            out.push_str(sch);
        }
        if rung2 {
            info = scheme_info(o, &out[at..]);
        }
        r.scheme_end = rel(out);
        out.push(':');
    }

    // Authority.
    let has_auth = m.has(HAS_AUTH);
    if has_auth {
        out.push_str("//");
        r.flags |= parse::HAS_AUTH;
        r.auth_start = rel(out);
        if let Some(ui) = m.userinfo(s) {
            r.flags |= parse::HAS_USERINFO;
            write_component(
                out,
                ui,
                m.auth_start as usize,
                Ctx::of(Component::Userinfo, bidi),
                form,
                t,
            );
            out.push('@');
        }
        r.host_start = rel(out);
        let host_at = out.len();
        host::write_host(out, s, m, o, &info, t, w);
        r.host_end = rel(out);
        // The kind of what was written: a name may have become an IPv4
        // address (`%31.2.3.4`, full-width digits mapped by UTS #46).
        let written = &out.as_bytes()[host_at..];
        r.host_kind = match (written.first(), written.get(1)) {
            (Some(b'['), Some(b'v' | b'V')) => HostKind::IpvFuture,
            (Some(b'['), _) => HostKind::Ipv6,
            _ => parse::reg_name_kind(written),
        };
        if let Some(p) = m.port(s) {
            if rung2 {
                port::write_port(out, p, info.default_port, m.port_start as usize, t);
            } else {
                out.push(':');
                out.push_str(p);
            }
            // A default or empty port is not written, nor its `:`.
            if rel(out) != r.host_end {
                r.port_start = r.host_end + 1;
            }
        }
    }

    let root = rung2 && has_auth && info.empty_path_is_root;
    write_tail(s, m, o, out, start, &mut r, root, t);

    // Scheme-specific rules last: they see the generic normal form (`file`
    // was handled with the host). They may rewrite anything (`mailto`,
    // `urn`, `tel`, `data`: rare in bulk input), so the components are
    // found again then.
    if rung2 && !matches!(info.special, Special::None | Special::File) {
        scheme::apply(info.special, out, start, o.form, &o.idna, t, w);
        return parse::split_trusted(&out[start..]);
    }
    r
}

/// The path, query and fragment of `s` (parsed as `m`) at rungs 1 and 2,
/// appended to `out` (whose text for this reference began at `start`),
/// their offsets noted in `r`: [`write_normal`]'s second half, shared
/// with [`Normalizer::push_repaired`], which writes the scheme and
/// authority from the scanner's hints and these components as
/// `write_normal` does (issue 14, round 15). `root`: an empty path after
/// an authority is written `/` (RFC 3986 §6.2.3, the scheme says so).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn write_tail<T: Trace>(
    s: &str,
    m: &Meta,
    o: &Options,
    out: &mut String,
    start: usize,
    r: &mut Meta,
    root: bool,
    t: &mut T,
) {
    // Path: §6.2.2.3 dot segments (rung 1), §6.2.3 empty path (rung 2).
    let rel = |out: &String| (out.len() - start) as u32;
    let form = o.form;
    let bidi = m.has(BIDI);
    let verbatim = tail_is_verbatim(m, form);
    let has_auth = m.has(HAS_AUTH);
    let path = m.path(s);
    let poff = m.path_start as usize;
    let pctx = Ctx::of(Component::Path, bidi);
    r.path_start = rel(out);
    if path.is_empty() {
        if root {
            out.push('/');
            note(
                t,
                Rule::EmptyPathRoot,
                Some(Component::Path),
                Some(poff),
                "",
                "/",
            );
        }
    } else if !m.has(DOT_SEG)
        && (!m.has(PCT_DIRTY)
            || irinorm_simd::words::find_byte_or_high(path.as_bytes(), 0, b'%', true) == path.len())
    {
        // No segment starts with '.' and no triplet of the path decodes to
        // one (`PCT_DIRTY` is about the whole reference: a lower-case
        // triplet in the query must not send the path segment by segment,
        // issue 14 round 4): no dot segment can appear, so the path is
        // written in one go; as it is when rung 1 changes nothing in it
        // (the whole tail, or this path: `component_is_plain`, issue 14
        // round 14, a triplet in the host or query no longer sends the
        // path through `write_component`).
        // The `%` is looked for a word at a time: `contains` (`memchr`)
        // cost about 80 instructions per reference here (round 12).
        if verbatim || component_is_plain(path, form, bidi) {
            out.push_str(path);
        } else {
            write_component(out, path, poff, pctx, form, t);
        }
    } else if !has_auth && !path.starts_with('/') && m.scheme(s).is_some() {
        write_opaque_path(out, path, poff, pctx, form, t);
    } else {
        let mode = if has_auth || path.starts_with('/') {
            PathMode::Absolute
        } else {
            PathMode::Relative
        };
        let at = out.len();
        let mut pw = PathWriter::new(out, mode);
        let body_off = usize::from(mode == PathMode::Absolute);
        let body = &path[body_off..];
        // Rung 1 changes no byte of the path: its segments are copied
        // (RFC 3986 §5.2.4 alone applies). A call of `write_component` per
        // segment was about a third of a dot-segment reference's cost
        // (issue 14, round 14, callgrind).
        let plain = verbatim || component_is_plain(path, form, bidi);
        let mut seg_start = 0;
        loop {
            // A byte loop, not `str::find`: segments are short, and the
            // `memchr` behind `find` cost ~120 instructions a call here
            // (callgrind on the frontier's dot-segment aliases).
            let end = body.as_bytes()[seg_start..]
                .iter()
                .position(|&c| c == b'/')
                .map_or(body.len(), |p| seg_start + p);
            pw.begin(out);
            if plain {
                out.push_str(&body[seg_start..end]);
            } else {
                write_component(
                    out,
                    &body[seg_start..end],
                    poff + body_off + seg_start,
                    pctx,
                    form,
                    t,
                );
            }
            let last = end == body.len();
            pw.end(out, last);
            if last {
                break;
            }
            seg_start = end + 1;
        }
        pw.finish(out, has_auth);
        if T::ON {
            // Report the path-level rules once, on the path as a whole.
            let mut plain = String::new();
            write_component(&mut plain, path, poff, pctx, form, &mut NoTrace);
            if out[at..] != plain {
                let rule = if crate::path::has_dot_segment(&plain) {
                    Rule::RemoveDotSegments
                } else {
                    Rule::KeepStructure
                };
                note(
                    t,
                    rule,
                    Some(Component::Path),
                    Some(poff),
                    &plain,
                    &out[at..],
                );
            }
        }
    }

    r.path_end = rel(out);

    // Query and fragment: the empty query keeps its '?' at every rung.
    if let Some(q) = m.query(s) {
        r.flags |= parse::HAS_QUERY;
        out.push('?');
        if verbatim || component_is_plain(q, form, bidi) {
            out.push_str(q);
        } else {
            write_component(
                out,
                q,
                m.path_end as usize + 1,
                Ctx::of(Component::Query, bidi),
                form,
                t,
            );
        }
    }
    r.query_end = rel(out);
    if let Some(fr) = m.fragment(s) {
        let foff = m.query_end as usize + 1;
        if o.ignore_fragment {
            note(
                t,
                Rule::IgnoreFragment,
                Some(Component::Fragment),
                Some(foff - 1),
                &s[foff - 1..],
                "",
            );
        } else {
            r.flags |= parse::HAS_FRAGMENT;
            out.push('#');
            if verbatim || component_is_plain(fr, form, bidi) {
                out.push_str(fr);
            } else {
                write_component(out, fr, foff, Ctx::of(Component::Fragment, bidi), form, t);
            }
        }
    }
}

#[cfg(test)]
mod tests;
