"""The rule bugs we plant: cosmic-ray's mutation operators (the field's standard library of them)
chosen for the bugs real game engines have, plus three of our own in cosmic-ray's operator model.

- a comparison or bound off by one: `<` <-> `<=`, `>` <-> `>=`; a condition reversed: `==` <-> `!=`,
  `is` <-> `is not`, `not` added to an `if`; `and` <-> `or`; `True` <-> `False`
- a wrong constant in a table: every number +1 and -1; `+` <-> `-`
- a loop that never runs; `break` <-> `continue`
- a statement at the rule site removed (ours: RemoveStatement)
- the wrong player (ours: OtherPlayer, `who` -> the next seat, as the game's registry entry writes
  it: Duel `(1 - who)`, classic `((who + 1) % state.players)`)
- the wrong pile (ours: OtherPile, the game's pairs of piles swapped: Duel the bag and the Tower,
  classic the bag and the box lid)

The two game-aware operators read the game of the file they mutate (model/<game>/..., the default
game for a shared file) from its registry entry: `mutation_piles` and `mutation_other_seat`.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import PurePosixPath

import parso
import parso.python.tree as pt
from cosmic_ray.operators.operator import Example, Operator
from cosmic_ray.plugins import get_operator

from properties.registry import DEFAULT_GAME, game_names, get_game
from spec.python_ast import parse as parse_python

COSMIC_RAY_OPERATORS: tuple[str, ...] = (
    "core/ReplaceComparisonOperator_Lt_LtE",
    "core/ReplaceComparisonOperator_LtE_Lt",
    "core/ReplaceComparisonOperator_Gt_GtE",
    "core/ReplaceComparisonOperator_GtE_Gt",
    "core/ReplaceComparisonOperator_Eq_NotEq",
    "core/ReplaceComparisonOperator_NotEq_Eq",
    "core/ReplaceComparisonOperator_Is_IsNot",
    "core/ReplaceComparisonOperator_IsNot_Is",
    "core/AddNot",
    "core/ReplaceAndWithOr",
    "core/ReplaceOrWithAnd",
    "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue",
    "core/NumberReplacer",
    "core/ReplaceBinaryOperator_Add_Sub",
    "core/ReplaceBinaryOperator_Sub_Add",
    "core/ZeroIterationForLoop",
    "core/ReplaceBreakWithContinue",
    "core/ReplaceContinueWithBreak",
)

# Statements whose removal changes only what the recorder counts, never the game.
_NOT_REMOVED = ("cite(", "cite_alternative(", "cite_edge(", "pass", '"""', "'''", "return", "raise")


class RemoveStatement(Operator):
    """A statement at the rule site removed (replaced by `pass`)."""

    def mutation_positions(self, node: object) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if isinstance(node, pt.PythonNode) and node.type == "simple_stmt":
            code = node.get_code(include_prefix=False).strip()
            if not code.startswith(_NOT_REMOVED) and ";" not in code:
                yield (node.start_pos, node.end_pos)

    def mutate(self, node: pt.PythonNode, index: int) -> pt.PythonNode:
        replacement = parso.parse("pass\n").children[0]
        replacement.get_first_leaf().prefix = node.get_first_leaf().prefix
        return replacement

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x = 1\n", "pass\n"),)


class OtherPlayer(Operator):
    """The wrong player: a read of `who` becomes the next seat (`rotation`, an expression over `who`;
    default the two-player `(1 - who)`). Only where every other name the expression needs is used
    in the enclosing function too (so the mutant is a wrong seat, not a NameError)."""

    def __init__(self, rotation: str = "(1 - who)") -> None:
        super().__init__()
        self.rotation = rotation                   # "": the game names no other seat (no positions)
        self.needs = {n.id for n in ast.walk(parse_python(rotation or "who", mode="eval"))
                      if isinstance(n, ast.Name) and n.id != "who"}

    def _in_scope(self, node: pt.Name) -> bool:
        if not self.needs:
            return True
        scope = node.search_ancestor("funcdef") or node.get_root_node()
        used = {leaf.value for leaf in _names(scope)}
        return self.needs <= used

    def mutation_positions(self, node: object) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if self.rotation and isinstance(node, pt.Name) and node.value == "who" and not node.is_definition() \
                and node.parent is not None and node.parent.type != "param" and self._in_scope(node):
            yield (node.start_pos, node.end_pos)

    def mutate(self, node: pt.Name, index: int) -> pt.Name:
        node.value = self.rotation
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("f(who)", "f((1 - who))"),)


def _names(node: object) -> Iterator[pt.Name]:
    children = getattr(node, "children", None)
    if children is None:
        if isinstance(node, pt.Name):
            yield node
        return
    for child in children:
        yield from _names(child)


class OtherPile(Operator):
    """The wrong pile: an attribute naming one pile of a pair reads the other (`pairs`; default
    Duel's bag and Tower, where discarded tiles go)."""

    def __init__(self, pairs: tuple[tuple[str, str], ...] = (("tower", "bag"),)) -> None:
        super().__init__()
        self.swap = {a: b for pair in pairs for a, b in (pair, pair[::-1])}

    def mutation_positions(self, node: object) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if isinstance(node, pt.Name) and node.value in self.swap and not node.is_definition():
            prev = node.get_previous_leaf()
            if prev is not None and prev.value == ".":
                yield (node.start_pos, node.end_pos)

    def mutate(self, node: pt.Name, index: int) -> pt.Name:
        node.value = self.swap[node.value]
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("s.tower[c] += 1", "s.bag[c] += 1"),)


OWN_OPERATORS: dict[str, type[Operator]] = {
    "azul/RemoveStatement": RemoveStatement,
    "azul/OtherPlayer": OtherPlayer,
    "azul/OtherPile": OtherPile,
}

OPERATOR_NAMES: tuple[str, ...] = COSMIC_RAY_OPERATORS + tuple(OWN_OPERATORS)


def game_of_file(file: str) -> str:
    """The game whose model a file belongs to (model/<game>/...), or the default game (shared file)."""
    parts = PurePosixPath(file).parts
    return parts[1] if len(parts) > 2 and parts[1] in game_names() else DEFAULT_GAME


@functools.cache
def operator(name: str, game: str = DEFAULT_GAME) -> Operator:
    """An operator instance by name (cosmic-ray's `core/...` or ours `azul/...`), for `game`'s files
    (the wrong player and the wrong pile as its registry entry writes them)."""
    if name == "azul/OtherPlayer":
        return OtherPlayer(get_game(game).mutation_other_seat)
    if name == "azul/OtherPile":
        return OtherPile(get_game(game).mutation_piles)
    if name in OWN_OPERATORS:
        return OWN_OPERATORS[name]()
    return get_operator(name)()
