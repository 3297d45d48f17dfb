//! Politeness per host: at most `per_host` requests in flight to one host
//! (host and port), request starts spaced by the rate limit or the
//! robots.txt `Crawl-delay`, and a whole host held back after a `429` or
//! `503` with `Retry-After` (RFC 9110 §10.2.3), so that the other URLs of
//! that host wait too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// One host's gate.
#[derive(Debug)]
pub(crate) struct HostGate {
    slots: Arc<Semaphore>,
    state: Mutex<GateState>,
}

#[derive(Debug)]
struct GateState {
    /// Earliest start of the next request.
    next_start: Instant,
    /// Spacing between request starts (rate limit, or Crawl-delay if longer).
    interval: Duration,
}

impl HostGate {
    fn new(per_host: usize, interval: Duration) -> Self {
        HostGate {
            slots: Arc::new(Semaphore::new(per_host.max(1))),
            state: Mutex::new(GateState {
                next_start: Instant::now(),
                interval,
            }),
        }
    }

    /// Waits for a slot and for the host's next start time; the returned
    /// permit holds the slot until dropped.
    pub(crate) async fn enter(&self) -> OwnedSemaphorePermit {
        let permit = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .expect("host semaphore is never closed");
        let start = {
            let mut s = self.state.lock().expect("host gate lock");
            let now = Instant::now();
            let start = s.next_start.max(now);
            s.next_start = start + s.interval;
            start
        };
        // Only a start in the future waits: a timer, even one already
        // expired, costs a tick of tokio's 1 ms timer wheel per request.
        if start > Instant::now() {
            tokio::time::sleep_until(start).await;
        }
        permit
    }

    /// Raises the spacing of request starts (robots.txt `Crawl-delay`).
    pub(crate) fn at_least_interval(&self, d: Duration) {
        let mut s = self.state.lock().expect("host gate lock");
        s.interval = s.interval.max(d);
    }

    /// No request to this host starts before `d` from now (`Retry-After`).
    pub(crate) fn hold_for(&self, d: Duration) {
        let mut s = self.state.lock().expect("host gate lock");
        s.next_start = s.next_start.max(Instant::now() + d);
    }
}

/// The gates of every host seen, created on first use.
#[derive(Debug)]
pub(crate) struct HostGates {
    per_host: usize,
    interval: Duration,
    gates: Mutex<HashMap<String, Arc<HostGate>>>,
}

impl HostGates {
    pub(crate) fn new(per_host: usize, rate: Option<f64>) -> Self {
        let interval = match rate {
            Some(r) if r > 0.0 && r.is_finite() => Duration::from_secs_f64(1.0 / r),
            _ => Duration::ZERO,
        };
        HostGates {
            per_host,
            interval,
            gates: Mutex::new(HashMap::new()),
        }
    }

    /// The gate of `authority` (lower-case `host:port`).
    pub(crate) fn get(&self, authority: &str) -> Arc<HostGate> {
        let mut g = self.gates.lock().expect("host gates lock");
        if let Some(x) = g.get(authority) {
            return Arc::clone(x);
        }
        let x = Arc::new(HostGate::new(self.per_host, self.interval));
        g.insert(authority.to_owned(), Arc::clone(&x));
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn rate_spaces_starts() {
        // With the clock paused, time only moves by the sleeps themselves:
        // the spacing is exact and independent of machine load.
        let gates = HostGates::new(4, Some(10.0));
        let g = gates.get("a:80");
        let t0 = Instant::now();
        let mut starts = Vec::new();
        for _ in 0..3 {
            let _p = g.enter().await;
            starts.push(Instant::now() - t0);
        }
        assert_eq!(starts, [0, 100, 200].map(Duration::from_millis).to_vec());
        // Held at t = 200 ms for 5 s: the next start is at 5.2 s, not at
        // the 300 ms the rate alone would give.
        g.hold_for(Duration::from_secs(5));
        let _p = g.enter().await;
        assert_eq!(Instant::now() - t0, Duration::from_millis(5200));
    }

    #[tokio::test]
    async fn slots_are_bounded() {
        let gates = HostGates::new(2, None);
        let g = gates.get("a:80");
        let a = g.enter().await;
        let _b = g.enter().await;
        assert_eq!(g.slots.available_permits(), 0);
        drop(a);
        assert_eq!(g.slots.available_permits(), 1);
        assert!(Arc::ptr_eq(&g, &gates.get("a:80")));
        assert!(!Arc::ptr_eq(&g, &gates.get("b:80")));
    }
}
