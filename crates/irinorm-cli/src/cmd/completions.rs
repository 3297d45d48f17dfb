//! `irinorm completions`: shell completion scripts, generated from the
//! same clap definitions as the parser.

use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

const EXAMPLES: &str = "\
Examples:
  irinorm completions bash > ~/.local/share/bash-completion/completions/irinorm
  irinorm completions zsh > ~/.zfunc/_irinorm
  irinorm completions fish > ~/.config/fish/completions/irinorm.fish
";

/// Print a shell completion script.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

pub(crate) fn run(a: Args) -> ExitCode {
    let mut cmd = crate::Cli::command();
    clap_complete::generate(a.shell, &mut cmd, "irinorm", &mut std::io::stdout());
    ExitCode::SUCCESS
}
