"""Differential testing of our classic Azul model against the peer engine `azul-game-engine`.

One game is a `Case`: players, first player, the tiles our model drew (in draw order) and our
actions in notation. `replay(case)` plays it in both engines in lockstep (the peer draws what we drew,
properties/azul/peer.py) and returns the first `Finding`: the snapshots differ after an action, the
peer refuses or crashes on an action we allow, or (a `probe`) the peer accepts an action we refuse or
changes its state while refusing it. `play(seed, players)` makes the cases: a uniform random legal
game, compared after every action. `shrink(finding)` delta-debugs the actions (fewest actions, same
draws, same kind of difference), inside a time budget. `classify` names the known difference
(tests/azul/peer-differences.toml) that explains a finding. Every loop is bounded (step cap, case
length, deadline); the peer's exceptions are findings, never crashes.
"""

from __future__ import annotations

import fnmatch
import random
import re
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from harness.errors import UserError
from model.azul import new_game, parse_action
from model.azul.actions import CENTRE_SOURCE, FLOOR, NotationError, take
from model.azul.colours import NUM_COLOURS
from model.azul.game import Game
from model.chance import ChanceScriptError, ScriptedChance, SeededChance
from model.errors import IllegalAction, RulesetError
from properties.azul.peer import (
    WORKAROUNDS,
    PeerCrash,
    PeerError,
    PeerGame,
    PeerRefused,
    compare,
    factory_draws,
    our_snapshot,
    peer_snapshot,
)
from properties.cluster import Workers, executor, map_ordered, workers_of

ROOT = Path(__file__).resolve().parents[2]
KNOWN_PATH = ROOT / "tests" / "azul" / "peer-differences.toml"
MAX_STEPS = 1000                  # a classic game is ~60-250 actions; the cap only guards a runaway
KINDS = ("state", "refused", "crash", "draw", "unsupported", "accepts-illegal", "refusal-not-atomic", "ours-crash")
PROBE_KINDS = ("accepts-illegal", "refusal-not-atomic")
CLASSIFICATIONS = ("peer-bug", "interpretation", "ours")


# --- cases and findings --------------------------------------------------------------------------
@attrs.frozen
class Case:
    """A replayable game prefix. `probe`: an action our model refuses, tried in the peer afterwards."""

    players: int
    first: int
    draws: tuple[int, ...]
    actions: tuple[str, ...]
    probe: str | None = None
    interpretations: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "first": self.first, "draws": list(self.draws),
                               "actions": list(self.actions)}
        if self.probe:
            out["probe"] = self.probe
        if self.interpretations:
            out["interpretations"] = dict(self.interpretations)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str) -> Case:
        try:
            return cls(int(data["players"]), int(data["first"]), tuple(int(c) for c in data["draws"]),
                       tuple(str(a) for a in data["actions"]), data.get("probe"),
                       tuple(sorted(dict(data.get("interpretations", {})).items())))
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"{where}: not a differential case ({type(exc).__name__}: {exc}); expected "
                            "players, first, draws, actions [, probe, interpretations]") from None


@attrs.frozen
class Finding:
    kind: str
    fields: tuple[tuple[str, Any, Any], ...]     # (path, ours, peer)
    message: str
    case: Case                                   # its last action (or probe) is where they differ
    clause: str | None = None                    # the clause our model refuses a probe with
    seed: int | None = None

    @property
    def signature(self) -> tuple[str, str | None, tuple[str, ...]]:
        """What kind of difference, independent of the game: kind, clause, generalised field paths."""
        if self.kind in PROBE_KINDS:          # what the peer did to itself varies with the position
            return self.kind, self.clause, ()
        return self.kind, self.clause, tuple(sorted({generalise(p) for p, _, _ in self.fields}))

    @property
    def where(self) -> str:
        return self.case.probe or (self.case.actions[-1] if self.case.actions else "setup")


def generalise(path: str) -> str:
    return re.sub(r"\[\d+\]", "[*]", path)


class CaseInvalid(Exception):
    """The case cannot be replayed by our model (an action illegal, the draws run out)."""


# --- chance that remembers --------------------------------------------------------------------
class RecordingChance:
    """A seeded chance that records the first player and every tile drawn (replayed by ScriptedChance)."""

    def __init__(self, seed: int) -> None:
        self._inner = SeededChance(seed)
        self.first = 0
        self.draws: list[int] = []

    def first_player(self, players: int = 2) -> int:
        self.first = self._inner.first_player(players)
        return self.first

    def draw_tile(self, bag: Sequence[int]) -> int:
        colour = self._inner.draw_tile(bag)
        self.draws.append(colour)
        return colour

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        return self._inner.shuffle_plates(plates)

    def draw_chip(self, supply: Sequence[int]) -> int:
        return self._inner.draw_chip(supply)

    def fork(self) -> RecordingChance:
        twin = RecordingChance(0)
        twin._inner, twin.first, twin.draws = self._inner.fork(), self.first, self.draws[:]
        return twin


# --- lockstep -----------------------------------------------------------------------------------
class Lockstep:
    """Our game and the peer's, one action at a time."""

    def __init__(self, game: Game, workarounds: Iterable[str]) -> None:
        self.game = game
        s = game.state
        self.setup_error: PeerError | None = None
        try:
            self.peer = PeerGame(s.players, s.starter, s.factories, workarounds)
        except PeerError as exc:
            self.setup_error = exc
        except Exception as exc:  # noqa: BLE001 - the peer's own failure is a finding
            self.setup_error = PeerCrash(f"starting the peer raised {type(exc).__name__}: {exc}")

    def opening(self) -> tuple[str, str, tuple[tuple[str, Any, Any], ...]] | None:
        """The difference right after setup, if any."""
        try:
            if self.setup_error is not None:
                raise self.setup_error
            fields = self.check()
        except PeerError as exc:
            return _kind_of(exc), str(exc), ()
        return ("state", "the positions differ after setup", fields) if fields else None

    def check(self) -> tuple[tuple[str, Any, Any], ...]:
        ours = our_snapshot(self.game)
        try:
            theirs = peer_snapshot(self.peer)
        except Exception as exc:  # noqa: BLE001 - the peer's own failure is a finding
            raise PeerCrash(f"reading the peer's position raised {type(exc).__name__}: {exc}") from None
        diff = compare(ours, theirs)
        return tuple((p, a, b) for p, (a, b) in diff.items())

    def step(self, text: str) -> tuple[str, str, tuple[tuple[str, Any, Any], ...]] | None:
        """Apply `text` to both; None when they agree, else (kind, message, fields).
        CaseInvalid when our model refuses it or the scripted draws run out."""
        g = self.game
        try:
            action = parse_action(text)
            round_before = g.state.round
            g.apply(action)
        except (IllegalAction, NotationError, ChanceScriptError) as exc:
            raise CaseInvalid(f"{text!r}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - our model failing on a legal action is a finding too
            return "ours-crash", f"our model raised {type(exc).__name__} on {text!r}: {exc}", ()
        if g.state.round != round_before and not g.is_over:
            self.peer.script(factory_draws(g.state.factories))
        try:
            self.peer.apply(text)
            fields = self.check()
        except PeerError as exc:
            return _kind_of(exc), str(exc), ()
        return ("state", f"the positions differ after {text!r}", fields) if fields else None

    def probe(self, text: str) -> tuple[str, str, tuple[tuple[str, Any, Any], ...], str] | None:
        """Try an action our model refuses in a copy of the peer: None when the peer refuses it too
        and its state is unchanged; else (kind, message, fields, our refusing clause)."""
        problem = self.game.why_illegal(parse_action(text))
        if problem is None:
            raise CaseInvalid(f"probe {text!r} is legal in our model")
        clause, reason = problem
        try:
            clone = self.peer.clone()
            before = peer_snapshot(clone)
        except Exception as exc:  # noqa: BLE001
            return "crash", f"copying the peer raised {type(exc).__name__}: {exc}", (), clause
        try:
            clone.apply(text)
        except PeerRefused as exc:
            try:
                diff = compare(before, peer_snapshot(clone))
            except Exception as exc2:  # noqa: BLE001
                return "crash", f"reading the peer after {text!r} raised {type(exc2).__name__}: {exc2}", (), clause
            if not diff:
                return None
            return ("refusal-not-atomic", f"{exc} but changed its state (ours: {reason} [{clause}])",
                    tuple((p, a, b) for p, (a, b) in diff.items()), clause)
        except PeerError as exc:
            return _kind_of(exc), str(exc), (), clause
        return ("accepts-illegal", f"peer accepted {text!r}; ours refuses it: {reason} [{clause}]", (), clause)


def _kind_of(exc: PeerError) -> str:
    return {"PeerRefused": "refused", "PeerCrash": "crash", "PeerDrawMismatch": "draw",
            "PeerUnsupported": "unsupported"}[type(exc).__name__]


def start(case: Case, workarounds: Iterable[str]) -> Lockstep:
    chance = ScriptedChance(tiles=case.draws, first=case.first, strict=True)
    try:
        game = new_game(case.players, interpretations=dict(case.interpretations), chance=chance)
    except ChanceScriptError as exc:
        raise CaseInvalid(f"setup: {exc}") from None
    except RulesetError as exc:
        raise UserError(str(exc)) from None
    return Lockstep(game, workarounds)


def replay(case: Case, workarounds: Iterable[str] = WORKAROUNDS) -> Finding | None:
    """The first difference along the case (its actions, then its probe), or None."""
    ls = start(case, workarounds)
    opening = ls.opening()
    if opening:
        return Finding(opening[0], opening[2], opening[1], attrs.evolve(case, actions=(), probe=None))
    for i, text in enumerate(case.actions):
        found = ls.step(text)
        if found:
            kind, message, fields = found
            return Finding(kind, fields, message, attrs.evolve(case, actions=case.actions[:i + 1], probe=None))
    if case.probe:
        found_probe = ls.probe(case.probe)
        if found_probe:
            kind, message, fields, clause = found_probe
            return Finding(kind, fields, message, case, clause)
    return None


# --- random games --------------------------------------------------------------------------------
@attrs.frozen
class GameResult:
    seed: int
    players: int
    steps: int                    # actions compared
    finding: Finding | None       # the first state/peer difference (ends the comparison)
    probes: tuple[Finding, ...]   # probe findings (one per signature; the game goes on)
    capped: bool = False


def refused_takes(game: Game) -> list[str]:
    """Every pick (source, colour, destination) our model refuses now, in notation; plus the split
    `... x1` (one tile on the line, the rest to the floor) where more than one tile would fit."""
    s = game.state
    sources = list(range(len(s.factories))) + [CENTRE_SOURCE]
    takes = [take(src, c, d) for src in sources for c in range(NUM_COLOURS) for d in range(FLOOR + 1)]
    if s.to_move >= 0:
        board = s.boards[s.to_move]
        for src in sources:
            pile = s.centre if src == CENTRE_SOURCE else s.factories[src]
            takes += [take(src, c, d, 1) for c in range(NUM_COLOURS) for d in range(FLOOR)
                      if min(pile[c], d + 1 - board.line_count[d]) > 1]
    return [str(a) for a in takes if game.why_illegal(a) is not None]


POLICIES = ("uniform",)


def choose(policy: str, legal: Sequence[Any], rng: random.Random) -> Any:
    """uniform: any legal action alike. The rare situations random play does not reach (a marker taken
    onto a full floor, a short refill) are compared on the search's witnesses instead (`witness_case`)."""
    return rng.choice(legal)


class _Recording:
    """A scenario's chance, with every tile it gives out recorded (the case's draws after set-up)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.draws: list[int] = []

    def draw_tile(self, bag: Sequence[int]) -> int:
        colour = int(self.inner.draw_tile(bag))
        self.draws.append(colour)
        return colour

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def witness_case(path: Path, interpretations: Mapping[str, str] | None = None) -> Case:
    """A committed search witness (fixtures/azul/witnesses/, written by `azul-rules search`) as a
    lockstep case: its players and actions, its draws from set-up on (set-up's read off the displays,
    display by display; then those its replay takes from the file's script), our model under
    `interpretations` (default: the file's own). The search reaches situations random games do not (a
    marker taken onto a full floor, a short refill), so the peer is compared there on these games.
    UserError for a gray-wall witness (the peer has no gray wall) or one that does not replay."""
    from harness.azul.scenarios.position import build_game
    from harness.scenarios import load_scenario

    scenario = load_scenario(path)
    if scenario.given.get("wall", "coloured") != "coloured":
        raise UserError(f"{path}: a gray-wall witness; the peer has no gray wall")
    game, _ = build_game(scenario)
    draws = [c for f in game.state.factories for c in range(NUM_COLOURS) for _ in range(f[c])]
    recording = _Recording(game.chance)
    game.chance = recording
    first = game.state.starter
    try:
        for step in scenario.steps:
            game.apply(parse_action(step.action))
    except (IllegalAction, NotationError, ChanceScriptError) as exc:
        raise UserError(f"{path}: the witness does not replay: {exc}") from None
    readings = scenario.interpretations if interpretations is None else interpretations
    return Case(game.state.players, first, tuple(draws + recording.draws), tuple(s.action for s in scenario.steps),
                None, tuple(sorted(dict(readings).items())))


def play(seed: int, players: int, *, workarounds: Iterable[str] = WORKAROUNDS,
         interpretations: Mapping[str, str] | None = None, probes: int = 0,
         max_steps: int = MAX_STEPS, policy: str = "uniform") -> GameResult:
    """One uniform random legal game in both engines, compared after every action. `probes`: how many
    actions our model refuses are tried in the peer at each step."""
    chance = RecordingChance(seed)
    game = new_game(players, interpretations=dict(interpretations or {}), chance=chance)
    ls = Lockstep(game, workarounds)
    rng = random.Random(f"differential-policy-{seed}")
    prober = random.Random(f"differential-probe-{seed}")
    interps = tuple(sorted((interpretations or {}).items()))
    actions: list[str] = []
    seen: dict[tuple[Any, ...], Finding] = {}

    def case(probe: str | None = None) -> Case:
        return Case(players, chance.first, tuple(chance.draws), tuple(actions), probe, interps)

    opening = ls.opening()
    if opening:
        return GameResult(seed, players, 0, Finding(opening[0], opening[2], opening[1], case(), seed=seed), ())
    while not game.is_over and len(actions) < max_steps:
        legal = game.legal_actions()
        if not legal:
            break                                  # stalled (azul.prep.empty-round=stall)
        if probes:
            illegal = refused_takes(game)
            for text in prober.sample(illegal, min(probes, len(illegal))):
                found_probe = ls.probe(text)
                if found_probe:
                    kind, message, pfields, clause = found_probe
                    f = Finding(kind, pfields, message, case(text), clause, seed)
                    seen.setdefault(f.signature, f)
        text = str(choose(policy, legal, rng))
        actions.append(text)
        found = ls.step(text)
        if found:
            kind, message, sfields = found
            return GameResult(seed, players, len(actions), Finding(kind, sfields, message, case(), seed=seed),
                              tuple(seen.values()))
    return GameResult(seed, players, len(actions), None, tuple(seen.values()),
                      capped=not game.is_over and len(actions) >= max_steps)


# --- shrinking -----------------------------------------------------------------------------------
def shrink(finding: Finding, *, workarounds: Iterable[str] = WORKAROUNDS, seconds: float = 20.0) -> Finding:
    """The case with the fewest actions (delta debugging, same draws) that still shows a finding with
    the same signature. Stops at the deadline with the smallest case found so far."""
    workarounds = tuple(workarounds)
    deadline = time.monotonic() + seconds
    target = finding.signature
    best = earliest_probe(finding, workarounds, deadline) if finding.case.probe else finding

    def reproduces(actions: Sequence[str]) -> Finding | None:
        try:
            f = replay(attrs.evolve(best.case, actions=tuple(actions)), workarounds)
        except CaseInvalid:
            return None
        return f if f is not None and f.signature == target else None

    actions = list(best.case.actions)
    n = 2
    while actions and time.monotonic() < deadline:
        chunk = -(-len(actions) // n)
        reduced = False
        for i in range(0, len(actions), chunk):
            if time.monotonic() >= deadline:
                break
            candidate = actions[:i] + actions[i + chunk:]
            f = reproduces(candidate)
            if f is not None:
                best = f
                actions = list(f.case.actions) if f.case.probe is None else candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(actions):
                break
            n = min(len(actions), n * 2)
    return _trim_draws(best, workarounds)


def earliest_probe(finding: Finding, workarounds: Sequence[str], deadline: float) -> Finding:
    """A probe finding moved to the earliest position of its game where some action our model refuses
    with the same clause shows the same kind of difference (then delta debugging has less to do)."""
    case = finding.case
    ls = start(case, workarounds)
    for k in range(len(case.actions) + 1):
        if k and ls.step(case.actions[k - 1]):
            break
        candidates = [t for t in refused_takes(ls.game)
                      if (ls.game.why_illegal(parse_action(t)) or ("",))[0] == finding.clause]
        for text in candidates:
            if time.monotonic() >= deadline:
                return finding
            found = ls.probe(text)
            if found:
                f = Finding(found[0], found[2], found[1], attrs.evolve(case, actions=case.actions[:k], probe=text),
                            found[3], finding.seed)
                if f.signature == finding.signature:
                    return f
    return finding


def _trim_draws(finding: Finding, workarounds: Sequence[str]) -> Finding:
    """Keep only the draws the case consumes."""
    ls = start(finding.case, workarounds)
    chance = ls.game.chance
    assert isinstance(chance, ScriptedChance)
    for text in finding.case.actions:
        if ls.step(text):
            break
    used = len(finding.case.draws) - len(chance.tiles)
    return attrs.evolve(finding, case=attrs.evolve(finding.case, draws=finding.case.draws[:used]))


def fills(case: Case) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
    """(actions played before it, factory contents) for the setup and every refill of the case."""
    chance = ScriptedChance(tiles=case.draws, first=case.first, strict=True)
    game = new_game(case.players, interpretations=dict(case.interpretations), chance=chance)
    out = [(0, tuple(tuple(f) for f in game.state.factories))]
    for i, text in enumerate(case.actions, 1):
        r = game.state.round
        try:
            game.apply(parse_action(text))
        except (IllegalAction, ChanceScriptError):
            break
        if game.state.round != r and not game.is_over:
            out.append((i, tuple(tuple(f) for f in game.state.factories)))
    return out


def movers(case: Case) -> list[int]:
    """Who plays each action of the case (0-based)."""
    chance = ScriptedChance(tiles=case.draws, first=case.first, strict=True)
    game = new_game(case.players, interpretations=dict(case.interpretations), chance=chance)
    out = []
    for text in case.actions:
        out.append(game.current_player)
        try:
            game.apply(parse_action(text))
        except (IllegalAction, ChanceScriptError):
            break
    return out


# --- known differences ---------------------------------------------------------------------------
@attrs.frozen
class KnownDifference:
    id: str
    classification: str
    kind: str
    fields: tuple[str, ...]
    reason: str
    clause: str | None = None            # the clause the peer breaks (peer-bug) or our refusing clause
    probe_clause: str | None = None      # for probe kinds: the clause our model refuses with
    workaround: str | None = None
    interpretation: tuple[str, str] | None = None
    point: str | None = None             # interpretation point missing from the spec (reported)


def load_known(path: Path = KNOWN_PATH) -> list[KnownDifference]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: known-differences file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: {exc}") from None
    out: list[KnownDifference] = []
    for n, entry in enumerate(data.get("difference", []), 1):
        where = f"{path}: difference #{n} ({entry.get('id', '?')})"
        for key in ("id", "classification", "kind", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise UserError(f"{where}: field {key!r} is missing or not text")
        if entry["classification"] not in CLASSIFICATIONS:
            raise UserError(f"{where}: classification {entry['classification']!r} is not one of {', '.join(CLASSIFICATIONS)}")
        if entry["kind"] not in KINDS:
            raise UserError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        if entry.get("workaround") is not None and entry["workaround"] not in WORKAROUNDS:
            raise UserError(f"{where}: workaround {entry['workaround']!r} is not one of {', '.join(WORKAROUNDS)}")
        interp = entry.get("interpretation")
        if interp is not None and (not isinstance(interp, str) or "=" not in interp):
            raise UserError(f"{where}: interpretation must be 'POINT=ALTERNATIVE'")
        fields = entry.get("fields", [])
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
            raise UserError(f"{where}: fields must be a list of field-path patterns")
        reading: tuple[str, str] | None = None
        if interp:
            interp_id, alternative = interp.split("=", 1)
            reading = (interp_id, alternative)
        out.append(KnownDifference(
            entry["id"], entry["classification"], entry["kind"], tuple(fields), entry["reason"].strip(),
            entry.get("clause"), entry.get("probe_clause"), entry.get("workaround"), reading, entry.get("point")))
    return out


def classify(finding: Finding, known: Sequence[KnownDifference]) -> list[KnownDifference]:
    """The known differences that together explain every differing field of the finding (empty: new)."""
    candidates = [k for k in known if k.kind == finding.kind
                  and (k.probe_clause is None or k.probe_clause == finding.clause)]
    paths = {generalise(p) for p, _, _ in finding.fields}
    if not paths or finding.kind in PROBE_KINDS:
        return candidates[:1]
    matched = [k for k in candidates if any(fnmatch.fnmatchcase(p, pat) for p in paths for pat in k.fields)]
    covered = all(any(fnmatch.fnmatchcase(p, pat) for k in matched for pat in k.fields) for p in paths)
    return matched if covered else []


def confirm_interpretation(finding: Finding, known: KnownDifference,
                           workarounds: Iterable[str] = WORKAROUNDS) -> str:
    """Re-run the case with our model under the peer's alternative: "confirmed" when the two engines
    then agree, "still differs", or "not in our model" when the model lacks that alternative."""
    if known.interpretation is None:
        return "no interpretation"
    interps = dict(finding.case.interpretations)
    interps[known.interpretation[0]] = known.interpretation[1]
    case = attrs.evolve(finding.case, interpretations=tuple(sorted(interps.items())))
    if case.probe:                            # under the peer's reading our model plays the probe too
        case = attrs.evolve(case, actions=case.actions + (case.probe,), probe=None)
    try:
        return "confirmed" if replay(case, workarounds) is None else "still differs"
    except UserError:
        return "not in our model"
    except CaseInvalid:
        return "still differs"


# --- a campaign ----------------------------------------------------------------------------------
@attrs.frozen
class Campaign:
    games: int
    steps: int
    seconds: float
    results: tuple[GameResult, ...]
    timed_out: bool
    policy: str = "uniform"


def campaign(games: int, seed: int, players: Sequence[int], *, workarounds: Iterable[str] = WORKAROUNDS,
             interpretations: Mapping[str, str] | None = None, probes: int = 0, seconds: float = 600.0,
             max_steps: int = MAX_STEPS, policy: str = "uniform",
             on_game: Callable[[GameResult], None] | None = None, jobs: int | Workers = 1) -> Campaign:
    """`games` seeded games (seed, seed+1, ...), player counts in turn; stops at the time budget.
    `jobs`: a worker count or a `Workers` (local processes or a Dask cluster, properties.cluster): the
    games and their order are the same wherever they run."""
    workarounds = tuple(workarounds)
    t0 = time.monotonic()
    options = dict(workarounds=workarounds, interpretations=dict(interpretations or {}), probes=probes,
                   max_steps=max_steps, policy=policy)
    items = [(seed + i, players[i % len(players)], options) for i in range(games)]

    def out_of_time(item: Any) -> str | None:
        return "time" if time.monotonic() - t0 > seconds else None

    def collect(item: Any, result: GameResult) -> None:
        if on_game:
            on_game(result)

    with executor(workers_of(jobs)) as pool:
        outcomes = map_ordered(pool, _play_one, items, stop=out_of_time, on_result=collect)
    results = [o.result for o in outcomes if o.stopped is None]
    timed_out = any(o.stopped is not None for o in outcomes)
    return Campaign(len(results), sum(r.steps for r in results), time.monotonic() - t0, tuple(results), timed_out,
                    policy)


def _play_one(item: tuple[int, int, dict[str, Any]]) -> GameResult:
    seed, players, options = item
    return play(seed, players, **options)

