"""`azul-rules explain ID`: what a designer needs before changing a rule."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape

from harness.coverage import ROOT, compute, guard_statuses, guard_words, load_test_results
from harness.pytest_plugin import DEFAULT_JSON
from harness.spec_commands import clause_panel
from spec import DEFAULT_GAME, default_catalogue


def explain(clause_id: str, console: Console, game: str = DEFAULT_GAME) -> None:
    catalogue = default_catalogue(game)
    console.print(clause_panel(catalogue, clause_id))
    if clause_id not in catalogue:
        clause_id = catalogue.interpretation(clause_id).clause_id
    tests = load_test_results(ROOT / DEFAULT_JSON)
    # the guard status from the stored mutation results, by the function the report uses
    row = next(r for r in compute(catalogue, tests, {}, guard_statuses(catalogue, ROOT)) if r.id == clause_id)
    console.print("[bold]Code sites[/bold] (model/): " + (", ".join(row.model_sites) or "none"))
    if row.property_sites:
        console.print("[bold]Invariants[/bold] (properties/): " + ", ".join(row.property_sites))
    report = ROOT / "report" / "coverage.json"
    sim = None
    if report.exists():
        data = json.loads(report.read_text())
        sim = next((c["hits_simulation"] for c in data["clauses"] if c["id"] == clause_id), None)
        points = {i.id for i in catalogue.clause(clause_id).interpretations}
        for d in data.get("defaults_in_play", []):
            if d["id"] in points:
                console.print(f"[bold]{d['id']}[/bold]: the default '{d['default']}' decided {d['hits']} "
                              "times in the last verify campaign", highlight=False)
        for matrix_row in data.get("matrix", []):
            if set(matrix_row["overrides"]) & points and len(matrix_row["overrides"]) == 1:
                broken = ", ".join(sorted(matrix_row["broken"])) or "none"
                console.print(f"  {matrix_row['label']}: decided {matrix_row['decided']}, invariants broken: {broken}",
                              highlight=False, markup=False)
    if not tests:
        console.print("[dim]No test results yet: run 'make test' (or 'make verify') for asserting tests and hits.[/dim]")
    else:
        console.print(f"[bold]Asserted by[/bold] {len(row.tests)} tests, {len(row.scenarios)} scenarios")
        for t in row.tests:
            console.print(f"  {t}", highlight=False, markup=False)
        for s in row.scenarios:
            console.print(f"  scenario {s}", highlight=False, markup=False)
        if row.failing_tests:
            console.print("[red]Failing[/red]: " + escape(", ".join(row.failing_tests)))
    console.print(f"[bold]Hits[/bold]: {row.hits_tests} in tests"
                  + (f", {sim} in the last verify campaign" if sim is not None else ""))
    missing = row.missing
    console.print("[bold]Status[/bold]: " + (" ".join(missing) if missing else
                                             "implemented, exercised, asserted" + (", guarded" if row.guarded else "")))
    console.print("[bold]Guard[/bold]: " + escape(guard_words(row.guard)), highlight=False)
