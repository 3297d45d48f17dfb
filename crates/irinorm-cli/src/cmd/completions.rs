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
    // Generated into memory, then written: clap_complete panics on a
    // write error, and a closed pipe (`| head -c 10`) must end quietly.
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "irinorm", &mut buf);
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(&buf).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            irinorm_stream::note(format_args!("irinorm: error: {e}"));
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}
