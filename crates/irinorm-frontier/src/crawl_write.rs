//! Writing a simulated crawl as real crawl files: a WARC 1.1 file (one gzip
//! member per record; a `revisit` record when a payload was already
//! captured, as deduplicating crawlers write), its CDX (11-field) and CDXJ
//! indexes (sorted, offsets into the WARC), and the truth file (TSV: url,
//! page, canonical, rung3, mechanism, status).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use sha1::{Digest, Sha1};

use crate::crawl::Capture;

/// The files written by [`write_crawl`].
#[derive(Debug, Clone)]
pub struct CrawlFiles {
    /// `PREFIX.warc.gz`.
    pub warc: PathBuf,
    /// `PREFIX.cdx`.
    pub cdx: PathBuf,
    /// `PREFIX.cdxj`.
    pub cdxj: PathBuf,
    /// `PREFIX.truth.tsv`.
    pub truth: PathBuf,
    /// Records written to the WARC (warcinfo, responses, revisits).
    pub records: usize,
    /// Of which revisits.
    pub revisits: usize,
}

/// The header line of the truth file.
pub const TRUTH_HEADER: &str = "url\tpage\tcanonical\trung3\tmechanism\tstatus";

/// The SHA-1 of a payload in base32 (RFC 4648 §6), as WARC-Payload-Digest
/// and CDX `k` write it.
pub fn payload_digest(body: &[u8]) -> String {
    data_encoding::BASE32.encode(&Sha1::digest(body))
}

/// `20240101000007` -> `2024-01-01T00:00:07Z` (WARC 1.1 §5.4).
fn warc_date(t: &str) -> String {
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &t[0..4],
        &t[4..6],
        &t[6..8],
        &t[8..10],
        &t[10..12],
        &t[12..14]
    )
}

/// A SURT-style sort key (host labels reversed, `)`, lowercased path and
/// query), as CDX field `N` holds.
fn surt(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (host, path) = rest.find('/').map_or((rest, "/"), |i| rest.split_at(i));
    let mut labels: Vec<&str> = host.split('.').collect();
    if labels.first() == Some(&"www") {
        labels.remove(0);
    }
    labels.reverse();
    format!(
        "{}){}",
        labels.join(",").to_ascii_lowercase(),
        path.to_ascii_lowercase()
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        404 => "Not Found",
        _ => "Status",
    }
}

fn record_id(url: &str, time: &str, kind: &str) -> String {
    let h = payload_digest(format!("{kind} {url} {time}").as_bytes()).to_ascii_lowercase();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn gzip_member(text: &[u8]) -> io::Result<Vec<u8>> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(text)?;
    e.finish()
}

/// Writes `caps` as `DIR/PREFIX.{warc.gz,cdx,cdxj,truth.tsv}`.
pub fn write_crawl(caps: &[Capture], dir: &Path, prefix: &str) -> io::Result<CrawlFiles> {
    std::fs::create_dir_all(dir)?;
    let files = CrawlFiles {
        warc: dir.join(format!("{prefix}.warc.gz")),
        cdx: dir.join(format!("{prefix}.cdx")),
        cdxj: dir.join(format!("{prefix}.cdxj")),
        truth: dir.join(format!("{prefix}.truth.tsv")),
        records: 0,
        revisits: 0,
    };
    let warc_name = format!("{prefix}.warc.gz");
    let mut warc = BufWriter::new(File::create(&files.warc)?);
    let mut truth = BufWriter::new(File::create(&files.truth)?);
    writeln!(truth, "{TRUTH_HEADER}")?;
    let mut offset = 0u64;
    let mut records = 0;
    let mut revisits = 0;
    let info = "software: irinorm-frontier crawl (simulated)\r\nformat: WARC File Format 1.1\r\n";
    let first_time = caps.first().map_or("20240101000000", |c| c.time.as_str());
    let member = gzip_member(
        format!(
            "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: {}\r\nWARC-Date: {}\r\nWARC-Filename: {warc_name}\r\nContent-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n{info}\r\n\r\n",
            record_id(prefix, first_time, "warcinfo"),
            warc_date(first_time),
            info.len()
        )
        .as_bytes(),
    )?;
    warc.write_all(&member)?;
    offset += member.len() as u64;
    records += 1;
    let mut first_capture: HashMap<String, (String, String)> = HashMap::new();
    let mut cdx = Vec::with_capacity(caps.len());
    let mut cdxj = Vec::with_capacity(caps.len());
    for c in caps {
        let digest = payload_digest(c.body.as_bytes());
        let location = c
            .location
            .as_deref()
            .map(|l| format!("Location: {l}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: text/html; charset=utf-8\r\n{location}Content-Length: {}\r\n\r\n",
            c.status,
            reason(c.status),
            c.body.len()
        );
        let earlier = (c.status == 200)
            .then(|| first_capture.get(&digest).cloned())
            .flatten();
        let (kind, block, extra) = match &earlier {
            Some((url, time)) => (
                "revisit",
                head.clone(),
                format!(
                    "WARC-Refers-To-Target-URI: {url}\r\nWARC-Refers-To-Date: {}\r\nWARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n",
                    warc_date(time)
                ),
            ),
            None => ("response", format!("{head}{}", c.body), String::new()),
        };
        if earlier.is_none() && c.status == 200 {
            first_capture.insert(digest.clone(), (c.url.clone(), c.time.clone()));
        }
        let text = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {}\r\nWARC-Date: {}\r\nWARC-Target-URI: {}\r\nWARC-Payload-Digest: sha1:{digest}\r\n{extra}Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            record_id(&c.url, &c.time, kind),
            warc_date(&c.time),
            c.url,
            block.len()
        );
        let member = gzip_member(text.as_bytes())?;
        warc.write_all(&member)?;
        let revisit = earlier.is_some();
        let key = surt(&c.url);
        let status = if revisit {
            "-".to_owned()
        } else {
            c.status.to_string()
        };
        let mime = if revisit { "warc/revisit" } else { "text/html" };
        cdx.push(format!(
            "{key} {} {} {mime} {status} {digest} {} - {} {offset} {warc_name}",
            c.time,
            c.url,
            c.location.as_deref().unwrap_or("-"),
            member.len()
        ));
        let mut j = serde_json::Map::new();
        j.insert("url".into(), c.url.clone().into());
        j.insert("mime".into(), mime.into());
        if !revisit {
            j.insert("status".into(), status.clone().into());
        }
        j.insert("digest".into(), format!("sha1:{digest}").into());
        if let Some(l) = &c.location {
            j.insert("redirect".into(), l.clone().into());
        }
        j.insert("length".into(), member.len().to_string().into());
        j.insert("offset".into(), offset.to_string().into());
        j.insert("filename".into(), warc_name.clone().into());
        cdxj.push(format!("{key} {} {}", c.time, serde_json::Value::Object(j)));
        offset += member.len() as u64;
        records += 1;
        revisits += usize::from(revisit);
        writeln!(
            truth,
            "{}\t{}\t{}\t{}\t{}\t{}",
            c.url,
            c.page,
            c.canonical,
            c.rung3.name(),
            c.mechanism,
            c.status
        )?;
    }
    warc.into_inner()
        .map_err(io::IntoInnerError::into_error)?
        .sync_all()?;
    truth.flush()?;
    // Indexes are sorted as `LC_ALL=C sort` sorts them.
    cdx.sort();
    cdxj.sort();
    let mut w = BufWriter::new(File::create(&files.cdx)?);
    writeln!(w, " CDX N b a m s k r M S V g")?;
    for l in &cdx {
        writeln!(w, "{l}")?;
    }
    w.flush()?;
    let mut w = BufWriter::new(File::create(&files.cdxj)?);
    for l in &cdxj {
        writeln!(w, "{l}")?;
    }
    w.flush()?;
    Ok(CrawlFiles {
        records,
        revisits,
        ..files
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_base32_reference() {
        // SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d
        // (FIPS 180-2 appendix A.1), in base32.
        assert_eq!(payload_digest(b"abc"), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    }

    #[test]
    fn surt_keys() {
        assert_eq!(surt("https://www.Ab.example/X?y=1"), "example,ab)/x?y=1");
        assert_eq!(surt("http://a.example"), "example,a)/");
    }
}
