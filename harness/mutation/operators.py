"""The rule bugs we plant: cosmic-ray's mutation operators (the field's standard library of them)
chosen for the bugs real game engines have, plus three of our own in cosmic-ray's operator model.

- a comparison or bound off by one: `<` <-> `<=`, `>` <-> `>=`; a condition reversed: `==` <-> `!=`,
  `is` <-> `is not`, `not` added to an `if`; `and` <-> `or`; `True` <-> `False`
- a wrong constant in a table: every number +1 and -1; `+` <-> `-`
- a loop that never runs; `break` <-> `continue`
- a statement at the rule site removed (ours: RemoveStatement)
- the wrong player (ours: OtherPlayer, `who` -> `1 - who`)
- the wrong pile (ours: OtherPile, the bag and the Tower swapped)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import parso
import parso.python.tree as pt
from cosmic_ray.operators.operator import Example, Operator
from cosmic_ray.plugins import get_operator

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
    """The wrong player: a read of `who` becomes `1 - who` (two-player games)."""

    def mutation_positions(self, node: object) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if isinstance(node, pt.Name) and node.value == "who" and not node.is_definition() \
                and node.parent is not None and node.parent.type != "param":
            yield (node.start_pos, node.end_pos)

    def mutate(self, node: pt.Name, index: int) -> pt.Name:
        node.value = "(1 - who)"
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("f(who)", "f((1 - who))"),)


class OtherPile(Operator):
    """The wrong pile: the bag and the Tower (where discarded tiles go) swapped."""

    SWAP = {"tower": "bag", "bag": "tower"}

    def mutation_positions(self, node: object) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if isinstance(node, pt.Name) and node.value in self.SWAP and not node.is_definition():
            prev = node.get_previous_leaf()
            if prev is not None and prev.value == ".":
                yield (node.start_pos, node.end_pos)

    def mutate(self, node: pt.Name, index: int) -> pt.Name:
        node.value = self.SWAP[node.value]
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


@functools.cache
def operator(name: str) -> Operator:
    """An operator instance by name (cosmic-ray's `core/...` or ours `azul/...`)."""
    if name in OWN_OPERATORS:
        return OWN_OPERATORS[name]()
    return get_operator(name)()
