"""Findings of the blind audit of classic Azul (issue 12).

F1: whether the starting player marker or the same centre pick's floor tiles go down first is the
interpretation point azul.offer.marker-floor-order; both readings run. F3: a mistyped name in the
action notation gets a "did you mean"."""

from __future__ import annotations

import pytest

from model.azul import NotationError, parse_action


@pytest.mark.parametrize(("text", "message"), [
    ("take F1 rde line 1", "'take F1 rde line 1': unknown colour 'rde' (did you mean 'red'?) (colours: blue, "),
    ("take C blakc floor", "unknown colour 'blakc' (did you mean 'black'?)"),
    ("take F2 red flor", "destination 'flor' (did you mean 'floor'?) is not 'line 1'-'line 5'"),
    ("tak F1 red line 1", "'tak F1 red line 1' is not an action (did you mean 'take'?) (e.g. "),
    ("wal r2 c4", "is not an action (did you mean 'wall'?)"),
])
def test_a_mistyped_name_in_the_notation_gets_a_did_you_mean(text: str, message: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_action(text)
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("text", ["take F1 pink line 1", "jump", "take F1 red wherever"])
def test_a_name_close_to_nothing_gets_no_suggestion(text: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_action(text)
    assert "did you mean" not in str(exc.value)
