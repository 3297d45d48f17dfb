//! `irinorm parse`: the components of each identifier.

use std::process::ExitCode;

use irinorm::{Components, Grammar};
use irinorm_stream::{Failure, JsonObject, Op, RecordMode, Task};

use crate::common::{execute, CliError, IoArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm parse 'http://user@example.com:8080/a/b?q=1#top'
      scheme=http  authority=user@example.com:8080  userinfo=user  host=example.com
      host_kind=reg-name  port=8080  path=/a/b  query=q=1  fragment=top (tab-separated)
  irinorm parse --format jsonl 'mailto:a@b.example' '//[::1]/x'
  irinorm parse --grammar URI 'http://例え.jp/'        (rejected: a URI is ASCII only)
  irinorm parse --format jsonl -i urls.txt.gz > components.jsonl
";

/// Print the components of each identifier.
///
/// Text output: one line per accepted identifier, `name=value` pairs
/// separated by tabs, for the components that are present (an empty
/// component is printed `name=`; the path is always present). jsonl: every
/// component, null when absent.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The grammar each identifier must match (an ABNF rule name of RFC 3986
    /// or RFC 3987).
    #[arg(long, short = 'g', value_name = "G", default_value = "IRI-reference", ignore_case = true, value_parser = super::grammar_parser())]
    grammar: Grammar,

    #[command(flatten)]
    io: IoArgs,
}

pub(crate) struct ParseOp {
    pub(crate) grammar: Grammar,
}

const FIELDS: [&str; 9] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "host_kind",
    "port",
    "path",
    "query",
    "fragment",
];

fn fields<'a>(c: &Components<'a>) -> [Option<&'a str>; 9] {
    [
        c.scheme,
        c.authority,
        c.userinfo,
        c.host,
        c.host_kind.map(|k| k.name()),
        c.port,
        Some(c.path),
        c.query,
        c.fragment,
    ]
}

impl Op for ParseOp {
    /// The value of a parse is the identifier itself (validated).
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        irinorm::parse(input, self.grammar)?;
        out.push_str(input);
        Ok(())
    }

    fn write_text(&self, input: &str, _: &mut String, out: &mut Vec<u8>) -> Result<(), Failure> {
        let m = irinorm::parse(input, self.grammar)?;
        let c = Components::of(input, &m);
        let mut first = true;
        for (name, v) in FIELDS.iter().zip(fields(&c)) {
            if let Some(v) = v {
                if !first {
                    out.push(b'\t');
                }
                first = false;
                out.extend_from_slice(name.as_bytes());
                out.push(b'=');
                out.extend_from_slice(v.as_bytes());
            }
        }
        out.push(b'\n');
        Ok(())
    }

    fn write_json(
        &self,
        input: &str,
        _: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        match irinorm::parse(input, self.grammar) {
            Ok(m) => {
                let c = Components::of(input, &m);
                for (name, v) in FIELDS.iter().zip(fields(&c)) {
                    obj.opt_str(name, v);
                }
                Ok(())
            }
            Err(e) => {
                self.write_json_unavailable(obj);
                Err(e.into())
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        for name in FIELDS {
            obj.null(name);
        }
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let op = ParseOp { grammar: a.grammar };
    execute(&a.io, RecordMode::Lines, Task::Map(&op))
}
