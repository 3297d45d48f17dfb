//! Helpers shared by the integration tests of the `irinorm` binary.

#![allow(dead_code, unreachable_pub)]

use std::path::Path;

use serde_json::Value;

/// A command for the binary under test, in `dir` (a temporary folder, so
/// that relative paths in arguments never name the tester's files).
pub fn irinorm(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::new(env!("CARGO_BIN_EXE_irinorm"));
    c.current_dir(dir);
    c
}

/// What one run gave.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    pub fn lines(&self) -> Vec<String> {
        self.out().lines().map(str::to_owned).collect()
    }

    /// The JSON objects of a jsonl output.
    pub fn json(&self) -> Vec<Value> {
        self.out()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
            .collect()
    }

    /// The counters of the summary line (`read`, `written`, `rejected`,
    /// and for dedupe `duplicates`, `unique`).
    pub fn summary(&self) -> Summary {
        let line = self
            .stderr
            .lines()
            .find(|l| l.starts_with("irinorm: read "))
            .unwrap_or_else(|| panic!("no summary line in stderr: {}", self.stderr));
        let num = |name: &str| -> Option<u64> {
            let at = line.find(&format!("{name} "))? + name.len() + 1;
            let digits: String = line[at..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        };
        Summary {
            read: num("read").expect("read"),
            written: num("written").expect("written"),
            rejected: num("rejected").expect("rejected"),
            duplicates: num("duplicates"),
            unique: num("unique"),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    pub read: u64,
    pub written: u64,
    pub rejected: u64,
    pub duplicates: Option<u64>,
    pub unique: Option<u64>,
}

/// Runs `args` with `stdin` in `dir`.
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let o = irinorm(dir)
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .expect("the binary runs");
    Run {
        code: o.status.code().expect("exit status"),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Runs `args` with `stdin` in a fresh temporary folder.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    run_in(dir.path(), args, stdin)
}

/// The rejects file, split into its 5 columns.
pub fn rejects(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read(path).expect("rejects file");
    String::from_utf8_lossy(&text)
        .lines()
        .map(|l| l.splitn(5, '\t').map(str::to_owned).collect::<Vec<_>>())
        .inspect(|cols| assert_eq!(cols.len(), 5, "5 columns: {cols:?}"))
        .collect()
}
