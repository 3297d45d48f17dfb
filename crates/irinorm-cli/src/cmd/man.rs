//! `irinorm man`: man pages, generated from the same clap definitions as
//! the parser.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::common::CliError;

const EXAMPLES: &str = "\
Examples:
  irinorm man | man -l -
  irinorm man --dir /usr/local/share/man/man1     (irinorm.1 and irinorm-<subcommand>.1)
";

/// Print the man page (roff), or write one page per subcommand to a folder.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Write irinorm.1 and irinorm-<subcommand>.1 into DIR instead of
    /// printing irinorm.1.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

fn render(cmd: clap::Command) -> Result<Vec<u8>, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let cmd = crate::Cli::command();
    match a.dir {
        None => {
            use std::io::Write;
            let page = render(cmd)?;
            let mut out = std::io::stdout().lock();
            match out.write_all(&page).and_then(|()| out.flush()) {
                // A closed pipe (`irinorm man | head`) ends quietly.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
                _ => {}
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir)?;
            std::fs::write(dir.join("irinorm.1"), render(cmd.clone())?)?;
            for sub in cmd.get_subcommands() {
                let name = format!("irinorm-{}", sub.get_name());
                let page = sub.clone().name(name.clone());
                std::fs::write(dir.join(format!("{name}.1")), render(page)?)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
