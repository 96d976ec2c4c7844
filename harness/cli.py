"""The `azul-rules` command line."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from harness.errors import UserError
from harness.spec_commands import spec_group, summary_table
from spec import SpecError, default_catalogue


@click.group()
@click.version_option(package_name="azul-rules")
def cli() -> None:
    """Rules verification and specification test harness for Azul Duel."""


cli.add_command(spec_group)


@cli.command("verify")
def verify_command() -> None:
    """Verify the rules: spec lint, then the catalogue summary."""
    from harness.spec_commands import lint_problems

    problems = lint_problems()
    if problems:
        for p in problems:
            click.echo(f"error {p}", err=True)
        raise SystemExit(1)
    Console().print(summary_table(default_catalogue()))


def main() -> None:
    """Entry point: user errors become one readable line and a non-zero exit."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        click.echo(f"azul-rules: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except (UserError, SpecError) as exc:
        click.echo(f"azul-rules: {exc}", err=True)
        sys.exit(2)
    except SystemExit:
        raise


if __name__ == "__main__":
    main()
