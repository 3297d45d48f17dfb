//! Failures of the engine's own threads: a panic in the reader, a worker or
//! the writer becomes an error of the run (exit status 2 in the CLI), never
//! a hang or a run that looks complete.
//!
//! Tests inject such a panic with the environment variable
//! `IRINORM_TEST_PANIC_IN` (`reader`, `worker` or `writer`), in **debug
//! builds only**: release builds compile the hook out, so no environment can
//! make a production binary fail on purpose.

use std::any::Any;
use std::io;

/// Panics when a debug build is told to panic in `stage` (tests only).
#[inline]
pub(crate) fn inject(stage: &str) {
    #[cfg(debug_assertions)]
    {
        static WHICH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        let which = WHICH.get_or_init(|| std::env::var("IRINORM_TEST_PANIC_IN").ok());
        if which.as_deref() == Some(stage) {
            panic!("injected panic in the {stage} (IRINORM_TEST_PANIC_IN)");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = stage;
}

/// The error that replaces a thread's panic.
pub(crate) fn panicked(stage: &str, payload: Box<dyn Any + Send>) -> io::Error {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    io::Error::other(format!(
        "internal error: the {stage} thread panicked ({msg}); the output is incomplete"
    ))
}
