//! Why a URL's probe ended without a final response (or with one that is
//! not an answer): every such end is a failure record, never dropped.

use serde::Serialize;

/// Stable failure kinds (the `kind` field of the rejects file; docs/probe.md).
pub mod kind {
    /// The input line is not a URI/IRI (RFC 3986/3987 grammar).
    pub const INVALID_URL: &str = "invalid-url";
    /// The input line is not valid UTF-8.
    pub const INVALID_UTF8: &str = "invalid-utf8";
    /// Not `http` or `https`.
    pub const UNSUPPORTED_SCHEME: &str = "unsupported-scheme";
    /// Refused by `--loopback-only`.
    pub const BLOCKED_ADDRESS: &str = "blocked-address";
    /// robots.txt disallows the URL for our user agent (RFC 9309).
    pub const ROBOTS: &str = "robots-disallowed";
    /// The connection could not be opened (refused, DNS, TLS, connect timeout).
    pub const CONNECT: &str = "connect";
    /// The connection was closed or reset, or the response was not HTTP.
    pub const CONNECTION: &str = "connection";
    /// The request took longer than `--timeout`.
    pub const TIMEOUT: &str = "timeout";
    /// The final body could not be read to its digest length.
    pub const BODY: &str = "body";
    /// 429 or 503 on every attempt.
    pub const RETRIES_EXHAUSTED: &str = "retries-exhausted";
    /// `Retry-After` asked for longer than `--max-retry-wait`.
    pub const RETRY_AFTER_TOO_LONG: &str = "retry-after-too-long";
    /// A redirect to a URL already on the chain.
    pub const REDIRECT_LOOP: &str = "redirect-loop";
    /// More than `--max-redirects` redirects.
    pub const TOO_MANY_REDIRECTS: &str = "too-many-redirects";
    /// A redirect whose `Location` is not a URI reference, or not http(s).
    pub const BAD_LOCATION: &str = "bad-location";
}

/// One failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// One of [`kind`].
    pub kind: &'static str,
    /// The URL of the hop that failed (the input text for `invalid-url`).
    pub url: String,
    /// What happened, for a person.
    pub message: String,
}

impl Failure {
    pub(crate) fn new(kind: &'static str, url: &str, message: impl Into<String>) -> Self {
        Failure {
            kind,
            url: url.to_owned(),
            message: message.into(),
        }
    }
}
