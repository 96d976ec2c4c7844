"""Reasons of two Duel interpretation points after the blind Duel audit (/work/audit-duel, F3, F4).

F3: duel.refill.monochrome-unavoidable gained restock-from-tower (behaviour: tests/test_monochrome_tower.py);
its default stays accept, and the reason says why with the rulebook's Preparation locators.
F4: duel.tiling.unplaceable-scope keeps any-line; its reason must say that the guide and the German
summary speak of complete lines only (they lean to complete-only) and why the rulebook's reading is
kept, each with a locator."""

from __future__ import annotations

from spec.loader import load_catalogue


def test_unplaceable_scope_reason_weighs_the_secondary_documents() -> None:
    point = load_catalogue().interpretation("duel.tiling.unplaceable-scope")
    assert point.default == "any-line"
    for locator in ("tile-and-score-your-dome/s5", "seite-7/s1",        # guide, summary-de: complete lines
                    "phase-2-dome-tiling-scoring/s8"):                  # rulebook: no 'complete'
        assert locator in point.reason, locator
    assert "complete-only" in point.reason
    assert "guide" in point.reason and "German summary" in point.reason


def test_monochrome_unavoidable_keeps_accept_and_says_why() -> None:
    point = load_catalogue().interpretation("duel.refill.monochrome-unavoidable")
    assert point.names == ("accept", "leave-empty", "restock-from-tower")
    assert point.default == "accept"
    assert "restock-from-tower" in point.reason
    for locator in ("phase-3-preparation/s5", "phase-3-preparation/s6"):
        assert locator in point.reason, locator
        assert locator in point.alternatives[2].support, locator
