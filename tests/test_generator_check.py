"""The deep check's shares (properties/generator_check.py): a generated action the predicate refuses,
and an unsorted list, are reported at every deep check; a candidate the predicate accepts but the
generator misses is reported within SHARES consecutive deep checks, whichever candidate it is."""

from __future__ import annotations

import pytest

from properties.generator_check import SHARES, disagreement


class Position:
    """A stand-in game: `legal` generated, `accepted` what the predicate lets through."""

    def __init__(self, legal: list[int], accepted: set[int]) -> None:
        self.legal, self.accepted = legal, accepted

    def legal_actions(self) -> list[int]:
        return list(self.legal)

    def why_illegal(self, action: int) -> tuple[str, str] | None:
        return None if action in self.accepted else ("clause", "refused")


CANDIDATES = list(range(40))


@pytest.mark.parametrize("missed", [0, 1, 2, 3, 17, 39])
def test_a_missed_legal_action_is_reported_within_shares_deep_checks(missed: int) -> None:
    game = Position([5, 9], {5, 9, missed})
    reported = [n for n in range(SHARES) if disagreement(game, CANDIDATES, n) is not None]
    assert len(reported) == 1
    problem = disagreement(game, CANDIDATES, reported[0])
    assert problem is not None and f"predicate-only ['{missed}']" in problem


def test_a_refused_generated_action_and_an_unsorted_list_are_reported_at_every_deep_check() -> None:
    refused = Position([5, 9], {5})
    unsorted = Position([9, 5], {5, 9})
    for n in range(SHARES):
        assert "generated-only ['9']" in (disagreement(refused, CANDIDATES, n) or "")
        assert "not sorted" in (disagreement(unsorted, CANDIDATES, n) or "")
        assert disagreement(Position([5, 9], {5, 9}), CANDIDATES, n) is None
