//! `irinorm probe`: request each distinct URL (rung 2) and record its
//! redirects and final status in the evidence store (docs/probe.md).

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use irinorm_probe::store_run::{probe_into_store, RunError};
use irinorm_probe::{parse_resolve, InputUrl, ProbeConfig, ProbeRecord, Summary};
use irinorm_stream::input::Compression;

use crate::common::{usage, CliError};

/// Probe URLs over HTTP(S) and store their redirects and final statuses
/// as evidence for `--rung protocol`.
///
/// Each distinct URL (rung 2) is requested with HEAD (GET when HEAD is
/// refused, or with --digest), redirects are followed hop by hop and each
/// response is stored. Politely: robots.txt, 2 requests at a time per
/// host, Crawl-delay and Retry-After honoured. URLs already probed within
/// --max-age are skipped, so an interrupted run can be started again.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// URLs to probe. Without any, URLs are read one per line from the
    /// --input files, or from stdin.
    #[arg(value_name = "URL")]
    urls: Vec<String>,

    /// Read URLs (one a line) from FILE; repeatable; `-` is stdin. gzip and
    /// zstd are detected by their magic bytes.
    #[arg(
        short = 'i',
        long = "input",
        value_name = "FILE",
        conflicts_with = "urls"
    )]
    files: Vec<PathBuf>,

    /// The evidence store (SQLite; created if absent).
    #[arg(long, value_name = "FILE.db")]
    db: PathBuf,

    /// Write every failure to FILE as JSON Lines (see docs/probe.md).
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,

    /// Without --rejects, show at most N failures on stderr (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    show_rejects: u64,

    /// Skip URLs that a probe run observed within this age (`90s`, `30m`,
    /// `12h`, `7d`; a bare number is seconds).
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    max_age: Option<Duration>,

    /// Hash the first --digest-bytes of each final body (SHA-1, base32, as
    /// WARC payload digests); requests are then GET.
    #[arg(long)]
    digest: bool,

    /// How much of each final body --digest hashes.
    #[arg(long, value_name = "N", default_value_t = 1 << 20, requires = "digest",
          value_parser = clap::value_parser!(u64).range(1..=(1u64 << 32)))]
    digest_bytes: u64,

    /// The User-Agent header, whose product token is also matched against
    /// robots.txt groups.
    #[arg(long, value_name = "TEXT", default_value = irinorm_probe::DEFAULT_USER_AGENT)]
    user_agent: String,

    /// Do not fetch or obey robots.txt.
    #[arg(long)]
    ignore_robots: bool,

    /// Requests in flight to one host (host and port) at once.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    per_host: u32,

    /// Requests per second started to one host (default: no limit beyond
    /// --per-host and Crawl-delay).
    #[arg(long, value_name = "R", value_parser = parse_rate)]
    rate: Option<f64>,

    /// Requests in flight in total.
    #[arg(short = 'c', long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    concurrency: u32,

    /// Seconds allowed to connect (TCP and TLS).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_secs)]
    connect_timeout: Duration,

    /// Seconds allowed for one request, headers and digested body included.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_secs)]
    timeout: Duration,

    /// Redirects followed per URL.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    max_redirects: u32,

    /// Retries after connection errors, 429 and 503.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(0..=20))]
    retries: u32,

    /// Longest wait honoured from Retry-After or the backoff, in seconds.
    #[arg(long, value_name = "SECS", default_value = "120", value_parser = parse_secs)]
    max_retry_wait: Duration,

    /// Use ADDR for HOST (on every port; PORT is checked to be a number, as
    /// curl's syntax has it); repeatable.
    #[arg(long, value_name = "HOST:PORT:ADDR", value_parser = parse_resolve)]
    resolve: Vec<(String, std::net::SocketAddr)>,

    /// Refuse every address outside 127.0.0.0/8 and ::1 (for tests and
    /// local servers).
    #[arg(long)]
    loopback_only: bool,

    /// No progress bar and no summary line (failures are still reported).
    #[arg(short = 'q', long)]
    quiet: bool,
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{s:?}: not a number of seconds"))?;
    if !(v > 0.0 && v <= 86_400.0) {
        return Err(format!("{s:?}: between 0 (excluded) and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("{s:?}: not a number"))?;
    if !(v > 0.0 && v <= 1e6) {
        return Err(format!(
            "{s:?}: between 0 (excluded) and 1000000 requests/s"
        ));
    }
    Ok(v)
}

/// `90`, `90s`, `30m`, `12h`, `7d`.
fn parse_age(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s:?}: expected N, Ns, Nm, Nh or Nd"))?;
    let mul = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("{s:?}: expected N, Ns, Nm, Nh or Nd")),
    };
    n.checked_mul(mul)
        .map(Duration::from_secs)
        .ok_or_else(|| format!("{s:?}: too large"))
}

/// The lines of every input, numbered, with their byte offsets. A read
/// error ends the input; it is kept in `error` and reported after the run.
struct Lines {
    names: Vec<String>,
    readers: Vec<Box<dyn BufRead>>,
    cur: usize,
    line: u64,
    offset: u64,
    buf: Vec<u8>,
    error: std::rc::Rc<std::cell::RefCell<Option<io::Error>>>,
}

fn open_input(p: &PathBuf) -> io::Result<Box<dyn BufRead>> {
    let raw: Box<dyn Read> = if p.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(
            File::open(p).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?,
        )
    };
    let mut r = BufReader::with_capacity(1 << 16, raw);
    let head = r.fill_buf()?;
    Ok(match Compression::sniff(head) {
        Compression::Gzip => Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(r))),
        Compression::Zstd => Box::new(BufReader::new(zstd::Decoder::with_buffer(r)?)),
        _ => Box::new(r),
    })
}

impl Iterator for Lines {
    type Item = InputUrl;

    fn next(&mut self) -> Option<InputUrl> {
        loop {
            let r = self.readers.get_mut(self.cur)?;
            self.buf.clear();
            match r.read_until(b'\n', &mut self.buf) {
                Ok(0) => {}
                Ok(n) => {
                    let start = self.offset;
                    self.offset += n as u64;
                    self.line += 1;
                    let mut b = &self.buf[..];
                    b = b.strip_suffix(b"\n").unwrap_or(b);
                    b = b.strip_suffix(b"\r").unwrap_or(b);
                    return Some(InputUrl::from_bytes(self.cur, self.line, start, b));
                }
                Err(e) => {
                    // The line and byte reached, as `learn` and the
                    // crawl-file readers say where a cut gzip or zstd
                    // input ends (round 22: the file only).
                    let msg = format!(
                        "{}: line {}, byte {} of the (decompressed) text: {e}",
                        self.names[self.cur],
                        self.line + 1,
                        self.offset
                    );
                    *self.error.borrow_mut() = Some(io::Error::new(e.kind(), msg));
                    return None;
                }
            }
            self.cur += 1;
            self.line = 0;
            self.offset = 0;
        }
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    if a.rate.is_some_and(|r| r <= 0.0) {
        return usage("--rate must be positive");
    }
    let cfg = ProbeConfig {
        user_agent: a.user_agent.clone(),
        connect_timeout: a.connect_timeout,
        timeout: a.timeout,
        max_redirects: a.max_redirects as usize,
        retries: a.retries,
        max_retry_wait: a.max_retry_wait,
        per_host: a.per_host as usize,
        per_host_rate: a.rate,
        concurrency: a.concurrency as usize,
        robots: !a.ignore_robots,
        digest_bytes: a.digest.then_some(a.digest_bytes as usize),
        resolve: a.resolve.clone(),
        loopback_only: a.loopback_only,
        ..ProbeConfig::default()
    };
    let error = std::rc::Rc::new(std::cell::RefCell::new(None));
    let (names, readers): (Vec<String>, Vec<Box<dyn BufRead>>) = if a.urls.is_empty() {
        let files = if a.files.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            a.files.clone()
        };
        let mut rs = Vec::new();
        for f in &files {
            rs.push(open_input(f)?);
        }
        (files.iter().map(|f| f.display().to_string()).collect(), rs)
    } else {
        let text = a.urls.join("\n");
        (
            vec!["argument".to_owned()],
            vec![Box::new(io::Cursor::new(text.into_bytes())) as Box<dyn BufRead>],
        )
    };
    let lines = Lines {
        names: names.clone(),
        readers,
        cur: 0,
        line: 0,
        offset: 0,
        buf: Vec::new(),
        error: error.clone(),
    };

    let mut rejects = match &a.rejects {
        Some(p) => Some(BufWriter::new(File::create(p).map_err(|e| {
            io::Error::new(e.kind(), format!("{}: {e}", p.display()))
        })?)),
        None => None,
    };
    let bar = progress_bar(a.quiet);
    let mut shown = 0u64;
    let mut failed = 0u64;
    let on_record = |rec: &ProbeRecord| -> io::Result<()> {
        bar.inc(1);
        let Some(f) = &rec.failure else {
            return Ok(());
        };
        failed += 1;
        bar.set_message(format!("{failed} failed"));
        let line = reject_json(&names[rec.input.source], rec);
        match &mut rejects {
            Some(w) => {
                w.write_all(line.as_bytes())?;
                w.write_all(b"\n")
            }
            None => {
                if shown < a.show_rejects {
                    shown += 1;
                    bar.suspend(|| {
                        irinorm_stream::note(format_args!(
                            "irinorm: {}:{}: {} ({}): {}",
                            names[rec.input.source], rec.input.line, f.kind, f.url, f.message
                        ))
                    });
                }
                Ok(())
            }
        }
    };
    let r = probe_into_store(&a.db, cfg, lines, a.max_age, on_record);
    bar.finish_and_clear();
    let r = match r {
        Ok(r) => r,
        Err(RunError::Config(m)) => return usage(m),
        Err(RunError::Store(e)) => return Err(CliError::Io(io::Error::other(e.to_string()))),
        Err(RunError::Io(e)) => return Err(CliError::Io(e)),
    };
    if let Some(mut w) = rejects {
        w.flush()?;
    }
    for e in &r.store_rejects {
        irinorm_stream::note(format_args!(
            "irinorm: store refused observation {}: {} ({})",
            e.offset, e.message, e.kind
        ));
    }
    if !a.quiet {
        irinorm_stream::note(format_args!(
            "irinorm: {}; stored {} observations as {}",
            summary_line(&r.summary),
            r.ingest.inserted,
            r.source
        ));
        if rejects_hidden(&r.summary, a.rejects.is_some(), a.show_rejects) {
            irinorm_stream::note(format_args!(
                "irinorm: {} failures not shown (--rejects FILE keeps them all)",
                r.summary.failed() - a.show_rejects
            ));
        }
    }
    if let Some(e) = error.borrow_mut().take() {
        return Err(CliError::Io(e));
    }
    Ok(if r.summary.failed() > 0 || !r.store_rejects.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn rejects_hidden(s: &Summary, to_file: bool, shown: u64) -> bool {
    !to_file && s.failed() > shown
}

fn progress_bar(quiet: bool) -> indicatif::ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new_spinner();
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos} URLs done, {per_sec}, {elapsed} {msg}",
        )
        .expect("a valid template"),
    );
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// One failure as a JSON object (docs/probe.md, "Rejects").
fn reject_json(source: &str, rec: &ProbeRecord) -> String {
    let f = rec.failure.as_ref().expect("a failed record");
    serde_json::json!({
        "source": source,
        "line": rec.input.line,
        "offset": rec.input.offset,
        "input": rec.input.text,
        "url": rec.url,
        "kind": f.kind,
        "failed_url": f.url,
        "message": f.message,
        "observations": rec.observations.len(),
    })
    .to_string()
}

/// `read N, probed N (...), ...`: every line read is probed, a duplicate,
/// fresh, or failed before probing.
fn summary_line(s: &Summary) -> String {
    let statuses: Vec<String> = s
        .final_status
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let failures: Vec<String> = s.failures.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!(
        "probe: read {}, probed {} (redirected {}, answered {}{}{}), duplicates {}, fresh {}, failed {}{}{}, requests {}",
        s.read,
        s.probed,
        s.redirected,
        s.answered,
        if statuses.is_empty() { "" } else { ": " },
        statuses.join(", "),
        s.duplicates,
        s.fresh,
        s.failed(),
        if failures.is_empty() { "" } else { ": " },
        failures.join(", "),
        s.requests,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages() {
        assert_eq!(parse_age("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_age("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_age("7d"), Ok(Duration::from_secs(604_800)));
        assert!(parse_age("7w").is_err());
        assert!(parse_age("").is_err());
        assert!(parse_age("h").is_err());
        assert!(parse_age("99999999999999999999d").is_err());
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_secs("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_secs("0").is_err());
        assert!(parse_secs("-1").is_err());
        assert!(parse_secs("nan").is_err());
        assert!(parse_rate("inf").is_err());
    }
}
