//! Issue 13 from the command line: SURT keys, repair, the safebrowsing
//! preset and the Unix conventions (stdin as `-`, closed pipes, aligned
//! output).

mod common;

use common::run;

#[test]
fn surt_subcommand_and_options() {
    // Expected keys checked against surt 0.3.1 (`surt.surt(url, **options)`).
    let r = run(
        &[
            "surt",
            "http://www.archive.org/goo/?b&a",
            "http://archive.org/x#f",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.lines(), ["org,archive)/goo?a&b", "org,archive)/x"]);
    let r = run(&["surt", "--heritrix", "http://www.archive.org/"], b"");
    assert_eq!(r.lines(), ["http://(org,archive,)/"]);
    let r = run(&["surt", "--with-scheme", "http://www.archive.org/"], b"");
    assert_eq!(r.lines(), ["http://(org,archive)/"]);
    let r = run(
        &[
            "surt",
            "--no-host-massage",
            "--no-reverse-ipaddr",
            "http://www.archive.org/",
            "http://10.0.0.1/",
        ],
        b"",
    );
    assert_eq!(r.lines(), ["org,archive,www)/", "10.0.0.1)/"]);
    // The package raises on a port out of range: a counted reject.
    let r = run(&["surt", "-i", "-"], b"http://a:99999/\nhttp://a/\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), ["a)/"]);
    assert!(r.stderr.contains("surt-error"), "{}", r.stderr);
}

#[test]
fn normalize_format_surt() {
    let r = run(
        &[
            "normalize",
            "--preset",
            "crawler",
            "--format",
            "surt",
            "http://WWW.Example.com/b?z&a&utm_source=x",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.lines(), ["com,example)/b?a&z"]);
    let r = run(&["parse", "--format", "surt", "http://a/"], b"");
    assert_eq!(r.code, 2, "only normalize has --format surt");
}
