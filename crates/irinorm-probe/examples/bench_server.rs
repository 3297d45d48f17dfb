//! The local server of the probe benchmarks (BENCHMARKS.md, "Probing"):
//! `cargo run --release -p irinorm-probe --example bench_server -- PORT [DELAY_MS]`
//! listens on 127.0.0.1:PORT only and answers every request `200 ok`
//! (`/robots.txt`: 404), after DELAY_MS milliseconds (default 0) so that
//! requests stay in flight for the memory measure. On exit (stdin closed)
//! it prints the number of requests it served and the most it had in flight.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::Router;

#[derive(Default)]
struct Counts {
    served: AtomicU64,
    now: AtomicU64,
    max: AtomicU64,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let port: u16 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(18080);
    let delay = Duration::from_millis(args.get(2).and_then(|d| d.parse().ok()).unwrap_or(0));
    let counts = Arc::new(Counts::default());
    let app = Router::new()
        .fallback(
            move |State(c): State<Arc<Counts>>, req: Request| async move {
                let n = c.now.fetch_add(1, Ordering::SeqCst) + 1;
                c.max.fetch_max(n, Ordering::SeqCst);
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                c.now.fetch_sub(1, Ordering::SeqCst);
                c.served.fetch_add(1, Ordering::Relaxed);
                if req.uri().path() == "/robots.txt" {
                    (StatusCode::NOT_FOUND, "")
                } else {
                    (StatusCode::OK, "ok")
                }
            },
        )
        .with_state(Arc::clone(&counts));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("bind 127.0.0.1");
    tokio::spawn(async move { axum::serve(listener, app).await });
    // Serve until stdin closes (the benchmark script holds it open).
    let _ = tokio::task::spawn_blocking(|| {
        let mut s = String::new();
        while std::io::stdin()
            .read_line(&mut s)
            .map(|n| n > 0)
            .unwrap_or(false)
        {}
    })
    .await;
    println!(
        "served {} max_in_flight {}",
        counts.served.load(Ordering::Relaxed),
        counts.max.load(Ordering::SeqCst)
    );
}
