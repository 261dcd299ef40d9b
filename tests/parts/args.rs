//! The command line's declarations, as clap checks them.
//! (These tests were inside `src/cli/args.rs`: here they share the one build
//! of the library the integration tests use.)

use clap::CommandFactory;
use commcheck::cli::args::{AlgorithmArgs, Cli};

/// clap's own checks of the declarations: names, groups, conflicts.
#[test]
fn the_command_line_is_well_formed() {
    Cli::command().debug_assert();
    AlgorithmArgs::command().debug_assert();
}
