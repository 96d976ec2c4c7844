"""`azul-rules spec lint|list|show`: the clause catalogue on the terminal."""

from __future__ import annotations

import click
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from harness.errors import UserError
from spec import CLAUSE_KINDS, Catalogue, default_catalogue, validate


def lint_problems() -> list[str]:
    """All problems of the catalogue, as one line each (empty when clean)."""
    _, problems = validate()
    return [str(p) for p in problems]


def summary_table(catalogue: Catalogue) -> Table:
    table = Table(title=f"Azul Duel clause catalogue: {len(catalogue)} clauses")
    table.add_column("chapter")
    table.add_column("clauses", justify="right")
    table.add_column("interpretation points", justify="right")
    table.add_column("with assumptions", justify="right")
    for chapter, clauses in catalogue.by_chapter().items():
        table.add_row(
            chapter, str(len(clauses)), str(sum(len(c.interpretations) for c in clauses)),
            str(sum(c.assumption is not None for c in clauses)),
        )
    table.add_row("total", str(len(catalogue)), str(len(catalogue.interpretations)),
                  str(sum(c.assumption is not None for c in catalogue)), style="bold")
    return table


@click.group(name="spec")
def spec_group() -> None:
    """The rulebook as clauses: lint, list and show them."""


@spec_group.command("lint")
def lint_command() -> None:
    """Validate every spec file; exit non-zero on any problem."""
    problems = lint_problems()
    console = Console()
    for p in problems:
        console.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    if problems:
        raise SystemExit(1)
    cat = default_catalogue()
    console.print(summary_table(cat))
    console.print(f"spec: {len(cat)} clauses, {len(cat.interpretations)} interpretation points, no problems")


@spec_group.command("list")
@click.option("--kind", type=click.Choice(CLAUSE_KINDS), help="Only clauses of this kind.")
def list_command(kind: str | None) -> None:
    """List clauses (id, kind, title)."""
    cat = default_catalogue()
    table = Table()
    for col in ("id", "rev", "kind", "title", "sources", "interp."):
        table.add_column(col)
    for c in cat:
        if kind and c.kind != kind:
            continue
        table.add_row(c.id, str(c.revision), c.kind, c.title, ", ".join(c.documents),
                      str(len(c.interpretations) or ""))
    Console().print(table)


def clause_panel(catalogue: Catalogue, clause_id: str) -> Panel:
    if clause_id not in catalogue and clause_id in {i.id for i in catalogue.interpretations}:
        clause_id = catalogue.interpretation(clause_id).clause_id
    if clause_id not in catalogue:
        raise UserError(f"unknown clause id {clause_id!r} (try 'azul-rules spec list')")
    c = catalogue.clause(clause_id)
    lines = [f"[bold]{c.title}[/bold]  ({c.kind}, revision {c.revision}, {c.chapter})", "", c.text, ""]
    lines += ["[bold]Sources[/bold]"] + [f"  - {s.doc}: {s.where}" for s in c.sources]
    if c.note:
        lines += ["", f"[bold]Note[/bold]: {c.note}"]
    if c.assumption:
        lines += ["", f"[bold]Assumption[/bold]: {c.assumption}"]
    for i in c.interpretations:
        lines += ["", f"[bold]Interpretation {i.id}[/bold]: {i.question}"]
        for a in i.alternatives:
            mark = " [green](default)[/green]" if a.default else ""
            lines += [f"  - {a.name}{mark}: {a.description}  [dim]support: {a.support}[/dim]"]
        lines += [f"  default because: {i.reason}"]
    return Panel("\n".join(lines), title=c.id, subtitle=f"{c.file}:{c.line}")


@spec_group.command("show")
@click.argument("clause_id")
def show_command(clause_id: str) -> None:
    """Show one clause: text, sources, interpretations."""
    Console().print(clause_panel(default_catalogue(), clause_id))
