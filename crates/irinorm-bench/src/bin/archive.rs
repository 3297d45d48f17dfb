//! Speed of the crawl-file readers (`irinorm-archive`) against the floor
//! under them: CDX lines per second (against splitting the same text into
//! lines), WARC MB/s (against decompressing the same gzip stream alone).
//!
//! ```text
//! cargo run --release -p irinorm-bench --bin archive -- [--lines N] [--records N] [--rounds N] \
//!     [--warc FILE.warc.gz]...
//! ```
//!
//! Inputs are generated in memory (deterministic), plus pywb's
//! `warcs_iana.warc.gz` from `../shared/evidence` when present. Time is
//! the thread's CPU time; each figure is the median of the rounds.

use std::io::{Cursor, Read, Write};

use rustix::time::{clock_gettime, ClockId};

fn cpu_ns() -> f64 {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "archive", "news", "story", "index", "page", "about", "contact", "login", "search", "product",
    "category", "item", "blog", "post", "comment", "user", "profile", "help", "faq", "terms",
];

fn path(r: &mut Rng) -> String {
    let mut p = String::new();
    for _ in 0..=r.below(4) {
        p.push('/');
        p.push_str(WORDS[r.below(WORDS.len() as u64) as usize]);
        if r.below(3) == 0 {
            p.push_str(&r.below(100_000).to_string());
        }
    }
    if r.below(4) == 0 {
        p.push_str(&format!("?id={}&ref={}", r.below(1_000_000), r.below(100)));
    }
    p
}

fn digest(r: &mut Rng) -> String {
    const B32: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    (0..32).map(|_| B32[r.below(32) as usize] as char).collect()
}

/// `n` lines of an 11-field CDX file (after its header), Common Crawl-like.
fn cdx(n: usize) -> String {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut s = String::from(" CDX N b a m s k r M S V g\n");
    for i in 0..n {
        let host = format!("site{}.example", r.below(5000));
        let p = path(&mut r);
        let (status, redirect) = match r.below(10) {
            0 => ("301", format!("https://{host}{p}/")),
            1 => ("302", "/login".to_owned()),
            _ => ("200", "-".to_owned()),
        };
        s.push_str(&format!(
            "example,{})/{} 2024{:02}{:02}{:06} http://{host}{p} text/html {status} {} {redirect} - {} {} crawl-{}.warc.gz\n",
            &host[..host.len() - 8],
            p.trim_start_matches('/').to_ascii_lowercase(),
            1 + r.below(12),
            1 + r.below(28),
            r.below(235_959),
            digest(&mut r),
            500 + r.below(30_000),
            i * 9000,
            r.below(100),
        ));
    }
    s
}

/// A WARC of `n` request/response pairs, one gzip member per record, with
/// HTML bodies of 2-30 KB (word salad: it compresses about as well as real
/// HTML does).
fn warc(n: usize) -> Vec<u8> {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    let member = |text: &[u8], out: &mut Vec<u8>| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(text).unwrap();
        out.extend(e.finish().unwrap());
    };
    for i in 0..n {
        let url = format!("http://site{}.example{}", r.below(500), path(&mut r));
        let req = "GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: bench\r\n\r\n";
        member(
            format!(
                "WARC/1.1\r\nWARC-Type: request\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-02T03:04:{:02}Z\r\nContent-Type: application/http; msgtype=request\r\nContent-Length: {}\r\n\r\n{req}\r\n\r\n",
                i % 60,
                req.len()
            )
            .as_bytes(),
            &mut out,
        );
        let mut body =
            String::from("<!doctype html><html><head><title>bench</title></head><body>\n");
        let target = 2000 + r.below(28_000) as usize;
        while body.len() < target {
            body.push_str(WORDS[r.below(WORDS.len() as u64) as usize]);
            body.push(if r.below(12) == 0 { '\n' } else { ' ' });
            if r.below(40) == 0 {
                body.push_str(&format!(
                    "<a href=\"{}\">{}</a> ",
                    path(&mut r),
                    r.below(1000)
                ));
            }
        }
        body.push_str("</body></html>\n");
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nServer: bench\r\n\r\n",
            body.len()
        );
        let block = head + &body;
        member(
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-02T03:04:{:02}Z\r\nWARC-Payload-Digest: sha1:{}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
                i % 60,
                digest(&mut r),
                block.len()
            )
            .as_bytes(),
            &mut out,
        );
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median CPU nanoseconds of `f` over `rounds`, and its last result.
fn time<T>(rounds: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..rounds {
        let t = cpu_ns();
        last = Some(std::hint::black_box(f()));
        times.push(cpu_ns() - t);
    }
    (median(times), last.expect("rounds > 0"))
}

/// Reads every observation (the input is `'static`, so the reader gets it
/// without a copy).
fn read_all(bytes: &'static [u8]) -> u64 {
    let recs = irinorm_archive::from_reader(Cursor::new(bytes), None).unwrap();
    recs.map(|r| r.map(|o| o.url.len() as u64).unwrap_or(1))
        .sum()
}

fn gunzip_len(bytes: &[u8]) -> u64 {
    let mut d = flate2::read::MultiGzDecoder::new(bytes);
    let mut buf = vec![0u8; 64 * 1024];
    let mut n = 0u64;
    loop {
        match d.read(&mut buf).unwrap() {
            0 => return n,
            k => n += k as u64,
        }
    }
}

fn main() {
    let mut lines = 1_000_000usize;
    let mut records = 2_000usize;
    let mut rounds = 5usize;
    let mut extra = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next();
        let n = v.as_deref().and_then(|v| v.parse().ok());
        match (a.as_str(), n) {
            ("--lines", Some(v)) => lines = v,
            ("--records", Some(v)) => records = v,
            ("--rounds", Some(v)) => rounds = v.max(1),
            ("--warc", _) if v.is_some() => extra.extend(v),
            _ => {
                eprintln!(
                    "usage: archive [--lines N] [--records N] [--rounds N] [--warc FILE.warc.gz]..."
                );
                std::process::exit(2);
            }
        }
    }
    println!("| input | reader | time (ms) | rate | vs floor |");
    println!("|---|---|---|---|---|");

    // Inputs live as long as the program: leaked, so that readers borrow
    // them for 'static.
    let text: &'static str = Box::leak(cdx(lines).into_boxed_str());
    let (floor, n) = time(rounds, || {
        memchr::memchr_iter(b'\n', text.as_bytes()).count()
    });
    let (t, _) = time(rounds, || read_all(text.as_bytes()));
    let mb = text.len() as f64 / 1e6;
    println!(
        "| CDX, {n} lines, {mb:.0} MB | split lines (memchr) | {:.1} | {:.2} M lines/s | 1.00 |",
        floor / 1e6,
        n as f64 / floor * 1e3
    );
    println!(
        "| CDX, {n} lines, {mb:.0} MB | irinorm-archive | {:.1} | {:.2} M lines/s | {:.2} |",
        t / 1e6,
        n as f64 / t * 1e3,
        t / floor
    );

    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    g.write_all(text.as_bytes()).unwrap();
    let gz: &'static [u8] = Box::leak(g.finish().unwrap().into_boxed_slice());
    let (floor, _) = time(rounds, || gunzip_len(gz));
    let (t, _) = time(rounds, || read_all(gz));
    println!(
        "| CDX.gz, {n} lines | gunzip alone | {:.1} | {:.2} M lines/s | 1.00 |",
        floor / 1e6,
        n as f64 / floor * 1e3
    );
    println!(
        "| CDX.gz, {n} lines | irinorm-archive | {:.1} | {:.2} M lines/s | {:.2} |",
        t / 1e6,
        n as f64 / t * 1e3,
        t / floor
    );

    let leak = |v: Vec<u8>| -> &'static [u8] { Box::leak(v.into_boxed_slice()) };
    let mut warcs = vec![(
        format!("synthetic WARC.gz, {records} pairs"),
        leak(warc(records)),
    )];
    if let Some(d) = irinorm_testdata::evidence_dir("bench archive") {
        warcs.push((
            "pywb warcs_iana.warc.gz".to_owned(),
            leak(std::fs::read(d.join("pywb/warcs_iana.warc.gz")).unwrap()),
        ));
    }
    for f in extra {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let name = std::path::Path::new(&f)
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        warcs.push((name, leak(bytes)));
    }
    for &(ref name, w) in &warcs {
        let (floor, raw) = time(rounds, || gunzip_len(w));
        let (t, _) = time(rounds, || read_all(w));
        let (cmb, rmb) = (w.len() as f64 / 1e6, raw as f64 / 1e6);
        println!(
            "| {name} ({cmb:.1} MB gz, {rmb:.1} MB) | gunzip alone | {:.1} | {:.0} MB/s | 1.00 |",
            floor / 1e6,
            rmb / floor * 1e9
        );
        println!(
            "| {name} ({cmb:.1} MB gz, {rmb:.1} MB) | irinorm-archive | {:.1} | {:.0} MB/s | {:.2} |",
            t / 1e6,
            rmb / t * 1e9,
            t / floor
        );
    }
}
