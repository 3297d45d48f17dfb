//! `irinorm frontier` and `irinorm quality`: the measurement tools of
//! crates/irinorm-frontier (docs/frontier.md).

use std::process::ExitCode;

use irinorm_frontier::cli::{run_generate, run_quality, GenerateArgs, QualityArgs};

use crate::common::CliError;

pub(crate) fn generate(a: GenerateArgs) -> Result<ExitCode, CliError> {
    run_generate(&a, &mut std::io::stderr()).map_err(CliError::Usage)?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn quality(a: QualityArgs) -> Result<ExitCode, CliError> {
    run_quality(&a, &mut std::io::stdout().lock()).map_err(CliError::Usage)?;
    Ok(ExitCode::SUCCESS)
}
