"""The interpretation matrix: every invariant under every alternative of every interpretation point.

Rows are the spec's defaults, each non-default alternative alone, and a few combinations designers
ask about; columns are the invariants. A broken cell names the counterexample scenario. The game's
interpretation points come from its catalogue, what its model runs, its invariants and its
combinations from its registry entry (`game="azul"`).

A row whose alternatives only matter in situations random play almost never reaches has a
`RowSetup` in the entry's `row_setups` (row label -> setup): the policy that steers play there, a
player count, and the overrides the situation needs (a variant the point belongs to). `decided` stays
a measurement: how often the row's own alternatives were cited deciding in its games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from properties.cluster import Workers, opened, workers_of
from properties.registry import DEFAULT_GAME, UnknownGame, get_game
from properties.simulate import NO_ACTION, WATCHDOG_FAILURES, run_campaign, write_failure
from properties.watchdog import DEFAULT_GAME_SECONDS, limit_memory


def columns(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The game's invariants (state, then step), then the failures that are none of them: no legal
    action in a game neither over nor stalled (unless the game has an invariant of that name), and
    the watchdogs' (a game that never ends, a rule loop past its bound, a crash)."""
    table = tuple(get_game(game).load("invariant_table"))
    return table + tuple(name for name in (NO_ACTION, *WATCHDOG_FAILURES) if name not in table)


@attrs.frozen
class RowSetup:
    """How a matrix row is played when its situation is rare under uniform play: `policy` (one of the
    game's policies), `players` (None: the command's count), `context` (overrides the situation needs,
    e.g. the variant its point belongs to; they go into the row's games and its label)."""

    policy: str = "uniform"
    players: int | None = None
    context: dict[str, str] = attrs.field(factory=dict)

    def note(self) -> str:
        """What the label says about the setup ("" for the plain one)."""
        parts = [f"{k}={v}" for k, v in sorted(self.context.items())]
        parts += [f"policy {self.policy}"] if self.policy != "uniform" else []
        parts += [f"{self.players} players"] if self.players else []
        return f" [{', '.join(parts)}]" if parts else ""


def row_setups(game: str = DEFAULT_GAME) -> dict[str, RowSetup]:
    """The game's row setups (row label -> RowSetup); a label that is no row, or a policy the game
    lacks, is a one-line UnknownGame naming it (the CLI prints it as one line)."""
    from properties.simulate import policies
    from spec.suggest import did_you_mean

    entry = get_game(game)
    setups: dict[str, RowSetup] = dict(entry.load("row_setups")) if entry.has("row_setups") else {}
    labels = [label for label, _ in matrix_rows(game)]
    known = policies(game)
    for label, setup in setups.items():
        if label not in labels:
            raise UnknownGame(f"{entry.row_setups}: row setup for {label!r}, which is no matrix row"
                              f"{did_you_mean(label, labels)}")
        if setup.policy not in known:
            raise UnknownGame(f"{entry.row_setups}: row {label!r}: unknown policy {setup.policy!r}"
                              f"{did_you_mean(setup.policy, known)} (policies: {', '.join(known)})")
    return setups


def combinations(game: str = DEFAULT_GAME) -> tuple[dict[str, str], ...]:
    """Rows whose interplay a designer asks about (each alternative alone is always a row)."""
    entry = get_game(game)
    return tuple(entry.load("combinations")) if entry.has("combinations") else ()


@attrs.frozen
class MatrixRow:
    label: str
    overrides: dict[str, str]
    games: int
    broken: dict[str, str]            # invariant -> counterexample path
    messages: dict[str, str]          # invariant -> first message
    stalled: int
    decided: int                      # times the row's alternatives decided an outcome in play
    scores: tuple[int, ...] = ()      # final scores of the row's finished games (both players), for plots
    policy: str = "uniform"           # how the row's games were played (its RowSetup)
    players: int | None = None        # the player count the row asked for (None: the game's default)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def matrix_rows(game: str = DEFAULT_GAME) -> list[tuple[str, dict[str, str]]]:
    from spec import default_catalogue

    entry = get_game(game)
    implemented = entry.load("implemented")
    rows: list[tuple[str, dict[str, str]]] = [("defaults", {})]
    for interp in default_catalogue(game).interpretations:
        for alt in implemented.get(interp.id, ()):
            if alt != interp.default:
                rows.append((f"{interp.id}={alt}", {interp.id: alt}))
    for combo in combinations(game):
        rows.append((" + ".join(f"{k}={v}" for k, v in sorted(combo.items())), dict(combo)))
    return rows


def run_matrix(games: int, seed: int = 0, jobs: int | Workers = 1, out: Path | None = None,
               progress: Callable[[int], None] | None = None,
               game_seconds: float = DEFAULT_GAME_SECONDS,
               on_row: Callable[[int, int, str], None] | None = None, game: str = DEFAULT_GAME,
               players: int | None = None, only: Sequence[str] | None = None) -> list[MatrixRow]:
    """Each row is a campaign of `games` checked games; each game is watched (`game_seconds`, and
    the step bound), so a row that livelocks shows `livelock` instead of hanging the matrix.
    `on_row(k, n, label)` is called as row k (from 1) of n starts. `jobs`: a worker count or a
    `Workers` (properties.cluster), opened once for every row. `only`: play just these rows (labels
    as matrix_rows gives them; an unknown one is an UnknownGame naming it)."""
    rows = chosen_rows(game, only)
    with opened(workers_of(jobs), initializer=limit_memory) as workers:
        return _run_rows(games, seed, workers, out, progress, game_seconds, on_row, game, players, rows)


def chosen_rows(game: str, only: Sequence[str] | None) -> list[tuple[str, dict[str, str]]]:
    """The matrix rows (label, overrides) whose labels are in `only`, in matrix order (None: all)."""
    from spec.suggest import did_you_mean

    rows = matrix_rows(game)
    if only is None:
        return rows
    labels = [label for label, _ in rows]
    for label in only:
        if label not in labels:
            raise UnknownGame(f"no matrix row {label!r} in game {game!r}{did_you_mean(label, labels)}")
    return [row for row in rows if row[0] in only]


def _run_rows(games: int, seed: int, jobs: Workers, out: Path | None, progress: Callable[[int], None] | None,
              game_seconds: float, on_row: Callable[[int, int, str], None] | None, game: str,
              players: int | None, rows: list[tuple[str, dict[str, str]]]) -> list[MatrixRow]:
    result = []
    setups = row_setups(game)
    for k, (label, own) in enumerate(rows, 1):
        setup = setups.get(label, RowSetup())      # a rare situation's policy, players, context
        label += setup.note()
        overrides = {**setup.context, **own}
        row_players = players or setup.players
        if on_row:
            on_row(k, len(rows), label)
        campaign = run_campaign(games, seed, overrides, jobs=jobs, deep_every=50, progress=progress,
                                game_seconds=game_seconds, game=game, players=row_players, policy=setup.policy)
        broken: dict[str, str] = {}
        messages: dict[str, str] = {}
        for report in campaign.failures:
            name = report.failure[0] if report.failure else ""
            if name not in broken:
                broken[name] = str(write_failure(report, overrides, out, setup.policy))
                messages[name] = report.failure[1] if report.failure else ""
        alt_hits = campaign.totals("alt_hits")
        decided = sum(n for (interp, alt), n in alt_hits.items() if own.get(interp) == alt)   # the row's own
        result.append(MatrixRow(label, overrides, games, broken, messages,
                                sum(g.stalled for g in campaign.games), decided,
                                tuple(sc for g in campaign.games if g.failure is None for sc in g.scores),
                                setup.policy, row_players))
    return result


SHRINK_SECONDS = 120.0          # default time budget of one row's search and shrink


@attrs.frozen
class Shrunk:
    """What `shrink_row` found: the invariant and the scenario file; `complete` is False when the
    time budget ran out first (the file is then the smallest failure found so far)."""
    invariant: str
    scenario: str
    complete: bool = True


def shrink_row(overrides: dict[str, str], directory: Path, max_examples: int = 200,
               seconds: float | None = SHRINK_SECONDS, game: str = DEFAULT_GAME) -> Shrunk | None:
    """Let Hypothesis find and shrink a failing game under `overrides` within `seconds` (None: no
    budget); the machine writes the shrunk scenario. None when Hypothesis found no failure (in time).

    Hypothesis's own messages (the falsifying program, and its "PLEASE REPORT THIS" note when it
    gives up shrinking) are kept from the user: the scenario file is the result."""
    import re

    from hypothesis import HealthCheck, settings
    from hypothesis.reporting import with_reporter

    from properties import watchdog
    from properties.failure import InvariantBroken
    from properties.machine import machine_for

    machine = machine_for(overrides, directory, game=game)
    case = machine.TestCase
    case.settings = settings(max_examples=max_examples, stateful_step_count=300, deadline=None,
                             database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    outer = list(watchdog._TEST_DEADLINE)            # a test's own deadline (pytest plugin) stays in force
    if seconds is not None:
        left = watchdog._test_time_left()
        watchdog.set_test_deadline(min(seconds, left) if left is not None else seconds)
    InvariantBroken.last = None

    def out_of_time() -> Shrunk | None:
        """Our budget ran out: the smallest failure found so far, if any."""
        last = InvariantBroken.last
        if last is not None and last.scenario:
            return Shrunk(last.invariant, last.scenario, complete=False)
        return None

    def ours_spent() -> bool:
        """Our budget (not the running test's own, which must fail the test) is what ran out."""
        left = watchdog._test_time_left()
        if seconds is None or left is None or left > 0:
            return False
        return not (outer and outer[0] <= watchdog._TEST_DEADLINE[0])

    try:
        with with_reporter(lambda message: None):
            case().runTest()
    except (watchdog.TestTimeExpired, watchdog.TimeBudgetExceeded):   # a game's alarm cut short by our budget too
        if outer and watchdog._test_time_left() is not None and outer[0] <= watchdog._TEST_DEADLINE[0]:
            raise                                    # the test's budget, not ours: let it fail the test
        return out_of_time()
    except BaseException as exc:        # InvariantBroken, or a group of them from Hypothesis
        if isinstance(exc, InvariantBroken) and exc.scenario:
            return Shrunk(exc.invariant, exc.scenario)
        m = re.search(r"invariant (\S+) broken: .*?azul-rules scenario (\S+)", str(exc), re.S)
        if m:
            return Shrunk(m[1], m[2])
        if ours_spent():                # Hypothesis replaying an example our budget cut short calls it
            return out_of_time()        # flaky (the replay stops elsewhere): that is the budget too
        raise
    finally:
        watchdog._TEST_DEADLINE[:] = outer
    return None
