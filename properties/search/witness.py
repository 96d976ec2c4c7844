"""A witness as scenario files: the question in the description, the game from set-up with the
scripted chance, and for `--decide` the expectations under the alternative and under the default
(one file with `[[readings]]` where the game's format has them, else a second `.default` file)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from properties.counterexample import _toml_str
from properties.registry import GameEntry
from properties.search.goals import ClauseGoal, DecideGoal, WhereGoal
from properties.search.replay import Replay, Setup, divergence, replay


@attrs.frozen
class WitnessFile:
    name: str                 # file name (no folder)
    text: str
    reading: str              # "" or "ID=ALT" the file's own reading


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.\-]+", "-", text.lower()).strip("-")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(value)


def _inline(table: Mapping[str, Any]) -> str:
    return "{ " + ", ".join(f"{_toml_str(k)} = {_toml_value(v)}" for k, v in table.items()) + " }"


def expectations(mine: Replay, theirs: Replay, step: int) -> dict[str, Any]:
    """What tells this reading's game from the other's after `step`: the step's own events (and the
    other's that this reading never prints), the scores, the legal actions, how the game ended (its
    outcome's reason, which a scenario's `reason` looks for)."""
    a, b = mine.steps[step], theirs.steps[step]
    then: dict[str, Any] = {}
    if a.scores != b.scores:
        then["scores"] = list(a.scores)
    everything = [e for s in mine.steps[:step + 1] for e in s.events]
    only_mine = [e for e in a.events if e not in b.events]
    only_theirs = [e for e in b.events if e not in a.events and not any(e in x for x in everything)]
    if only_mine:
        then["events"] = only_mine[:4]
    elif a.events != b.events and not only_theirs:      # the same events in another order
        then["events"] = list(a.events)
    if only_theirs:
        then["no_events"] = only_theirs[:4]
    if a.legal != b.legal:
        if len(a.legal) != len(b.legal):
            then["legal_count"] = len(a.legal)
        extra = [x for x in a.legal if x not in b.legal][:3]
        missing = [x for x in b.legal if x not in a.legal][:3]
        if extra:
            then["legal_includes"] = extra
        if missing:
            then["legal_excludes"] = missing
    if a.outcome != b.outcome and a.outcome:
        then["reason"] = a.outcome
    return then


def witness_files(setup: Setup, witness: Any, *, found_by: str, broken: Sequence[str] = ()) -> list[WitnessFile]:
    """The files of one witness (`witness`: properties.search.run.Witness). `broken`: the invariant
    failures its replay showed (the runner's lines): such a file does not check the invariants and
    says in its description which ones the rules, so read, break (a finding about the reading)."""
    entry: GameEntry = setup.entry
    hooks = setup.hooks
    goal = witness.goal
    actions = list(witness.shrunk.actions)
    record = witness.shrunk.record
    context = dict(getattr(goal, "context", ()))
    name = slug(goal.slug)
    clauses = [c for c in witness.covers if c.startswith(entry.id_prefix)]
    question = goal.question()
    also = [g.key for g in witness.also]
    description = question + "\n" + found_by + "\n"
    if also:
        description += "It also answers: " + ", ".join(also) + ".\n"
    if broken:
        description += ("Invariants are not checked: under these readings this game breaks them (the rules so "
                        "read cannot keep the clauses they guard):\n" + "".join(f"  {b}\n" for b in broken))
    base_then: dict[str, Any] = {}
    readings_tables: list[str] = []
    second: WitnessFile | None = None
    strict = True
    # A context's interpretation choices (ids with a dot) are the file's interpretations; its other
    # keys (tablets, the wall side) are written by the game's context_lines.
    from properties.search.run import interpretations

    points = interpretations(setup.entry.name)
    overrides = {k: v for k, v in (goal.overrides if isinstance(goal, DecideGoal) else context).items()
                 if k not in context or k in points}
    if isinstance(goal, ClauseGoal):
        clauses = [goal.clause] + [c for c in clauses if c != goal.clause]
    if isinstance(goal, WhereGoal):            # what the last step's events name: where it happened
        last = replay(setup, {}, actions, record).steps[-1].events
        named = sorted({e.rsplit("[", 1)[-1].rstrip("]") for e in last if e.endswith("]")})
        clauses = [c for c in named if c.startswith(entry.id_prefix)] or clauses
    if isinstance(goal, DecideGoal):
        strict = False
        step, alt, default = divergence(setup, goal, actions, record)
        if step is None or alt is None or default is None:
            raise ValueError(f"{goal.key}: the witness no longer parts the readings on replay")
        base_then = expectations(alt, default, step)
        default_then = expectations(default, alt, step)
        step_clauses = sorted({e.rsplit("[", 1)[-1].rstrip("]") for e in alt.steps[step].events + default.steps[step].events
                               if e.endswith("]")})
        clauses = [c for c in step_clauses if c.startswith(entry.id_prefix)] or clauses
        if hooks.readings:             # a reading's `then` is merged over the file's: state every key
            theirs = default.steps[step]
            neutral = {"scores": list(theirs.scores), "legal_count": len(theirs.legal), "reason": theirs.outcome}
            default_then = {**{k: neutral.get(k, []) for k in base_then}, **default_then}
            readings_tables = ["", "[[readings]]",
                               f"interpretations = {{ {_toml_str(goal.interp)} = {_toml_str(goal.default)} }}",
                               f"then = {_inline(default_then)}"]
        else:
            other = {**overrides, goal.interp: goal.default}
            second = WitnessFile(f"{name}.default.toml",
                                 _text(setup, f"witness.{entry.name}.{name}.default", description.replace(
                                     question, question + f"\n(This file is the default's side: under {goal.default}.)"),
                                     clauses, other, context, actions, record, strict, default_then,
                                     invariants=not broken),
                                 f"{goal.interp}={goal.default}")
    text = _text(setup, f"witness.{entry.name}.{name}", description, clauses or [entry.progress_clauses[0]],
                 overrides, context, actions, record, strict, base_then, invariants=not broken) + \
        "\n".join(readings_tables) + \
        ("\n" if readings_tables else "")
    files = [WitnessFile(f"{name}.toml", text, goal.key.split(" ", 1)[1] if isinstance(goal, DecideGoal) else "")]
    return files + ([second] if second else [])


def _text(setup: Setup, scenario_id: str, description: str, clauses: Sequence[str], overrides: Mapping[str, str],
          context: Mapping[str, str], actions: Sequence[str], record: Any, strict: bool,
          then: Mapping[str, Any], *, invariants: bool = True) -> str:
    entry, hooks = setup.entry, setup.hooks
    top, given = hooks.context_lines(setup.players if setup.players != entry.players[0] else None, context)
    if hooks.replay == "steps":
        top, given = list(top), list(hooks.context_lines(setup.players, context)[1])
    lines = [f"game = {_toml_str(entry.name)}", f"id = {_toml_str(scenario_id)}",
             f'description = """\n{description}"""',
             "clauses = [" + ", ".join(_toml_str(c) for c in clauses) + "]", *top]
    if overrides:
        lines.append("interpretations = " + _inline(dict(sorted(overrides.items()))))
    if hooks.replay == "steps":
        lines.append(f"seed = {setup.seed}")
    lines.append("when = [")
    lines += [f"  {_toml_str(a)}," for a in actions]
    lines.append("]")
    if given:
        lines += ["", "[given]", *given]
    lines += ["", "[chance]", *hooks.chance_lines(record, entry.load("format_tiles")),
              f"strict = {'true' if strict else 'false'}"]
    lines += ["", "[then]"] + (['invariants = "all"'] if invariants else [])
    lines += [f"{k} = {_toml_value(v)}" for k, v in then.items()]
    return "\n".join(lines) + "\n"
