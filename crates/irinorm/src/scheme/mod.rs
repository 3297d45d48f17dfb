//! The scheme registry used by rung 2 (RFC 3986 §6.2.3, RFC 3987 §5.3.3):
//! per scheme, its default port, whether its host is a DNS name (IDN rules
//! apply), whether an empty path with an authority means `/`, and its
//! scheme-specific normalizer.
//!
//! The built-in table comes from the IANA URI scheme registry and the
//! schemes' own RFCs (cited per entry). Callers extend or override it with
//! [`SchemeRegistry::insert`] and [`SchemeRegistry::forget`]; the CLI reads
//! the same settings from a TOML file (`--schemes FILE`).

pub mod data;
pub mod file;
pub mod mailto;
pub mod tel;
pub mod urn;

use std::collections::HashMap;
use std::sync::Arc;

/// A scheme-specific normalizer (rung 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// None: only the generic rules.
    None,
    /// `file` (RFC 8089): `file://localhost/p` == `file:///p`.
    File,
    /// `mailto` (RFC 6068): domains and header field names are case-insensitive.
    Mailto,
    /// `urn` (RFC 8141): NID case-insensitive, r/q/f-components ignored when
    /// comparing, `urn:uuid:` hex case-insensitive.
    Urn,
    /// `tel` (RFC 3966 §4): visual separators, parameter order and case ignored.
    Tel,
    /// `data` (RFC 2397): media type case-insensitive.
    Data,
}

impl Special {
    /// Name used in settings files.
    pub const fn name(self) -> &'static str {
        match self {
            Special::None => "none",
            Special::File => "file",
            Special::Mailto => "mailto",
            Special::Urn => "urn",
            Special::Tel => "tel",
            Special::Data => "data",
        }
    }

    /// Looks a normalizer up by name.
    pub fn from_name(s: &str) -> Option<Special> {
        [
            Special::None,
            Special::File,
            Special::Mailto,
            Special::Urn,
            Special::Tel,
            Special::Data,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// What rung 2 knows about one scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SchemeInfo {
    /// The port a missing port means (RFC 3986 §6.2.3: "the default port
    /// ... should be omitted").
    pub default_port: Option<u16>,
    /// Whether the host is a DNS name: UTS #46 equivalence applies.
    pub dns_host: bool,
    /// Whether an empty path with an authority is equivalent to `/`
    /// (RFC 3986 §6.2.3 for http; each scheme's RFC for the others).
    pub empty_path_is_root: bool,
    /// Scheme-specific normalizer.
    pub special: Special,
}

impl SchemeInfo {
    /// A scheme with nothing known: only the generic rules apply.
    pub const UNKNOWN: SchemeInfo = SchemeInfo {
        default_port: None,
        dns_host: false,
        empty_path_is_root: false,
        special: Special::None,
    };

    const fn web(port: u16) -> SchemeInfo {
        SchemeInfo {
            default_port: Some(port),
            dns_host: true,
            empty_path_is_root: true,
            special: Special::None,
        }
    }
    const fn dns(port: u16) -> SchemeInfo {
        SchemeInfo {
            default_port: Some(port),
            dns_host: true,
            empty_path_is_root: false,
            special: Special::None,
        }
    }
    const fn special(s: Special, dns_host: bool) -> SchemeInfo {
        SchemeInfo {
            default_port: None,
            dns_host,
            empty_path_is_root: false,
            special: s,
        }
    }
}

static HTTP: SchemeInfo = SchemeInfo::web(80); // RFC 9110 §4.2.1, §4.2.3
static HTTPS: SchemeInfo = SchemeInfo::web(443); // RFC 9110 §4.2.2, §4.2.3
static FILE: SchemeInfo = SchemeInfo::special(Special::File, true); // RFC 8089

/// The built-in table. Every entry is an IANA-registered scheme (permanent
/// unless marked provisional) with the default port its specification gives.
///
/// Rung 2 looks the scheme of every reference up here: `https`, `http` and
/// `file` are compared inline, the others go through one integer `match`
/// on the length and a `key` of the name, each arm a constant.
#[inline]
pub fn builtin(scheme: &str) -> Option<&'static SchemeInfo> {
    match scheme.as_bytes() {
        b"https" => Some(&HTTPS),
        b"http" => Some(&HTTP),
        b"file" => Some(&FILE),
        _ => builtin_table(scheme),
    }
}

fn builtin_table(scheme: &str) -> Option<&'static SchemeInfo> {
    use Special as S;
    static WS: SchemeInfo = SchemeInfo::web(80); // RFC 6455 §3 (empty path: "/")
    static WSS: SchemeInfo = SchemeInfo::web(443); // RFC 6455 §3
    static FTP: SchemeInfo = SchemeInfo::web(21); // RFC 1738 §3.2
    static COAP: SchemeInfo = SchemeInfo::web(5683); // RFC 7252 §6.1, §6.3
    static COAPS: SchemeInfo = SchemeInfo::web(5684); // RFC 7252 §6.2, §6.3
    static COAP_TCP: SchemeInfo = SchemeInfo::web(5683); // RFC 8323 §8.1
    static COAPS_TCP: SchemeInfo = SchemeInfo::web(5684); // RFC 8323 §8.2
    static COAP_WS: SchemeInfo = SchemeInfo::web(80); // RFC 8323 §8.3
    static COAPS_WS: SchemeInfo = SchemeInfo::web(443); // RFC 8323 §8.4
    static TELNET: SchemeInfo = SchemeInfo::web(23); // RFC 4248 §2 (the final "/" may be omitted)
    static GOPHER: SchemeInfo = SchemeInfo::dns(70); // RFC 4266 §2.1
    static LDAP: SchemeInfo = SchemeInfo::dns(389); // RFC 4516 §2
    static LDAPS: SchemeInfo = SchemeInfo::dns(636); // IANA (provisional), RFC 4516 practice
    static NNTP: SchemeInfo = SchemeInfo::dns(119); // RFC 5538 §2.2
    static NEWS: SchemeInfo = SchemeInfo::dns(119); // RFC 5538 §2.1
    static SNEWS: SchemeInfo = SchemeInfo::dns(563); // IANA (historical), RFC 5538 practice
    static IMAP: SchemeInfo = SchemeInfo::dns(143); // RFC 5092 §4
    static POP: SchemeInfo = SchemeInfo::dns(110); // RFC 2384 §2
    static RTSP: SchemeInfo = SchemeInfo::dns(554); // RFC 7826 §19.2
    static RTSPS: SchemeInfo = SchemeInfo::dns(322); // RFC 7826 §19.2
    static RTSPU: SchemeInfo = SchemeInfo::dns(554); // RFC 2326 §3.2
    static RSYNC: SchemeInfo = SchemeInfo::dns(873); // RFC 5781 §2
    static SNMP: SchemeInfo = SchemeInfo::dns(161); // RFC 4088 §2
    static IPP: SchemeInfo = SchemeInfo::dns(631); // RFC 8010 §4.4.1
    static IPPS: SchemeInfo = SchemeInfo::dns(631); // RFC 7472 §4
    static DNS: SchemeInfo = SchemeInfo::dns(53); // RFC 4501 §2
    static PROSPERO: SchemeInfo = SchemeInfo::dns(1525); // RFC 4157 §2
    static WAIS: SchemeInfo = SchemeInfo::dns(210); // RFC 4156 §2
    static Z3950: SchemeInfo = SchemeInfo::dns(210); // RFC 2056 §2
    static ACAP: SchemeInfo = SchemeInfo::dns(674); // RFC 2244 §6
    static ICAP: SchemeInfo = SchemeInfo::dns(1344); // RFC 3507 §4.2
    static VNC: SchemeInfo = SchemeInfo::dns(5900); // RFC 7869 §2
    static NFS: SchemeInfo = SchemeInfo::dns(2049); // RFC 2224 §2
    static SSH: SchemeInfo = SchemeInfo::dns(22); // IANA (provisional), draft-ietf-secsh-scp-sftp-ssh-uri
    static SFTP: SchemeInfo = SchemeInfo::dns(22); // IANA (provisional), same draft
    static GIT: SchemeInfo = SchemeInfo::dns(9418); // IANA (provisional)
    static SVN: SchemeInfo = SchemeInfo::dns(3690); // IANA (provisional)
    static REDIS: SchemeInfo = SchemeInfo::dns(6379); // IANA (provisional)
    static REDISS: SchemeInfo = SchemeInfo::dns(6379); // IANA (provisional)
    static MAILTO: SchemeInfo = SchemeInfo::special(S::Mailto, true); // RFC 6068
    static URN: SchemeInfo = SchemeInfo::special(S::Urn, false); // RFC 8141
    static TEL: SchemeInfo = SchemeInfo::special(S::Tel, false); // RFC 3966
    static DATA: SchemeInfo = SchemeInfo::special(S::Data, false); // RFC 2397
    let b = scheme.as_bytes();
    if b.len() > 8 {
        // The one built-in name longer than a key.
        return (scheme == "coaps+tcp").then_some(&COAPS_TCP);
    }
    // One constant per name (`key` is a `const fn`; patterns need items).
    macro_rules! names {
        ($($k:ident = $n:literal),* $(,)?) => {
            $(const $k: (usize, u64) = ($n.len(), key($n.as_bytes()));)*
        };
    }
    names!(
        K_HTTP = "http",
        K_HTTPS = "https",
        K_WS = "ws",
        K_WSS = "wss",
        K_FTP = "ftp",
        K_COAP = "coap",
        K_COAPS = "coaps",
        K_COAP_TCP = "coap+tcp",
        K_COAP_WS = "coap+ws",
        K_COAPS_WS = "coaps+ws",
        K_TELNET = "telnet",
        K_GOPHER = "gopher",
        K_LDAP = "ldap",
        K_LDAPS = "ldaps",
        K_NNTP = "nntp",
        K_NEWS = "news",
        K_SNEWS = "snews",
        K_IMAP = "imap",
        K_POP = "pop",
        K_RTSP = "rtsp",
        K_RTSPS = "rtsps",
        K_RTSPU = "rtspu",
        K_RSYNC = "rsync",
        K_SNMP = "snmp",
        K_IPP = "ipp",
        K_IPPS = "ipps",
        K_DNS = "dns",
        K_PROSPERO = "prospero",
        K_WAIS = "wais",
        K_Z39_50R = "z39.50r",
        K_Z39_50S = "z39.50s",
        K_ACAP = "acap",
        K_ICAP = "icap",
        K_VNC = "vnc",
        K_NFS = "nfs",
        K_SSH = "ssh",
        K_SFTP = "sftp",
        K_GIT = "git",
        K_SVN = "svn",
        K_REDIS = "redis",
        K_REDISS = "rediss",
        K_FILE = "file",
        K_MAILTO = "mailto",
        K_URN = "urn",
        K_TEL = "tel",
        K_DATA = "data",
    );
    Some(match (b.len(), key(b)) {
        K_HTTP => &HTTP,
        K_HTTPS => &HTTPS,
        K_WS => &WS,
        K_WSS => &WSS,
        K_FTP => &FTP,
        K_COAP => &COAP,
        K_COAPS => &COAPS,
        K_COAP_TCP => &COAP_TCP,
        K_COAP_WS => &COAP_WS,
        K_COAPS_WS => &COAPS_WS,
        K_TELNET => &TELNET,
        K_GOPHER => &GOPHER,
        K_LDAP => &LDAP,
        K_LDAPS => &LDAPS,
        K_NNTP => &NNTP,
        K_NEWS => &NEWS,
        K_SNEWS => &SNEWS,
        K_IMAP => &IMAP,
        K_POP => &POP,
        K_RTSP => &RTSP,
        K_RTSPS => &RTSPS,
        K_RTSPU => &RTSPU,
        K_RSYNC => &RSYNC,
        K_SNMP => &SNMP,
        K_IPP => &IPP,
        K_IPPS => &IPPS,
        K_DNS => &DNS,
        K_PROSPERO => &PROSPERO,
        K_WAIS => &WAIS,
        K_Z39_50R | K_Z39_50S => &Z3950,
        K_ACAP => &ACAP,
        K_ICAP => &ICAP,
        K_VNC => &VNC,
        K_NFS => &NFS,
        K_SSH => &SSH,
        K_SFTP => &SFTP,
        K_GIT => &GIT,
        K_SVN => &SVN,
        K_REDIS => &REDIS,
        K_REDISS => &REDISS,
        K_FILE => &FILE,
        K_MAILTO => &MAILTO,
        K_URN => &URN,
        K_TEL => &TEL,
        K_DATA => &DATA,
        _ => return None,
    })
}

/// A key that tells apart every two strings of the same length up to 8
/// bytes: the first and last four bytes (overlapping below 8), or for
/// shorter ones the first, second and last bytes.
const fn key(b: &[u8]) -> u64 {
    let n = b.len();
    if n == 0 {
        0
    } else if n < 4 {
        b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16
    } else {
        let h = n - 4;
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64
            | (u32::from_le_bytes([b[h], b[h + 1], b[h + 2], b[h + 3]]) as u64) << 32
    }
}

/// Every scheme of the built-in table, for listing.
pub const BUILTIN_NAMES: &[&str] = &[
    "http",
    "https",
    "ws",
    "wss",
    "ftp",
    "coap",
    "coaps",
    "coap+tcp",
    "coaps+tcp",
    "coap+ws",
    "coaps+ws",
    "telnet",
    "gopher",
    "ldap",
    "ldaps",
    "nntp",
    "news",
    "snews",
    "imap",
    "pop",
    "rtsp",
    "rtsps",
    "rtspu",
    "rsync",
    "snmp",
    "ipp",
    "ipps",
    "dns",
    "prospero",
    "wais",
    "z39.50r",
    "z39.50s",
    "acap",
    "icap",
    "vnc",
    "nfs",
    "ssh",
    "sftp",
    "git",
    "svn",
    "redis",
    "rediss",
    "file",
    "mailto",
    "urn",
    "tel",
    "data",
];

/// The registry rung 2 consults: the built-in table plus the caller's
/// overrides. Cheap to clone (shared).
#[derive(Clone, Debug, Default)]
pub struct SchemeRegistry {
    /// Overrides; `None` forgets a built-in scheme.
    overrides: Option<Arc<HashMap<String, Option<SchemeInfo>>>>,
    no_builtin: bool,
}

impl SchemeRegistry {
    /// The built-in table.
    pub fn builtin() -> Self {
        SchemeRegistry::default()
    }

    /// No scheme known at all (rung 2 then applies only the generic rules).
    pub fn empty() -> Self {
        SchemeRegistry {
            overrides: None,
            no_builtin: true,
        }
    }

    fn map(&mut self) -> &mut HashMap<String, Option<SchemeInfo>> {
        Arc::make_mut(self.overrides.get_or_insert_with(Default::default))
    }

    /// Whether this is the built-in table, untouched (no override, no
    /// scheme forgotten): what [`evidence_key`](crate::protocol::evidence_key)
    /// uses. Conservative: an override that repeats a built-in entry
    /// counts as a change.
    pub fn is_builtin(&self) -> bool {
        self.overrides.is_none() && !self.no_builtin
    }

    /// Adds or replaces a scheme (name compared ASCII case-insensitively).
    pub fn insert(&mut self, scheme: &str, info: SchemeInfo) {
        self.map().insert(scheme.to_ascii_lowercase(), Some(info));
    }

    /// Makes a scheme unknown, even if it is built in.
    pub fn forget(&mut self, scheme: &str) {
        self.map().insert(scheme.to_ascii_lowercase(), None);
    }

    /// What is known about a scheme, given in lower case.
    #[inline]
    pub fn get(&self, scheme_lower: &str) -> Option<&SchemeInfo> {
        match &self.overrides {
            // Rung 2 asks for every reference: the common case (no
            // overrides) is inlined, the hash map lookup is not.
            Some(map) => self.get_overridden(map, scheme_lower),
            None if self.no_builtin => None,
            None => builtin(scheme_lower),
        }
    }

    #[inline(never)]
    fn get_overridden<'a>(
        &'a self,
        map: &'a HashMap<String, Option<SchemeInfo>>,
        scheme_lower: &str,
    ) -> Option<&'a SchemeInfo> {
        match map.get(scheme_lower) {
            Some(v) => v.as_ref(),
            None if self.no_builtin => None,
            None => builtin(scheme_lower),
        }
    }

    /// Every known scheme, sorted by name.
    pub fn entries(&self) -> Vec<(String, SchemeInfo)> {
        let mut names: Vec<String> = if self.no_builtin {
            Vec::new()
        } else {
            BUILTIN_NAMES.iter().map(|s| (*s).to_owned()).collect()
        };
        if let Some(map) = &self.overrides {
            names.extend(map.keys().cloned());
        }
        names.sort();
        names.dedup();
        names
            .into_iter()
            .filter_map(|n| self.get(&n).map(|i| (n.clone(), *i)))
            .collect()
    }
}

pub(crate) use crate::pct::lowercase_outside_triplets as lower_outside_triplets;

/// Whether a path has a `.` or `..` segment (RFC 3986 §3.3). The rules of
/// `mailto`, `urn`, `tel` and `data` leave such a path as it is: their
/// paths are rootless (opaque to rung 1, which keeps their dot segments;
/// LADDER.md rung 1), but resolution removes the dot segments of a
/// reference that has a scheme (RFC 3986 §5.2.2 applies §5.2.4 to it), so
/// a rule that decided on, or edited, the text before that removal would
/// break invariant 4: `data:A/B;charset=Q/../X/Y,z` resolves to
/// `data:A/X/Y,z`, which holds no media type, while its own `A/B` does.
/// (docs/ladder.md, decision 23.)
pub(crate) fn dot_segments(path: &str) -> bool {
    path.contains('/') && path.split('/').any(|seg| seg == "." || seg == "..")
}

/// The components and the path of `s` when the rules of `mailto`, `urn`,
/// `tel` and `data` may read and edit that path: `None` when `s` has an
/// authority (not their syntax) or its path a `.` or `..` segment (see
/// [`dot_segments`]).
pub(crate) fn rule_path(s: &str) -> Option<(crate::parse::Meta, &str)> {
    let m = crate::parse::split_trusted(s);
    if m.authority(s).is_some() {
        return None;
    }
    let path = m.path(s);
    if dot_segments(path) {
        return None;
    }
    Some((m, path))
}

/// Runs the scheme-specific normalizer of rung 2 on the normalized text
/// `out[start..]`, replacing it when it changes.
///
/// Takes only the form and the UTS #46 profile (for `mailto` domains), not
/// the ladder's options: the scheme rules sit beneath the ladder.
pub(crate) fn apply<T: crate::norm::trace::Trace>(
    special: Special,
    out: &mut String,
    start: usize,
    form: crate::norm::Form,
    idna: &crate::idn::IdnaProfile,
    t: &mut T,
    warnings: &mut Vec<crate::norm::Warning>,
) {
    use crate::norm::trace::{note, Rule};
    let text = &out[start..];
    let (rule, new) = match special {
        Special::None => return,
        Special::File => (Rule::FileLocalhost, file::normalize(text)),
        Special::Mailto => (Rule::Mailto, mailto::normalize(text, form, idna, warnings)),
        Special::Urn => {
            let nid = urn::normalize(text);
            let uuid = nid
                .as_deref()
                .unwrap_or(text)
                .to_ascii_lowercase()
                .starts_with("urn:uuid:");
            (if uuid { Rule::UrnUuid } else { Rule::UrnNid }, nid)
        }
        Special::Tel => (Rule::Tel, tel::normalize(text)),
        Special::Data => (Rule::DataMediaType, data::normalize(text)),
    };
    if let Some(new) = new {
        if T::ON {
            let before = out[start..].to_owned();
            note(t, rule, None, None, &before, &new);
        }
        out.truncate(start);
        out.push_str(&new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_defaults() {
        for (s, p) in [
            ("http", 80),
            ("https", 443),
            ("ws", 80),
            ("wss", 443),
            ("ftp", 21),
            ("gopher", 70),
            ("telnet", 23),
            ("ldap", 389),
            ("ldaps", 636),
            ("nntp", 119),
            ("imap", 143),
            ("pop", 110),
            ("rtsp", 554),
            ("coap", 5683),
            ("coaps", 5684),
        ] {
            assert_eq!(builtin(s).and_then(|i| i.default_port), Some(p), "{s}");
        }
        assert!(builtin("http").unwrap().empty_path_is_root);
        assert!(!builtin("ldap").unwrap().empty_path_is_root);
        assert!(builtin("example").is_none());
        for n in BUILTIN_NAMES {
            assert!(builtin(n).is_some(), "{n}");
        }
    }

    #[test]
    fn builtin_lookup_is_exact() {
        for n in BUILTIN_NAMES {
            for other in [
                format!("{n}\0"),
                format!("\0{n}"),
                format!("{n}s"),
                format!("x{n}"),
                n[..n.len() - 1].to_owned(),
                n.to_ascii_uppercase(),
            ] {
                assert_eq!(
                    builtin(&other).is_some(),
                    BUILTIN_NAMES.contains(&other.as_str()),
                    "{other:?}"
                );
            }
        }
        // Every one-byte change of every name.
        let alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789+-.AZ\0\xff";
        for n in BUILTIN_NAMES {
            for k in 0..n.len() {
                for &c in alphabet {
                    let mut v = n.as_bytes().to_vec();
                    v[k] = c;
                    let Ok(other) = String::from_utf8(v) else {
                        continue;
                    };
                    assert_eq!(
                        builtin(&other).is_some(),
                        BUILTIN_NAMES.contains(&other.as_str()),
                        "{other:?}"
                    );
                }
            }
        }
        assert!(builtin("").is_none());
        assert!(builtin("coaps+tcq").is_none());
        assert!(builtin("coaps+tcpx").is_none());
        assert_eq!(builtin("z39.50s").unwrap().default_port, Some(210));
        assert_eq!(builtin("coaps+tcp").unwrap().default_port, Some(5684));
        assert_eq!(builtin("file").unwrap().special, Special::File);
        assert_eq!(builtin("data").unwrap().special, Special::Data);
    }

    #[test]
    fn overrides() {
        let mut r = SchemeRegistry::builtin();
        r.insert(
            "MyProto",
            SchemeInfo {
                default_port: Some(7),
                ..SchemeInfo::UNKNOWN
            },
        );
        r.forget("gopher");
        assert_eq!(r.get("myproto").unwrap().default_port, Some(7));
        assert!(r.get("gopher").is_none());
        assert!(r.get("http").is_some());
        assert!(SchemeRegistry::empty().get("http").is_none());
        assert!(r.entries().iter().any(|(n, _)| n == "myproto"));
    }
}
