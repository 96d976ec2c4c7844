"""What CI asks of the main job: JUnit XML of the tests and scenarios (`make verify JUNIT=DIR`,
i.e. $AZUL_JUNIT_DIR), for the workflow to publish."""

from __future__ import annotations

import os
from pathlib import Path

JUNIT_ENV = "AZUL_JUNIT_DIR"


def junit_args(env: dict[str, str] | None = None) -> list[str]:
    """pytest arguments writing DIR/tests.xml when $AZUL_JUNIT_DIR names a folder; none otherwise.
    Scenario files are pytest items too, so the file holds the scenarios as well (classname
    `fixtures.duel....`)."""
    folder = (os.environ if env is None else env).get(JUNIT_ENV, "").strip()
    if not folder:
        return []
    path = Path(folder).resolve() / "tests.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return [f"--junitxml={path}", "-o", "junit_family=xunit2"]
