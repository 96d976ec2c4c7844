"""Headless Chromium for the report's checks and for PNG pictures (no Python browser bindings needed)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1")


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class BrowserMissing(RuntimeError):
    """No Chromium on PATH."""


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    browser = chromium()
    if browser is None:
        raise BrowserMissing("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="azul-chromium-") as profile:
        return subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout)


def dump_dom(page: Path, width: int = 1280, height: int = 800, timeout: float = 120) -> str:
    """The page's DOM after its scripts ran."""
    return _run([f"--window-size={width},{height}", "--virtual-time-budget=3000", "--dump-dom",
                 page.resolve().as_uri()], timeout).stdout


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 800, timeout: float = 120) -> Path:
    """A PNG of the page's first `width` x `height` pixels."""
    png.parent.mkdir(parents=True, exist_ok=True)
    run = _run([f"--window-size={width},{height}", "--virtual-time-budget=3000",
                f"--screenshot={png.resolve()}", page.resolve().as_uri()], timeout)
    if not png.exists():
        raise RuntimeError(f"chromium wrote no screenshot: {run.stderr.strip()[-300:]}")
    return png
