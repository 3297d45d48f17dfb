//! Prints every observation and error of the crawl files given (a quick
//! look at what the readers see): `cargo run -p irinorm-archive --example
//! dump -- FILE...`.

fn main() {
    for p in std::env::args().skip(1) {
        match irinorm_archive::open(std::path::Path::new(&p), None) {
            Err(e) => println!("{p}: {e}"),
            Ok(mut recs) => {
                for r in recs.by_ref() {
                    match r {
                        Ok(o) => println!("{o:?}"),
                        Err(e) => println!("ERROR {e}"),
                    }
                }
                println!("{p}: {} {:?}", recs.format(), recs.counts());
            }
        }
    }
}
