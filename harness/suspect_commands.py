"""`azul-rules suspects`: tests and scenarios pinned to an older clause revision than spec/ holds,
and `--bump FILE...` to re-pin them once someone has re-read them against the new text."""

from __future__ import annotations

import re
from pathlib import Path

import click

from harness.coverage import suspects
from spec import Catalogue, default_catalogue

_PIN = re.compile(r"""(?P<q>["'])(?P<id>duel\.[a-z0-9.-]+)@(?P<rev>\d+)(?P=q)""")


def bump_pins(path: Path, catalogue: Catalogue) -> list[str]:
    """Rewrite every `"id@N"` in `path` to the revision spec/ holds; what changed, one line each."""
    text = path.read_text(encoding="utf-8")
    changes: list[str] = []

    def repl(m: re.Match[str]) -> str:
        cid, rev = m["id"], int(m["rev"])
        if cid not in catalogue or catalogue.clause(cid).revision == rev:
            return m.group(0)
        now = catalogue.clause(cid).revision
        changes.append(f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {cid} @{rev} -> @{now}")
        return f"{m['q']}{cid}@{now}{m['q']}"

    new = _PIN.sub(repl, text)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return changes


@click.command("suspects")
@click.option("--bump", "bump", type=click.Path(exists=True, dir_okay=False, path_type=Path), multiple=True,
              help="A test or scenario file you have re-read: re-pin its clause pins to spec/'s revisions.")
def suspects_command(bump: tuple[Path, ...]) -> None:
    """Tests and scenarios pinned (`id@N`) to an older clause revision: re-read each against the
    clause's new text (`azul-rules explain ID`), fix it if the rule moved, then `--bump FILE`."""
    catalogue = default_catalogue()
    if bump:
        for path in bump:
            for line in bump_pins(path, catalogue) or [f"{path}: no pin to bump"]:
                click.echo(line)
        return
    found = suspects(catalogue)
    for s in found:
        click.echo(f"suspect {s.kind} {s.where}: {s.clause} pinned @{s.pinned}, spec/ holds @{s.revision}")
    click.echo(f"{len(found)} suspect(s)" + (" (re-read each, then: azul-rules suspects --bump FILE)" if found else ""))
    raise SystemExit(1 if found else 0)
