//! Size limits that keep memory bounded whatever the input. A record whose
//! header or line is longer is a bad record (`ErrorKind::TooLong`): the
//! reader skips it without buffering it.

/// A WARC header block or an ARC header line (WARC 1.1 §4 sets no limit;
/// real headers are under 4 KiB, warcio's longest test header is 1 KiB).
pub const MAX_RECORD_HEADER: usize = 64 * 1024;

/// The bytes of a record block read to find the HTTP head (status line and
/// headers); the rest of the block is skipped unread. Servers commonly cap
/// their own header size at 8-64 KiB.
pub const MAX_HTTP_HEAD: usize = 64 * 1024;

/// One CDX, CDXJ or TSV line. Common Crawl's longest CDXJ lines are a few
/// KiB (URLs are capped at 2-8 KiB by most crawlers).
pub const MAX_LINE: usize = 64 * 1024;

/// Headers kept by the HTTP head parser.
pub(crate) const MAX_HTTP_HEADERS: usize = 256;
