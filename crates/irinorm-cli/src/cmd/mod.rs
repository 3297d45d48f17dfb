//! One module per subcommand: its clap arguments, its [`Op`](irinorm_stream::Op)
//! and its `run`.

pub(crate) mod check;
pub(crate) mod compare;
pub(crate) mod completions;
pub(crate) mod dedupe;
pub(crate) mod explain;
pub(crate) mod frontier;
pub(crate) mod man;
pub(crate) mod normalize;
pub(crate) mod parse;
pub(crate) mod presets;
pub(crate) mod resolve;
pub(crate) mod surt;
pub(crate) mod to_iri;
pub(crate) mod to_uri;

use clap::builder::TypedValueParser;
use irinorm::Grammar;

/// The ABNF names accepted by `--grammar`.
pub(crate) const GRAMMARS: [&str; 8] = [
    "URI",
    "URI-reference",
    "absolute-URI",
    "relative-ref",
    "IRI",
    "IRI-reference",
    "absolute-IRI",
    "irelative-ref",
];

/// The `--grammar` value parser: one of [`GRAMMARS`], case-insensitive.
pub(crate) fn grammar_parser() -> impl clap::builder::TypedValueParser<Value = Grammar> {
    clap::builder::PossibleValuesParser::new(GRAMMARS).try_map(|s| s.parse::<Grammar>())
}
