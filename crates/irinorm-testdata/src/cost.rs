//! Bounded-cost tests that never depend on the machine: the cost of an
//! operation is the number of instructions it executes, counted by
//! `valgrind --tool=callgrind`, which is the same on an idle machine and on
//! one whose cores are all busy (issue 14: the timed version failed under
//! load). Timings stay in the benchmarks (`crates/irinorm-lint/benches/
//! worst_case.rs`).
//!
//! An operation is measured on worst-case inputs at size N and 4N, and only
//! ratios are asserted:
//!
//! - `cost(4N) / cost(N) < max_growth`: linear work gives about 4,
//!   quadratic 16;
//! - `cost(worst, N) / cost(typical, N) < worst_vs_typical`: a worst case may
//!   cost more per byte than ordinary text of the same length, but only by a
//!   constant factor.
//!
//! How: [`measure`] runs the calling test again, in a child process under
//! callgrind (the test binary itself, `--exact <test name>`, with
//! [`CHILD_ENV`] naming the measurement). In the child, [`measure`] calls
//! each function once to warm lazily built tables, then once inside
//! [`irinorm_cost_measured`]: callgrind collects only inside that function
//! (`--collect-atstart=no --toggle-collect`) and writes one profile when it
//! returns (`--dump-after`), so each profile holds the instructions of
//! exactly one call. The child then exits; the parent reads the profiles in
//! order. `unsafe` is forbidden in the workspace, so neither callgrind's
//! client requests nor a counting global allocator are available; the
//! function boundary does the same job.
//!
//! Without valgrind the tests say they were skipped, except under
//! `CI=true` (which `.ci/run` sets), where its absence is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Set in the child process: the label of the measurement to make.
pub const CHILD_ENV: &str = "IRINORM_COST_CHILD";

/// One valgrind process at a time: the machine has few cores.
static SERIAL: Mutex<()> = Mutex::new(());

/// The bounds and size of one test file.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// N; the large input is 4N.
    pub n: usize,
    /// Bound on cost(4N) / cost(N).
    pub max_growth: f64,
    /// Bound on cost(worst, N) / cost(typical, N).
    pub worst_vs_typical: f64,
}

/// The input repeated up to about `n` bytes: `head`, then `unit` as many
/// times as fit, then `tail`.
pub fn build(head: &str, unit: &str, tail: &str, n: usize) -> String {
    let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
    let mut s = String::with_capacity(n + unit.len());
    s.push_str(head);
    for _ in 0..k {
        s.push_str(unit);
    }
    s.push_str(tail);
    s
}

/// A worst case at N and 4N.
#[derive(Debug)]
pub struct Case<'a> {
    /// Name in reports.
    pub name: &'a str,
    /// The input at size N.
    pub small: String,
    /// The input at size 4N.
    pub large: String,
}

/// Builds a case from a function of the size.
pub fn case(name: &str, n: usize, make: impl Fn(usize) -> String) -> Case<'_> {
    let small = make(n);
    let large = make(4 * n);
    assert!(
        large.len() >= 3 * small.len(),
        "{name}: the 4N input is not ~4x ({} vs {})",
        large.len(),
        small.len()
    );
    Case { name, small, large }
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The only function whose instructions are counted (callgrind's
/// `--toggle-collect` names it; never inlined, so it exists).
#[inline(never)]
pub fn irinorm_cost_measured(f: &dyn Fn()) {
    f();
    std::hint::black_box(());
}

/// Whether `valgrind` runs here.
fn valgrind_available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The instructions executed by one call of each function, counted by
/// callgrind in a child process (see the module documentation). `label`
/// tells the calls of one test apart (unique within the test). The child
/// runs the whole test up to this measurement, skipping the others
/// (`None`), so a test must not assert on the outcome of one measurement
/// and then make another: one expectation per test. `None` when
/// valgrind is absent outside CI (after saying the test was skipped);
/// panics under `CI=true` when it is absent.
pub fn measure(label: &str, fs: &[&dyn Fn()]) -> Option<Vec<u64>> {
    if let Ok(want) = std::env::var(CHILD_ENV) {
        // In the child: only the measurement asked for, then exit (the
        // rest of the test, and its assertions, belong to the parent).
        if want != label {
            return None;
        }
        for f in fs {
            f(); // lazily built tables, first allocations
            irinorm_cost_measured(*f);
        }
        std::process::exit(0);
    }
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(str::to_owned)
        .expect("cost::measure must run inside a #[test] (libtest names its thread)");
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !valgrind_available() {
        if in_ci() {
            panic!("{test}: valgrind not found; under CI=true the cost tests are required (install valgrind)");
        }
        eprintln!("{test} / {label}: SKIPPED: valgrind not found (cost tests count instructions with callgrind)");
        return None;
    }
    let dir = scratch_dir();
    let out = dir.join("cg.out");
    let exe = std::env::current_exe().expect("test binary path");
    let status = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            // Exact names: `--dump-after` takes no wildcards.
            concat!(
                "--toggle-collect=",
                module_path!(),
                "::irinorm_cost_measured"
            ),
            concat!("--dump-after=", module_path!(), "::irinorm_cost_measured"),
            "--dump-instr=no",
            "--compress-strings=no",
            "--compress-pos=no",
            "--quiet",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe)
        .args([test.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD_ENV, label)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run valgrind");
    let counts = read_profiles(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        status.status.success() && counts.len() == fs.len(),
        "{test} / {label}: callgrind child failed ({}), {} of {} profiles\n{}",
        status.status,
        counts.len(),
        fs.len(),
        String::from_utf8_lossy(&status.stderr)
    );
    Some(counts)
}

/// A fresh folder for one child's profiles.
fn scratch_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "irinorm-cost-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The instruction count of every profile `--dump-after` wrote
/// (`cg.out.1`, `cg.out.2`...; the final dump at exit collected nothing),
/// in order.
fn read_profiles(dir: &Path) -> Vec<u64> {
    let mut parts: Vec<(u64, u64)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n: u64 = name.strip_prefix("cg.out.")?.parse().ok()?;
            Some((n, total(&std::fs::read_to_string(e.path()).ok()?)?))
        })
        .collect();
    parts.sort_unstable();
    parts.into_iter().map(|(_, ir)| ir).collect()
}

/// The `summary:` (or `totals:`) line of a callgrind profile: instructions.
fn total(profile: &str) -> Option<u64> {
    profile.lines().find_map(|l| {
        let rest = l
            .strip_prefix("summary:")
            .or_else(|| l.strip_prefix("totals:"))?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// Growth and worst-vs-typical of one case, and the line to print.
fn judge(op_name: &str, c: &Case<'_>, ir: (u64, u64), typical_per_byte: f64) -> (f64, f64, String) {
    let (small, large) = (ir.0 as f64, ir.1 as f64);
    let growth = large / small.max(1.0);
    let per_byte = |ir: f64, len: usize| ir / len as f64;
    let worst = per_byte(small, c.small.len()) / typical_per_byte.max(1e-9);
    let line = format!(
        "{op_name} / {}: {:.1} instructions/B at {} B, {:.1} at {} B, growth x{growth:.2}, vs typical x{worst:.2}",
        c.name,
        per_byte(small, c.small.len()),
        c.small.len(),
        per_byte(large, c.large.len()),
        c.large.len(),
    );
    (growth, worst, line)
}

/// Counts the instructions of `op` on every case (at N and 4N) and on
/// `typical` text of size N; asserts the ratios. `op_name` must be unique
/// within the calling test.
pub fn check(op_name: &str, limits: Limits, cases: &[Case<'_>], typical: &str, op: &dyn Fn(&str)) {
    let mut fs: Vec<Box<dyn Fn() + '_>> = vec![Box::new(move || op(typical))];
    for c in cases {
        fs.push(Box::new(move || op(&c.small)));
        fs.push(Box::new(move || op(&c.large)));
    }
    let refs: Vec<&dyn Fn()> = fs.iter().map(|f| f.as_ref()).collect();
    let Some(ir) = measure(op_name, &refs) else {
        return;
    };
    let typical_per_byte = ir[0] as f64 / typical.len() as f64;
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let (growth, worst, line) =
            judge(op_name, c, (ir[1 + 2 * k], ir[2 + 2 * k]), typical_per_byte);
        eprintln!("{line}");
        if !(growth < limits.max_growth && worst < limits.worst_vs_typical) {
            failures.push(format!(
                "{line} (limits: growth {}, vs typical {})",
                limits.max_growth, limits.worst_vs_typical
            ));
        }
    }
    assert!(failures.is_empty(), "{op_name}:\n{}", failures.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_summary_line() {
        let p =
            "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 12345\n\nfn=(1) main\n";
        assert_eq!(total(p), Some(12345));
        assert_eq!(total("totals: 7\n"), Some(7));
        assert_eq!(total("events: Ir\n"), None);
    }

    #[test]
    fn build_repeats_the_unit() {
        // (8 - 2) / 2 = 3 units: exactly n bytes.
        assert_eq!(build("h", "ab", "t", 8), "habababt");
        assert_eq!(build("head", "x", "tail", 2), "headxtail");
    }
}
