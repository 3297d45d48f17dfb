//! `irinorm dedupe`: one line per key.

use std::process::ExitCode;

use clap::ValueEnum;
use irinorm::ladder::Form;
use irinorm_rules::Pipeline;
use irinorm_stream::{DedupeConfig, DedupeMode, Failure, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};
use crate::ladder_args::LadderArgs;

const EXAMPLES: &str = "\
Examples:
  irinorm dedupe -i urls.txt > unique.txt
  irinorm dedupe --preset crawler --groups -i frontier.txt   (alias clusters)
  irinorm dedupe --rung syntax --count -i urls.txt
  irinorm dedupe --keep last -i a.txt.gz -i b.txt.zst -o unique.txt.zst
  irinorm dedupe --count -i urls.txt | sort -t$'\\t' -k2,2nr | head
  irinorm dedupe --groups -i urls.txt          (each key, then its members, tab-indented)
  irinorm dedupe --hash-keys --key-only -i huge.txt.zst --rejects bad.tsv
  irinorm dedupe --csv --column url -i pages.csv > unique_pages.csv
";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum Keep {
    /// The first line of each key.
    #[default]
    First,
    /// The last line of each key (in the order of those last lines).
    Last,
}

/// Remove duplicates: inputs with the same key are one.
///
/// The key is the identifier's comparison key at the chosen rung (default
/// `scheme`) with any named rules (--preset, --apply): two lines are
/// duplicates when they are equivalent.
/// Default output: the original lines (or records) of the first occurrence
/// of each key, in input order. Memory grows with the distinct keys, and is
/// reported in the summary line.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Which original line of each key to write (not with --count,
    /// --groups or --key-only, which write keys, not lines).
    #[arg(long, value_enum, default_value_t = Keep::First, conflicts_with_all = ["count", "groups", "key_only"])]
    keep: Keep,

    /// Write each key and its number of occurrences (key<TAB>count), in
    /// order of first appearance.
    #[arg(long, conflicts_with_all = ["groups", "key_only"])]
    count: bool,

    /// Write each key followed by its distinct members, one a line indented
    /// by a tab (the alias clusters).
    #[arg(long, conflicts_with = "key_only")]
    groups: bool,

    /// Write each key once (not the original lines).
    #[arg(long)]
    key_only: bool,

    /// Keep 128-bit digests (XXH3-128) of the keys instead of the keys:
    /// 16 bytes a key. Among n distinct keys, the chance of any collision is
    /// about n²/2^129 (1.5e-21 for a billion keys).
    #[arg(long)]
    hash_keys: bool,

    #[command(flatten)]
    ladder: LadderArgs,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

/// The dedupe key: the comparison key of the identifier at the chosen
/// rung (`uri` form, fragment left out with --ignore-fragment, URN r/q/f
/// components left out at rung `scheme`), then the named rules.
struct KeyOp {
    p: Pipeline,
    repair: Option<crate::ladder_args::Repairer>,
}

impl Op for KeyOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let Some(r) = &self.repair else {
            self.p.key_into(input, out)?;
            return Ok(());
        };
        let repaired = r.run(input);
        let input = repaired.as_ref().map_or(input, |r| r.text.as_str());
        self.p.key_into(input, out)?;
        Ok(())
    }

    /// `Pipeline::key_into` appends (the rules work on `out[start..]`).
    fn appends(&self) -> bool {
        true
    }
}

fn key_op(a: &Args) -> Result<Box<dyn Op>, CliError> {
    Ok(Box::new(KeyOp {
        p: a.ladder.pipeline(Form::Uri, a.io.max_len)?,
        repair: a.ladder.repairer(),
    }))
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let mode = if a.count {
        DedupeMode::Count
    } else if a.groups {
        DedupeMode::Groups
    } else if a.key_only {
        DedupeMode::KeyOnly
    } else if a.keep == Keep::Last {
        DedupeMode::KeepLast
    } else {
        DedupeMode::KeepFirst
    };
    let cfg = DedupeConfig {
        mode,
        hash_keys: a.hash_keys,
    };
    if a.ladder.is_protocol() {
        return super::protocol::dedupe(&a.ladder, &a.io, a.records.mode()?, cfg);
    }
    let key = key_op(&a)?;
    execute(&a.io, a.records.mode()?, Task::Dedupe(key.as_ref(), cfg))
}
