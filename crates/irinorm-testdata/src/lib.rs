//! Where the shared test vectors and corpora are, and the policy when they
//! are not there.
//!
//! The vectors live outside the repository (`../shared/vectors` beside the
//! checkout in CI). `IRINORM_VECTORS` overrides the location. When the
//! folder is absent, tests print that they were skipped, except under
//! `CI=true`, where absence is a failure: CI must never pass by skipping.

pub mod cost;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The environment variable that overrides the vectors folder.
pub const ENV: &str = "IRINORM_VECTORS";

fn workspace_root() -> PathBuf {
    // crates/irinorm-testdata -> workspace root
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The vectors folder, or `None` (after saying so) when it is absent
/// outside CI. Panics under `CI=true` when absent.
pub fn vectors_dir(test: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os(ENV) {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join("../shared/vectors"),
    };
    if dir.join("README.md").is_file() {
        return Some(dir);
    }
    if in_ci() {
        panic!(
            "{test}: conformance vectors not found at {} (set {ENV}); under CI=true they are required",
            dir.display()
        );
    }
    eprintln!(
        "{test}: SKIPPED: conformance vectors not found at {} (set {ENV})",
        dir.display()
    );
    None
}

/// A file under the vectors folder (see [`vectors_dir`] for the policy).
pub fn vector_file(test: &str, rel: &str) -> Option<PathBuf> {
    let p = vectors_dir(test)?.join(rel);
    if !p.is_file() {
        panic!("{test}: {} missing from the vectors folder", p.display());
    }
    Some(p)
}

/// Reads a JSON Lines vector file into values (one per non-empty line).
pub fn read_jsonl(test: &str, name: &str) -> Option<Vec<Value>> {
    let p = vector_file(test, name)?;
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", p.display(), i + 1))
            })
            .collect(),
    )
}

/// The corpora folder (`vectors/corpora`), same policy.
pub fn corpora_dir(test: &str) -> Option<PathBuf> {
    Some(vectors_dir(test)?.join("corpora"))
}

/// The `.txt` corpora, sorted by name: (file name, lines).
pub fn text_corpora(test: &str) -> Option<Vec<(String, Vec<String>)>> {
    let dir = corpora_dir(test)?;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    Some(
        files
            .into_iter()
            .map(|p| {
                let text = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                let text = String::from_utf8_lossy(&text).into_owned();
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (name, text.lines().map(str::to_owned).collect())
            })
            .collect(),
    )
}

/// The (base, relative) pairs of `relative_urls_cc_10k.csv`, split at the
/// first comma after the header line (as oxiri's benches do).
pub fn relative_pairs(test: &str) -> Option<Vec<(String, String)>> {
    let p = corpora_dir(test)?.join("relative_urls_cc_10k.csv");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    Some(
        text.lines()
            .skip(1)
            .filter_map(|l| l.split_once(','))
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .collect(),
    )
}

/// A string field of a vector.
pub fn str_field<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// Ends a conformance test: prints how many of `total` cases pass, then
/// fails listing every failing case (all at once, not just the first).
pub fn finish(name: &str, total: usize, failures: Vec<String>) {
    eprintln!("{name}: {} of {total} cases pass", total - failures.len());
    assert!(
        failures.is_empty(),
        "{name}: {} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The environment variable naming the python of `scripts/python-env.sh`
/// (a venv with the pinned peer packages), which `.ci/run` sets.
pub const PYTHON_ENV: &str = "IRINORM_PYTHON";

/// The python that runs peer Python packages, or `None` (after saying so)
/// when [`PYTHON_ENV`] is unset outside CI. Panics under `CI=true` when it
/// is unset or not a file: a differential test must never pass by skipping.
pub fn python(test: &str) -> Option<PathBuf> {
    match std::env::var_os(PYTHON_ENV).map(PathBuf::from) {
        Some(p) if p.is_file() => Some(p),
        other => {
            let why = match other {
                Some(p) => format!("{PYTHON_ENV}={} is not a file", p.display()),
                None => format!("{PYTHON_ENV} is not set (run scripts/python-env.sh)"),
            };
            if in_ci() {
                panic!("{test}: {why}; under CI=true the peer Python packages are required");
            }
            eprintln!("{test}: SKIPPED: {why}");
            None
        }
    }
}
