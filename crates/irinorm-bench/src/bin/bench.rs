//! Interleaved comparison of irinorm with its peers, in one process.
//!
//! ```text
//! cargo run --release -p irinorm-bench --bin bench -- \
//!     [--filter SUBSTR]... [--lib SUBSTR]... [--dataset SUBSTR]... \
//!     [--rounds N] [--min-sample-ms MS] [--markdown]
//! ```
//!
//! Every (operation, data set) group runs all its libraries round by round
//! (A B C, B C A, C A B, ...: the starting library rotates so that none is
//! always first after a switch), each sample long enough to dwarf the timer.
//! Time is the thread's CPU time by default (`CLOCK_THREAD_CPUTIME_ID`), so
//! that time spent descheduled on a busy machine is not counted; `--clock
//! wall` uses the monotonic wall clock instead.
//! The table shows the median over the rounds: ns per item, MB/s of input,
//! and the time relative to the operation's baseline, its first library
//! (irinorm; `irinorm rfc` for the presets): `1.50` = 50% slower.
//! The spread column is the inter-quartile range over the median.

use std::process::ExitCode;
use std::time::Instant;

use rustix::time::{clock_gettime, ClockId};

use irinorm_bench::{baseline, operations, Checksum, Entry, Inputs, REGISTRY};

const USAGE: &str = "usage: bench [--filter SUBSTR]... [--lib SUBSTR]... [--dataset SUBSTR]... \
[--only NAME] [--rounds N] [--min-sample-ms MS] [--clock cpu|wall] [--markdown] [--list]

  --filter SUBSTR     only operations whose name contains SUBSTR (parse, resolve, IRI...)
  --lib SUBSTR        only libraries whose name contains SUBSTR (the baseline always runs)
  --only NAME         only the library named exactly NAME, no baseline (for profilers)
  --dataset SUBSTR    only data sets whose name contains SUBSTR (all, kasztp, ...)
  --rounds N          interleaved rounds (default 15); the median is reported
  --min-sample-ms MS  minimum duration of one sample (default 10)
  --clock cpu|wall    thread CPU time (default) or wall-clock time
  --markdown          print Markdown tables (for BENCHMARKS.md)
  --list              list the registered (operation, library) pairs and exit";

#[derive(Debug)]
struct Args {
    filters: Vec<String>,
    libs: Vec<String>,
    only: Option<String>,
    datasets: Vec<String>,
    rounds: usize,
    min_sample_ms: f64,
    clock: Clock,
    markdown: bool,
    list: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        filters: Vec::new(),
        libs: Vec::new(),
        only: None,
        datasets: Vec::new(),
        rounds: 15,
        min_sample_ms: 10.0,
        clock: Clock::Cpu,
        markdown: false,
        list: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--filter" => a.filters.push(value("--filter")?),
            "--lib" => a.libs.push(value("--lib")?),
            "--only" => a.only = Some(value("--only")?),
            "--dataset" => a.datasets.push(value("--dataset")?),
            "--rounds" => {
                a.rounds = value("--rounds")?
                    .parse()
                    .map_err(|e| format!("--rounds: {e}"))?;
                if a.rounds == 0 {
                    return Err("--rounds must be at least 1".into());
                }
            }
            "--min-sample-ms" => {
                a.min_sample_ms = value("--min-sample-ms")?
                    .parse()
                    .map_err(|e| format!("--min-sample-ms: {e}"))?;
            }
            "--clock" => {
                a.clock = match value("--clock")?.as_str() {
                    "cpu" => Clock::Cpu,
                    "wall" => Clock::Wall,
                    other => return Err(format!("--clock: {other:?} is not cpu or wall")),
                }
            }
            "--markdown" => a.markdown = true,
            "--list" => a.list = true,
            // `cargo bench` passes this to every bench target.
            "--bench" => {}
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(a)
}

fn matches(name: &str, wanted: &[String]) -> bool {
    wanted.is_empty() || wanted.iter().any(|w| name.contains(w.as_str()))
}

/// One library in one group.
struct Cell {
    entry: Entry,
    /// Calls per sample.
    iters: u32,
    checksum: u64,
    /// Nanoseconds per call, one per round.
    samples: Vec<f64>,
}

/// One (operation, data set): the libraries compared on it.
struct Group<'a> {
    op: &'static str,
    inputs: &'a Inputs,
    cells: Vec<Cell>,
}

/// What a sample measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    /// CPU time of this thread.
    Cpu,
    /// Monotonic wall-clock time.
    Wall,
}

impl Clock {
    fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "thread CPU time",
            Clock::Wall => "wall-clock time",
        }
    }
}

/// A point in time of `clock`, in nanoseconds from an arbitrary origin.
fn now_ns(clock: Clock, origin: Instant) -> f64 {
    match clock {
        Clock::Cpu => {
            let t = clock_gettime(ClockId::ThreadCPUTime);
            t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
        }
        Clock::Wall => origin.elapsed().as_nanos() as f64,
    }
}

/// Runs `entry` `iters` times; nanoseconds per call, and the checksum.
fn time_calls(clock: Clock, entry: &Entry, inputs: &Inputs, iters: u32) -> (f64, u64) {
    let origin = Instant::now();
    let start = now_ns(clock, origin);
    let mut sum = 0;
    for _ in 0..iters {
        sum = std::hint::black_box((entry.run)(std::hint::black_box(inputs)));
    }
    ((now_ns(clock, origin) - start) / f64::from(iters), sum)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

struct Row {
    lib: &'static str,
    accepted: u64,
    ns_item: f64,
    mb_s: f64,
    ratio: Option<f64>,
    spread: f64,
}

fn rows(g: &Group<'_>) -> Vec<Row> {
    let items = g.inputs.items().max(1) as f64;
    let bytes = g.inputs.bytes() as f64;
    let stats: Vec<(f64, f64)> = g
        .cells
        .iter()
        .map(|c| {
            let mut s = c.samples.clone();
            s.sort_by(f64::total_cmp);
            let med = quantile(&s, 0.5);
            (med, (quantile(&s, 0.75) - quantile(&s, 0.25)) / med)
        })
        .collect();
    let base_lib = baseline(g.op);
    let base = g
        .cells
        .iter()
        .zip(&stats)
        .find(|(c, _)| Some(c.entry.lib) == base_lib)
        .map(|(_, s)| s.0);
    g.cells
        .iter()
        .zip(stats)
        .map(|(c, (med, spread))| Row {
            lib: c.entry.lib,
            accepted: Checksum::accepted(c.checksum),
            ns_item: med / items,
            // bytes per ns = GB/s
            mb_s: bytes / med * 1e3,
            ratio: base.map(|b| med / b),
            spread,
        })
        .collect()
}

fn print_text(groups: &[Group<'_>]) {
    let mut op = "";
    for g in groups {
        if g.op != op {
            op = g.op;
            println!("\n== {op} ==");
            println!(
                "{:<30} {:<18} {:>10} {:>10} {:>9} {:>10} {:>7}",
                "data set", "library", "accepted", "ns/item", "MB/s", "vs base", "spread"
            );
        }
        for r in rows(g) {
            println!(
                "{:<30} {:<18} {:>10} {:>10.1} {:>9.0} {:>10} {:>6.1}%",
                format!("{} ({})", g.inputs.name, g.inputs.items()),
                r.lib,
                r.accepted,
                r.ns_item,
                r.mb_s,
                r.ratio.map_or("-".into(), |x| format!("{x:.2}")),
                r.spread * 100.0
            );
        }
    }
}

fn print_markdown(groups: &[Group<'_>]) {
    let mut op = "";
    for g in groups {
        if g.op != op {
            op = g.op;
            println!("\n### {op}\n");
            println!(
                "| data set | library | accepted | ns/item | MB/s | time vs baseline | spread |"
            );
            println!("|---|---|---:|---:|---:|---:|---:|");
        }
        for r in rows(g) {
            let lib = if Some(r.lib) == baseline(g.op) {
                format!("**{}**", r.lib)
            } else {
                r.lib.to_owned()
            };
            println!(
                "| {} ({} items, {:.2} MB) | {} | {} | {:.1} | {:.0} | {} | {:.1}% |",
                g.inputs.name,
                g.inputs.items(),
                g.inputs.bytes() as f64 / 1e6,
                lib,
                r.accepted,
                r.ns_item,
                r.mb_s,
                r.ratio.map_or("-".into(), |x| format!("{x:.2}")),
                r.spread * 100.0
            );
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("bench: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.list {
        for e in REGISTRY {
            println!("{:<38} {:<28} {:?}", e.op, e.lib, e.kind);
        }
        return ExitCode::SUCCESS;
    }
    let Some(sets) = irinorm_bench::load_all() else {
        eprintln!("bench: the corpora are missing (set IRINORM_VECTORS)");
        return ExitCode::FAILURE;
    };

    let mut groups: Vec<Group<'_>> = Vec::new();
    for op in operations()
        .into_iter()
        .filter(|op| matches(op, &args.filters))
    {
        let entries: Vec<Entry> = REGISTRY
            .iter()
            .filter(|e| e.op == op && (Some(e.lib) == baseline(op) || matches(e.lib, &args.libs)))
            .filter(|e| args.only.as_ref().is_none_or(|o| o == e.lib))
            .copied()
            .collect();
        let Some(kind) = entries.first().map(|e| e.kind) else {
            continue;
        };
        for inputs in sets
            .iter()
            .filter(|s| s.kind() == kind && matches(&s.name, &args.datasets))
        {
            groups.push(Group {
                op,
                inputs,
                cells: entries
                    .iter()
                    .map(|&entry| Cell {
                        entry,
                        iters: 1,
                        checksum: 0,
                        samples: Vec::with_capacity(args.rounds),
                    })
                    .collect(),
            });
        }
    }
    if groups.is_empty() {
        eprintln!("bench: nothing matches the filters (see --list)");
        return ExitCode::FAILURE;
    }

    // Warm-up and calibration: one call each, then enough calls per sample
    // to last --min-sample-ms.
    let min_ns = args.min_sample_ms * 1e6;
    for g in &mut groups {
        for c in &mut g.cells {
            let (first, sum) = time_calls(args.clock, &c.entry, g.inputs, 1);
            let (second, _) = time_calls(args.clock, &c.entry, g.inputs, 1);
            c.checksum = sum;
            // At least one call per sample (also when the clock did not
            // move, or with --min-sample-ms 0 under a profiler).
            c.iters = (min_ns / first.min(second).max(1.0)).ceil().clamp(1.0, 1e6) as u32;
        }
    }

    eprintln!(
        "bench: {} groups, {} rounds, samples >= {} ms of {}",
        groups.len(),
        args.rounds,
        args.min_sample_ms,
        args.clock.name()
    );
    for round in 0..args.rounds {
        for g in &mut groups {
            let n = g.cells.len();
            for k in 0..n {
                let c = &mut g.cells[(k + round) % n];
                let (ns, sum) = time_calls(args.clock, &c.entry, g.inputs, c.iters);
                assert_eq!(
                    sum, c.checksum,
                    "{} / {}: the result changed between runs",
                    c.entry.op, c.entry.lib
                );
                c.samples.push(ns);
            }
        }
        eprint!("\rbench: round {}/{}", round + 1, args.rounds);
    }
    eprintln!();

    let what = format!(
        "median of {} interleaved rounds, {}; \"time vs baseline\" = library time / time of the bold row (above 1: the baseline is faster); spread = inter-quartile range / median",
        args.rounds,
        args.clock.name()
    );
    if args.markdown {
        println!("_{what}_");
        print_markdown(&groups);
    } else {
        println!("{what}");
        print_text(&groups);
    }
    ExitCode::SUCCESS
}
