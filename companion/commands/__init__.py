"""One module per ``hotstreak`` subcommand; see companion.cli.COMMANDS."""
