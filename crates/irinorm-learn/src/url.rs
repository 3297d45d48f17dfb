//! The parts of a normal URL the learner compares.

/// A normal reference taken apart (`scheme://host[:port]path[?query]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parts<'a> {
    pub(crate) scheme: &'a str,
    pub(crate) host: &'a str,
    pub(crate) port: Option<&'a str>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
}

impl<'a> Parts<'a> {
    /// `None` without an authority or an absolute path (the host rules
    /// only apply to those), or with userinfo or a fragment.
    pub(crate) fn of(url: &'a str) -> Option<Self> {
        let m = irinorm::split_trusted(url);
        let host = m.host(url)?;
        let path = m.path(url);
        if !path.starts_with('/') || m.userinfo(url).is_some() || m.fragment(url).is_some() {
            return None;
        }
        Some(Parts {
            scheme: m.scheme(url)?,
            host,
            port: m.port(url),
            path,
            query: m.query(url),
        })
    }

    /// `path?query`.
    pub(crate) fn tail(&self) -> String {
        match self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.to_owned(),
        }
    }
}
