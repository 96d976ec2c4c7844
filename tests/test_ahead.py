"""harness.ahead: work started ahead of the stage that shows it."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from harness.ahead import Ahead


class _DoneJustAfterTheWait(Future):  # type: ignore[type-arg]
    """The work ends between the timed wait giving up and the check that follows it."""

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        super().__init__()
        self._value, self._error, self._waited = value, error, False

    def result(self, timeout: float | None = None) -> Any:
        if not self._waited:
            self._waited = True
            if self._error is not None:
                self.set_exception(self._error)
            else:
                self.set_result(self._value)
            raise TimeoutError
        return super().result(timeout)


def _ahead(future: Future) -> Ahead[Any]:  # type: ignore[type-arg]
    work: Ahead[Any] = Ahead(lambda progress: None, start=False)
    work._future = future
    return work


def test_work_that_ends_just_after_a_wait_gave_up_is_its_value_not_a_timeout() -> None:
    """Review finding: the poll's TimeoutError was re-raised when the work had just finished."""
    assert _ahead(_DoneJustAfterTheWait(value=42)).result() == 42


def test_the_works_own_timeout_still_reaches_the_stage() -> None:
    with pytest.raises(TimeoutError, match="its own"):
        _ahead(_DoneJustAfterTheWait(error=TimeoutError("its own"))).result()


def test_started_work_reports_progress_and_its_result() -> None:
    def compute(progress: Any) -> str:
        progress(3)
        return "done"

    work = Ahead(compute, start=True)
    assert work.result() == "done" and work.done == 3
