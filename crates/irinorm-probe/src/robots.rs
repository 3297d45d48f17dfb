//! robots.txt (RFC 9309), fetched once per origin and cached for the run.

use texting_robots::Robot;

/// What robots.txt says for one origin.
#[derive(Debug)]
pub(crate) enum Robots {
    /// No robots.txt (4xx: "unavailable", RFC 9309 §2.3.1.3): everything allowed.
    AllowAll,
    /// robots.txt unreachable (5xx, network error, redirect loop; RFC 9309
    /// §2.3.1.4): everything disallowed, with the reason.
    DisallowAll(String),
    /// The parsed rules for our user agent.
    Rules(Box<Robot>),
}

/// RFC 9309 §2.5: crawlers must parse at least the first 500 KiB; we read
/// no more than that.
pub(crate) const MAX_ROBOTS_BYTES: usize = 500 * 1024;

/// RFC 9309 §2.3.1.2: follow at least five consecutive redirects.
pub(crate) const MAX_ROBOTS_REDIRECTS: usize = 5;

impl Robots {
    /// From a 2xx body (already cut to [`MAX_ROBOTS_BYTES`]). A file the
    /// parser refuses is treated as empty (everything allowed), as RFC 9309
    /// §2.2 has crawlers ignore lines they cannot parse.
    pub(crate) fn from_body(agent: &str, body: &[u8]) -> Robots {
        match Robot::new(agent, body) {
            Ok(r) => Robots::Rules(Box::new(r)),
            Err(_) => Robots::AllowAll,
        }
    }

    /// Whether `url` may be fetched; on refusal, why.
    pub(crate) fn check(&self, url: &str) -> Result<(), String> {
        match self {
            Robots::AllowAll => Ok(()),
            Robots::DisallowAll(why) => {
                Err(format!("robots.txt unreachable ({why}): all disallowed"))
            }
            Robots::Rules(r) if r.allowed(url) => Ok(()),
            Robots::Rules(_) => Err("disallowed by robots.txt".to_owned()),
        }
    }

    /// `Crawl-delay` in seconds, when given.
    pub(crate) fn delay(&self) -> Option<f32> {
        match self {
            Robots::Rules(r) => r.delay,
            _ => None,
        }
    }
}

/// The product token of a `User-Agent` (RFC 9309 §2.2.1 matches groups
/// against it): `irinorm-probe/0.1 (...)` -> `irinorm-probe`.
pub(crate) fn product_token(user_agent: &str) -> &str {
    let end = user_agent
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(user_agent.len());
    &user_agent[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_delay() {
        let txt = b"User-agent: irinorm-probe\nDisallow: /private\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /\n";
        let r = Robots::from_body("irinorm-probe", txt);
        assert!(r.check("http://h/private/x").is_err());
        assert!(r.check("http://h/public").is_ok());
        assert_eq!(r.delay(), Some(2.0));
        let other = Robots::from_body("otherbot", txt);
        assert!(other.check("http://h/public").is_err());
    }

    #[test]
    fn tokens() {
        assert_eq!(
            product_token("irinorm-probe/0.1 (+https://x)"),
            "irinorm-probe"
        );
        assert_eq!(product_token("Bot_1"), "Bot_1");
        assert_eq!(product_token(""), "");
    }
}
