//! The progress bar on stderr (only on a terminal, never with `--quiet`):
//! lines, URLs/s, MB/s, and percent and time left when the total input
//! size is known.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

fn human(n: f64) -> String {
    if n >= 1e9 {
        format!("{:.2}G", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.2}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1}k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

impl Progress {
    pub(crate) fn new(enabled: bool, total: Option<u64>) -> Progress {
        let bar = enabled.then(|| {
            let (bar, template) = match total {
                Some(t) => (
                    ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()),
                    "{msg} {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} [{wide_bar}] {percent}% ETA {eta}",
                ),
                None => (
                    ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                    "{spinner} {msg} {decimal_bytes} {decimal_bytes_per_sec} {elapsed}",
                ),
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
        }
    }

    /// `bytes`: raw input bytes read so far; `lines`: lines processed.
    pub(crate) fn update(&self, bytes: u64, lines: u64) {
        if let Some(b) = &self.bar {
            let secs = self.start.elapsed().as_secs_f64().max(1e-3);
            b.set_position(bytes);
            b.set_message(format!(
                "{} lines, {} URLs/s",
                human(lines as f64),
                human(lines as f64 / secs)
            ));
        }
    }

    /// Runs `f` (which prints on stderr) with the bar hidden.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
