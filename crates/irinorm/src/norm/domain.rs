//! UTS #46 on the text of a DNS name that rung 1 wrote: the host of a
//! URI (rung 2, RFC 3987 §5.3.3) and the domain of a `mailto` address
//! (RFC 6068 §5) go through the same checks, so both the ladder and the
//! scheme rules use this module.

use super::Form;
use crate::idn::{self, IdnaError, IdnaErrorKind, IdnaProfile};
use crate::pct;
use crate::table::{is, REG_NAME};
use crate::ucs;

/// Whether a rung-1 host might change (or be refused) under UTS #46 with
/// `profile`: non-ASCII, a triplet, an ACE (`xn--`) label, or any host at
/// all when the profile checks ASCII names (STD3 rules, hyphens, lengths).
#[inline]
pub(crate) fn may_need_idn(host: &str, profile: &IdnaProfile) -> bool {
    may_need_idn_bytes(host.as_bytes(), profile)
}

/// [`may_need_idn`] on the bytes of the host.
#[inline]
pub(crate) fn may_need_idn_bytes(host: &[u8], profile: &IdnaProfile) -> bool {
    if profile.checks_ascii() {
        return !host.is_empty();
    }
    crate::idn::scan_host(host, true)
}

/// UTS #46 on a rung-1 host text (percent-encoded or not). `Ok(None)`:
/// nothing to change. The result is checked to be a valid host of the form.
///
/// A host that still holds a triplet of an ASCII character after rung 1
/// (`%2C`, `%2F`, `%25`...: rung 1 has decoded the unreserved ones, so
/// these are reserved or not allowed) is never given to UTS #46: that
/// would decode the triplet, which no rung may do (LADDER.md rung 1:
/// `é%2C.com` is not `é,.com`, and in a `mailto` domain the `,` would
/// even split the address). It is kept as rung 1 left it, and reported
/// when it was a candidate for IDN mapping.
///
/// The answer for a host already seen by this thread comes from a memo
/// ([`super::memo`]): UTS #46 costs more than the rest of a reference, and
/// bulk input repeats its hosts.
pub(crate) fn idn_convert(
    written: &str,
    form: Form,
    profile: &idn::IdnaProfile,
) -> Result<Option<String>, IdnaError> {
    super::memo::memoized(written, form, profile, || convert(written, form, profile))
}

/// [`idn_convert`] computed.
fn convert(
    written: &str,
    form: Form,
    profile: &idn::IdnaProfile,
) -> Result<Option<String>, IdnaError> {
    let decoded = pct::decode(written);
    let text = core::str::from_utf8(&decoded).map_err(|_| IdnaError {
        kind: IdnaErrorKind::NotUtf8,
        label: written.to_owned(),
    })?;
    if text.is_ascii() && !idn::needs_uts46_with(text, profile) {
        // Only reserved ASCII was encoded (`a%2Fb`): not a DNS name to map.
        return Ok(None);
    }
    if let Some(label) = label_with_ascii_triplet(written) {
        return Err(IdnaError {
            kind: IdnaErrorKind::EncodedAscii,
            label: label.to_owned(),
        });
    }
    let converted = match form {
        Form::Uri => idn::to_ascii(text, profile)?,
        Form::Iri => idn::to_unicode(text, profile)?,
    };
    if converted.is_empty() {
        // Keep the host rather than silently emptying it (`http://%C2%AD/`).
        return Err(IdnaError {
            kind: IdnaErrorKind::Empty,
            label: text.to_owned(),
        });
    }
    // UTS #46 with the URL deny list still lets through ASCII that a
    // reg-name cannot hold (`"`, `{`...): refuse rather than emit an
    // invalid reference.
    let valid = converted.chars().all(|c| {
        if c.is_ascii() {
            is(c as u8, REG_NAME)
        } else {
            form == Form::Iri && ucs::is_ucschar(c as u32) && !ucs::is_bidi_format(c as u32)
        }
    });
    if !valid {
        return Err(IdnaError {
            kind: IdnaErrorKind::Invalid,
            label: text.to_owned(),
        });
    }
    Ok((converted != written).then(|| converted.into_owned()))
}

/// The first label (of a rung-1 host, split at `.`) that holds a triplet
/// encoding an ASCII character.
fn label_with_ascii_triplet(written: &str) -> Option<&str> {
    written.split('.').find(|label| {
        let b = label.as_bytes();
        (0..b.len()).any(|i| pct::triplet(b, i).is_some_and(|v| v < 0x80))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_answers_what_the_computation_does() {
        use crate::idn::AsciiDeny;
        let hosts = [
            "xn--bcher-kva.de",
            "b%C3%BCcher.de",
            "B%C3%9Ccher.de",
            "xn--bcher-kva.xn--bcher-kva.de",
            "xn--a.de",
            "xn--.de",
            "%C2%AD",
            "%C3%A9%2C.com",
            "a%2Fb.com",
            "a_b.example",
            "-a-.example",
            "xn--caf-dma.fr",
            "%E2%80%AE.com",
            "example.com",
        ];
        let profiles = [
            IdnaProfile::default(),
            IdnaProfile {
                deny: AsciiDeny::Std3,
                check_hyphens: true,
                verify_dns_length: true,
            },
        ];
        // Twice: the second pass is answered from the memo.
        for _ in 0..2 {
            for h in hosts {
                for form in [Form::Uri, Form::Iri] {
                    for p in &profiles {
                        assert_eq!(
                            idn_convert(h, form, p),
                            convert(h, form, p),
                            "{h} {form:?} {p:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reserved_triplets_are_never_decoded_by_idn() {
        let d = IdnaProfile::default();
        for form in [Form::Uri, Form::Iri] {
            for host in [
                "%C3%A9%2C.com",
                "a%2C%C3%A9.com",
                "xn--bcher-kva.a%2Cb.de",
                "a%2Cb.xn--bcher-kva.de",
                "%C3%A9%25.com",
                "%C3%A9%2F.com",
            ] {
                let e = idn_convert(host, form, &d).unwrap_err();
                assert_eq!(e.kind, IdnaErrorKind::EncodedAscii, "{host}");
                assert!(e.label.contains('%'), "{host}: {e}");
            }
            // ASCII-only with a reserved triplet and no ACE label: nothing
            // to map, nothing to report (as before).
            assert_eq!(idn_convert("a%2Fb.com", form, &d), Ok(None));
            // A host UTS #46 maps to nothing is kept and reported.
            assert_eq!(
                idn_convert("%C2%AD", form, &d).unwrap_err().kind,
                IdnaErrorKind::Empty
            );
        }
        assert_eq!(
            idn_convert("%C3%A9.com", Form::Uri, &d).unwrap().as_deref(),
            Some("xn--9ca.com")
        );
        assert_eq!(
            label_with_ascii_triplet("ok.%C3%A9.b%2Cc.d%2Fe"),
            Some("b%2Cc")
        );
        assert_eq!(label_with_ascii_triplet("%C3%A9.com"), None);
    }

    #[test]
    fn conformance_profile_checks_ascii_hosts() {
        let c = IdnaProfile::CONFORMANCE;
        let d = IdnaProfile::default();
        for host in ["a_b.com", "-a.com", "ab--c.com"] {
            assert!(!may_need_idn(host, &d), "{host}");
            assert!(may_need_idn(host, &c), "{host}");
            assert_eq!(idn_convert(host, Form::Uri, &d), Ok(None), "{host}");
            assert!(idn_convert(host, Form::Uri, &c).is_err(), "{host}");
            assert!(idn_convert(host, Form::Iri, &c).is_err(), "{host}");
        }
        assert_eq!(idn_convert("example.com", Form::Uri, &c), Ok(None));
        assert_eq!(idn_convert("a%2Fb.com", Form::Uri, &d), Ok(None));
        assert!(idn_convert("a%2Fb.com", Form::Uri, &c).is_err());
    }
}
