"""Line numbers for dotted field paths in a TOML text (tomllib reports none).

A path is table and key names with optional array indices: `given.p1.dome`, `clauses[3]`,
`when[2].then.p1`. An index finds the line where that element of the array starts, so an error in
the fourth entry of a multi-line list points at the fourth entry, not at the list's first line.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$")
_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _tokens(path: str) -> list[str | int]:
    out: list[str | int] = []
    for name, index in _TOKEN.findall(path):
        out.append(int(index) if index else name)
    return out


class Locator:
    """Finds the line of a field path; `None` when the path is not written in the file."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines()
        # offset of each line's first character in `text`
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def _line_of_offset(self, offset: int) -> int:
        lo, hi = 0, len(self.lines) - 1
        while lo < hi:                                   # bisect: the last line starting <= offset
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _key_line(self, key: str, start: int) -> int | None:
        pat = re.compile(r'(^|[{,\s])"?' + re.escape(key) + r'"?\s*=')
        for n in range(start, len(self.lines)):
            if n > start and _HEADER.match(self.lines[n]):
                return None                              # the key is not in this table
            if pat.search(self.lines[n]):
                return n
        return None

    def line(self, path: str) -> int | None:
        tokens = _tokens(path)
        names: list[str] = []
        for t in tokens:
            if not isinstance(t, str):
                break
            names.append(t.strip('"'))
        if not names:
            return None
        # the deepest [table] header that is a prefix of the leading names
        start, depth = 0, 0
        for n, text in enumerate(self.lines):
            m = _HEADER.match(text)
            if m:
                header = [h.strip().strip('"') for h in m[1].split(".")]
                if header == names[:len(header)] and len(header) >= depth:
                    start, depth = n, len(header)
        rest = tokens[depth:]
        if not rest:
            return start + 1 if depth else None
        found = start + 1 if depth else None
        n = start if depth else 0
        i = 0
        while i < len(rest):
            t = rest[i]
            if isinstance(t, str):
                key_line = self._key_line(t, n)
                if key_line is None:
                    return found
                n, found = key_line, key_line + 1
                index = rest[i + 1] if i + 1 < len(rest) else None
                if isinstance(index, int):
                    offset = self._element_offset(key_line, t, index)
                    if offset is None:
                        return found
                    n = self._line_of_offset(offset)
                    found = n + 1
                    i += 1
            i += 1
        return found

    def _element_offset(self, key_line: int, key: str, index: int) -> int | None:
        """Offset of the `index`-th element of the array assigned to `key` on line `key_line`."""
        text = self.text
        m = re.compile(r'"?' + re.escape(key) + r'"?\s*=\s*').search(self.lines[key_line])
        if m is None:
            return None
        pos = self.starts[key_line] + m.end()
        if pos >= len(text) or text[pos] != "[":
            return None
        depth, count, expect = 0, -1, True
        end = len(text)
        while pos < end:
            ch = text[pos]
            if ch == "#":
                nl = text.find("\n", pos)
                pos = end if nl < 0 else nl
                continue
            if ch in " \t\r\n":
                pos += 1
                continue
            if depth == 1 and expect and ch != "]":
                count += 1
                if count == index:
                    return pos
                expect = False
            if ch in "\"'":
                pos = self._skip_string(pos)
                continue
            if ch in "[{":
                depth += 1
                if depth == 1:
                    expect = True
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return None
            elif ch == "," and depth == 1:
                expect = True
            pos += 1
        return None

    def _skip_string(self, pos: int) -> int:
        text = self.text
        quote = text[pos]
        if text.startswith(quote * 3, pos):
            close = text.find(quote * 3, pos + 3)
            while quote == '"' and close > 0 and text[close - 1] == "\\":
                close = text.find(quote * 3, close + 1)
            return len(text) if close < 0 else close + 3
        pos += 1
        while pos < len(text) and text[pos] not in (quote, "\n"):
            pos += 2 if quote == '"' and text[pos] == "\\" else 1
        return pos + 1
