"""`azul-rules spec lint|list|show|trace|sentences`: the clause catalogue on the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from harness.errors import UserError
from properties.registry import game_names
from spec import CLAUSE_KINDS, DEFAULT_GAME, Catalogue, catalogue_games, default_catalogue, validate
from spec.sentences import SplitError
from spec.trace import TraceReport, default_documents_dir, split_catalogue_documents, trace

REPO_ROOT = Path(__file__).resolve().parent.parent


def spec_games() -> tuple[str, ...]:
    """The --game choices: registered games and every game with a catalogue folder under spec/."""
    names = set(game_names()) | set(catalogue_games())
    return tuple(sorted(names, key=lambda n: (n != DEFAULT_GAME, n)))


def _known_game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    known = spec_games()
    if value not in known:
        from spec.suggest import did_you_mean
        raise click.BadParameter(f"unknown game {value!r}{did_you_mean(value, known)}; known games: {', '.join(known)}")
    return value


game_option = click.option("--game", default=DEFAULT_GAME, show_default=True, metavar="NAME", callback=_known_game,
                           help=f"Whose clause catalogue (spec/<folder>/catalogue.toml names the game): "
                                f"{', '.join(spec_games())}.")


def lint_problems(game: str = DEFAULT_GAME) -> list[str]:
    """All problems of the catalogue, as one line each (empty when clean)."""
    _, problems = validate(game=game)
    return [str(p) for p in problems]


def summary_table(catalogue: Catalogue) -> Table:
    table = Table(title=f"{catalogue.title} clause catalogue: {len(catalogue)} clauses")
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
@game_option
def lint_command(game: str) -> None:
    """Validate every spec file; exit non-zero on any problem."""
    problems = lint_problems(game)
    console = Console()
    for p in problems:
        console.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    if problems:
        raise SystemExit(1)
    cat = default_catalogue(game)
    console.print(summary_table(cat))
    console.print(f"spec: {len(cat)} clauses, {len(cat.interpretations)} interpretation points, no problems")


@spec_group.command("list")
@click.option("--kind", type=click.Choice(CLAUSE_KINDS), help="Only clauses of this kind.")
@game_option
def list_command(kind: str | None, game: str) -> None:
    """List clauses (id, kind, title)."""
    cat = default_catalogue(game)
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
        from spec.suggest import did_you_mean
        hint = did_you_mean(clause_id, [*catalogue.ids, *(i.id for i in catalogue.interpretations)])
        raise UserError(f"unknown clause id {clause_id!r}{hint} (try 'azul-rules spec list')")
    c = catalogue.clause(clause_id)
    lines = [f"[bold]{c.title}[/bold]  ({c.kind}, revision {c.revision}, {c.chapter})", "", c.text, ""]
    lines += ["[bold]Sources[/bold]"] + [f"  - {line}" for line in catalogue.source_lines(c)]
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
@game_option
def show_command(clause_id: str, game: str) -> None:
    """Show one clause: text, sources, interpretations."""
    Console().print(clause_panel(default_catalogue(game), clause_id))


def _documents_dir(documents: Path | None) -> Path:
    found = documents or default_documents_dir(REPO_ROOT)
    if found is None:
        raise UserError(f"no documents directory: pass --documents DIR (default {REPO_ROOT.parent / 'shared' / 'seeds'}"
                        " does not exist)")
    if not found.is_dir():
        raise UserError(f"--documents {found}: not a directory")
    return found


def trace_lines(report: TraceReport, *, show_text: bool) -> list[str]:
    """The trace as terminal lines: findings first, then the figures per document."""
    out: list[str] = []
    for f in report.findings:
        head = f"{f.kind:<16} {f.locator}"
        fps = f"  fp {f.fp or '-'}" + (f" -> {f.actual_fp}" if f.actual_fp and f.actual_fp != f.fp else "")
        by = f"  ({f.by})" if f.by else ""
        out.append(f"{head}{fps}{by}: {f.detail}")
        if show_text and f.text:
            out.append(f"                 | {f.text}")
    for d in report.documents:
        out.append(f"{d.doc}: {d.cited}/{d.rule_bearing} rule-bearing sentences cited ({d.share:.1%}); "
                   f"{d.sentences} sentences, {d.excluded} excluded with a reason")
    out.append(f"trace: {report.cited}/{report.rule_bearing} rule-bearing sentences cited ({report.share:.1%}), "
               f"{len(report.findings)} finding(s)")
    return out


@spec_group.command("trace")
@click.option("--documents", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory holding the documents (default: ../shared/seeds next to the checkout).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (locators, never text).")
@click.option("--no-text", is_flag=True, help="Do not echo the sentences of findings to the terminal.")
@game_option
def trace_command(documents: Path | None, as_json: bool, no_text: bool, game: str) -> None:
    """Check every rule-bearing sentence is cited and every citation still matches its sentence.

    Exits non-zero when a rule-bearing sentence is cited by no clause, a citation's sentence
    changed or is missing, or an exclusion went stale.
    """
    report = trace(default_catalogue(game), _documents_dir(documents))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        for line in trace_lines(report, show_text=not no_text):
            click.echo(line)
    raise SystemExit(0 if report.ok else 1)


@spec_group.command("sentences")
@click.argument("doc")
@click.argument("section", required=False)
@click.option("--documents", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory holding the documents (default: ../shared/seeds next to the checkout).")
@game_option
def sentences_command(doc: str, section: str | None, documents: Path | None, game: str) -> None:
    """List a document's sentences with locator, fingerprint and the clauses citing them.

    For the developer writing citations: the text is echoed to the terminal, never stored.
    """
    cat = default_catalogue(game)
    try:
        split = split_catalogue_documents(cat, _documents_dir(documents))
    except (OSError, SplitError) as exc:
        raise UserError(f"cannot split the documents: {exc}") from exc
    if doc not in split:
        raise UserError(f"{doc!r} is not a sentence-traced document (known: {', '.join(sorted(split))})")
    cited: dict[str, list[str]] = {}
    for c in cat:
        for source in c.sources:
            if source.doc == doc and source.at:
                cited.setdefault(source.at, []).append(c.id)
    excluded = {e.at for e in cat.exclusions if e.doc == doc}
    for sec in split[doc].sections:
        if section and sec.slug != section:
            continue
        click.echo(f"== {doc}:{sec.slug}  ({sec.title})")
        for s in sec.sentences:
            by = ", ".join(cited.get(s.at, [])) or ("excluded" if {s.at, sec.slug} & excluded else "UNCITED")
            click.echo(f"  {s.at}  {s.fingerprint}  [{by}]\n      {s.text}")
