//! The generator and the report on a small built-in list of originals:
//! runs everywhere, corpora or not.

mod common;

use irinorm_frontier::{generate, quality, GenerateOptions, Originals};

const ORIGINALS: &[&str] = &[
    "https://www.example.com/a/b/c?x=1&y=2",
    "http://example.org/",
    "https://xn--bcher-kva.example/%C3%A9t%C3%A9/%7Efoo",
    "http://shop.example.net:8080/p/index.html?id=7&lang=en",
    "https://www.example.co.uk/News/Today",
    "https://docs.example.io/guide/intro.html#setup",
    "http://www.wikipedia.example/wiki/Stra%C3%9Fe?action=view&oldid=5",
    "https://news.example.com/2024/05/story?utm_source=feed&id=9",
    "https://example.net/search?q=caf%C3%A9&page=2&sort=asc",
    "http://blog.example.org/posts/2023/hello-world/",
    "https://www.shop.example/cart",
    "https://api.example.dev/v1/items/42?fields=a,b",
    "http://files.example.com/pub/%E6%97%A5%E6%9C%AC/readme.txt",
    "https://www.xn--mnchen-3ya.de/stadt/",
    "https://example.museum/",
    "http://intranet.example/~user/page.php?sid=abc&x=1",
    "https://forum.example.com/thread/123/page/2",
    "https://www.example.edu/courses/cs101/",
    "https://cdn.example.net/img/logo.png",
    "http://www.example.travel/",
];

#[test]
fn every_kind_at_its_level_on_builtin_originals() {
    let o = Originals::from_lines(ORIGINALS.iter().copied());
    assert!(o.len() >= ORIGINALS.len());
    let mut tsv = Vec::new();
    let opts = GenerateOptions {
        lines: 6000,
        seed: 11,
        dup_ratio: 0.5,
        confuser_ratio: 0.15,
        ..GenerateOptions::default()
    };
    let st = generate(&o, &opts, &mut tsv).unwrap();
    assert_eq!(st.lines, 6000);
    let r = quality(&tsv[..]).unwrap();
    common::check(&r, 6000);
}
