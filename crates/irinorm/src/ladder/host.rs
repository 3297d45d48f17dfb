//! The host at rungs 1 and 2: case (RFC 3986 §6.2.2.1), percent-encoding,
//! IPv6 text (RFC 5952), and IDN equivalence through UTS #46 for schemes
//! whose host is a DNS name (RFC 3987 §5.3.3).

use super::percent::{write_component, Ctx};
use super::{Form, Options, Rung, Warning};
use crate::error::Component;
use crate::host::{parse_ipv6, write_ipv6_canonical, HostKind};
use crate::norm::domain::{idn_convert, may_need_idn};
use crate::norm::trace::{note, Rule, Trace};
use crate::parse::{Meta, BIDI, HAS_AUTH, HAS_USERINFO};
use crate::pct;
use crate::scheme::SchemeInfo;

/// Appends the normalized host of `s` (components `m`).
pub(crate) fn write_host<T: Trace>(
    out: &mut String,
    s: &str,
    m: &Meta,
    o: &Options,
    info: &SchemeInfo,
    t: &mut T,
    warnings: &mut Vec<Warning>,
) {
    let Some(host) = m.host(s) else { return };
    let offset = m.host_start as usize;
    let rung2 = o.rung == Rung::Scheme;
    if rung2 && info.special == crate::scheme::Special::File && is_file_localhost(s, m) {
        note(
            t,
            Rule::FileLocalhost,
            Some(Component::Host),
            Some(offset),
            host,
            "",
        );
        return;
    }
    match m.host_kind() {
        HostKind::RegName => {
            let at = out.len();
            write_component(
                out,
                host,
                offset,
                Ctx::of(Component::Host, m.has(BIDI)),
                o.form,
                t,
            );
            if rung2 && info.dns_host {
                idn_host(out, at, offset, o, t, warnings);
            }
        }
        HostKind::Ipv4 => out.push_str(host),
        HostKind::Ipv6 => write_ipv6(out, host, offset, rung2, t),
        HostKind::IpvFuture => {
            // The whole host is case-insensitive (RFC 3986 §6.2.2.1).
            let lower = host.to_ascii_lowercase();
            if lower != host {
                note(
                    t,
                    Rule::LowercaseHost,
                    Some(Component::Host),
                    Some(offset),
                    host,
                    &lower,
                );
            }
            out.push_str(&lower);
        }
    }
}

/// `[IPv6address]` or `[IPv6address%25zone]` (RFC 6874). The address is
/// lower-cased at rung 1 and written in RFC 5952 form at rung 2. The zone
/// identifier keeps its case: it names an interface, and interface names
/// are case-sensitive on most systems (decision recorded in
/// docs/decisions.md); its triplets are normalized like any other.
fn write_ipv6<T: Trace>(out: &mut String, host: &str, offset: usize, rung2: bool, t: &mut T) {
    let inner = &host[1..host.len() - 1];
    let (addr, zone) = match inner.find('%') {
        Some(p) => (&inner[..p], Some(&inner[p + 3..])),
        None => (inner, None),
    };
    out.push('[');
    let at = out.len();
    match parse_ipv6(addr.as_bytes()) {
        Ok(g) if rung2 => {
            write_ipv6_canonical(&g, out);
            if out[at..] != *addr {
                note(
                    t,
                    Rule::Ipv6Text,
                    Some(Component::Host),
                    Some(offset + 1),
                    addr,
                    &out[at..],
                );
            }
        }
        _ => {
            out.push_str(&addr.to_ascii_lowercase());
            if out[at..] != *addr {
                note(
                    t,
                    Rule::LowercaseHost,
                    Some(Component::Host),
                    Some(offset + 1),
                    addr,
                    &out[at..],
                );
            }
        }
    }
    if let Some(z) = zone {
        out.push_str("%25");
        let zoff = offset + 1 + addr.len() + 3;
        let ctx = Ctx {
            component: Component::Host,
            lower: false,
            private_ok: false,
            bidi: false,
        };
        write_component(out, z, zoff, ctx, Form::Uri, t);
    }
    out.push(']');
}

/// `file://localhost/p` is `file:///p` (RFC 8089 §2): whether this
/// authority is, once rungs 1 and 2 have done their generic work, exactly
/// the host `localhost`: any case, unreserved triplets decoded
/// (`%6Cocalhost`), and no port or an empty one (which rung 2 removes).
/// Looking at the raw text instead made `file://%6Cocalhost/p` and
/// `file://localhost:/p` normalize to `file://localhost/p`, whose own
/// normal form is `file:///p` (not idempotent).
#[inline(always)]
pub(crate) fn is_file_localhost(s: &str, m: &Meta) -> bool {
    // Byte offsets, the host first: this runs for every `file` URL, and
    // most have an empty host or another name. Without a triplet the host
    // must be `localhost` itself; with one, it is 10 to 27 bytes long.
    if !m.has(HAS_AUTH) || m.has(HAS_USERINFO) {
        return false;
    }
    let (start, end) = (m.host_start as usize, m.host_end as usize);
    let localhost = match end.saturating_sub(start) {
        9 => s.as_bytes()[start..end].eq_ignore_ascii_case(b"localhost"),
        10..=27 => encoded_localhost(&s[start..end]),
        _ => false,
    };
    // No port, or an empty one.
    localhost && (m.port_start == 0 || m.port_start == m.path_start)
}

/// A host with triplets that decodes to `localhost` (any case).
#[cold]
fn encoded_localhost(h: &str) -> bool {
    h.contains('%') && pct::decode(h).eq_ignore_ascii_case(b"localhost")
}

/// Rung 2 for a DNS host that rung 1 wrote at `out[at..]`: decode it, run
/// UTS #46 (ToASCII for `uri`, ToUnicode for `iri`), and put the result
/// in its place. A host that fails stays as rung 1 left it and is reported.
fn idn_host<T: Trace>(
    out: &mut String,
    at: usize,
    offset: usize,
    o: &Options,
    t: &mut T,
    warnings: &mut Vec<Warning>,
) {
    let written = &out[at..];
    if !may_need_idn(written, &o.idna) {
        return;
    }
    match idn_convert(written, o.form, &o.idna) {
        Ok(None) => {}
        Ok(Some(new)) => {
            let rule = if o.form == Form::Uri {
                Rule::IdnToAscii
            } else {
                Rule::IdnToUnicode
            };
            if T::ON {
                let before = written.to_owned();
                note(t, rule, Some(Component::Host), Some(offset), &before, &new);
            }
            out.truncate(at);
            out.push_str(&new);
        }
        Err(error) => warnings.push(Warning::Idna {
            offset: Some(offset),
            error,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_localhost_after_rung_1() {
        use crate::parse::{parse, Grammar};
        for (s, want) in [
            ("file://localhost/p", true),
            ("file://LocalHost/p", true),
            ("file://%6Cocalhost/p", true),
            ("file://%6cOCALHOST/p", true),
            ("file://localhost:/p", true),
            ("file://localhost:0/p", false),
            ("file://@localhost/p", false),
            ("file://localhost./p", false),
            ("file://local%2Fhost/p", false),
        ] {
            let m = parse(s, Grammar::IriReference).unwrap();
            assert_eq!(is_file_localhost(s, &m), want, "{s}");
        }
    }
}
