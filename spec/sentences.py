"""Split a source document into sections and sentences with stable locators and fingerprints.

A locator is `section/sN`: the section's slug (from its heading) and the sentence's number within
the section, counting from 1 over the section's paragraphs, list items and table rows in order.
A fingerprint is the first 8 hex digits of the sha256 of the sentence, case-folded and with its
whitespace collapsed. The project stores locators and fingerprints, never the sentences.

How a document is cut into sections depends on its layout (`sections` in spec/documents.toml):
- `toc`: the document lists its headings in a table of contents; a heading is a line that equals
  an entry of that list, unless the next line is another entry (then it is an item of a list of
  entries, like the rulebook's list of the four actions). Every entry must be found exactly once.
- `bare-lines`: a heading is a line holding one short sentence that does not end with `.`, `:`,
  `;` or `!` (a question mark is allowed). Text before the first heading is `introduction`.
- `web-page`: a web page rendered as text (the classic Azul guide): headings as in `bare-lines`
  (up to 12 words), except that a table row (`| a | b |`) is never a heading; a row is one unit
  without its outer bars, a table's rule row (`|---|`) is dropped, and a question's `Q. ` marker
  is dropped from its line.
- `page-references`: every paragraph ends by citing a page, `(Seite N)` or `(Seiten N und M)`;
  the section is that citation, and paragraphs citing the same pages share one section.
Text before the first section (a title, a table of contents) falls in the section `front-matter`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import attrs

LAYOUTS: tuple[str, ...] = ("toc", "bare-lines", "page-references", "web-page")
LOCATOR_PATTERN = re.compile(r"^(?P<section>[a-z0-9]+(?:-[a-z0-9]+)*)/s(?P<number>[1-9][0-9]*)$")
SECTION_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FINGERPRINT_PATTERN = re.compile(r"^[0-9a-f]{8}$")
FRONT_MATTER = "front-matter"
INTRODUCTION = "introduction"
_UNHEADED_TITLES = {FRONT_MATTER: "front matter (before the first heading)",
                    INTRODUCTION: "introduction (before the first heading)"}

_LIST_MARKER = re.compile(r"^(?:[•\-*]|\d+\.)\s+")
_TABLE_ROW = re.compile(r"^\|.*\|$")
_TABLE_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+$")
_QUESTION_MARKER = re.compile(r"^Q\.\s+")
_PAGE_CITATION = re.compile(r"\((Seiten? [0-9]+(?: und [0-9]+)?)\)\.?\s*$")
# A sentence ends at . ! or ? (with any closing quotes or brackets) followed by a space and a
# capital, a digit, an opening bracket or a quote.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'’”)\]]*\s+(?=[A-ZÄÖÜ0-9(\"'“‘])")


class SplitError(ValueError):
    """The document does not have the layout it is declared to have."""


@attrs.frozen
class Sentence:
    doc: str
    section: str
    number: int
    text: str
    line: int

    @property
    def at(self) -> str:
        return f"{self.section}/s{self.number}"

    @property
    def locator(self) -> str:
        return f"{self.doc}:{self.at}"

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.text)


@attrs.frozen
class Section:
    slug: str
    title: str
    line: int
    sentences: tuple[Sentence, ...]


@attrs.frozen
class SplitDocument:
    doc: str
    sections: tuple[Section, ...]

    def section(self, slug: str) -> Section | None:
        return next((s for s in self.sections if s.slug == slug), None)

    def sentence(self, at: str) -> Sentence | None:
        m = LOCATOR_PATTERN.match(at)
        if not m:
            return None
        section = self.section(m["section"])
        n = int(m["number"])
        if section is None or n > len(section.sentences):
            return None
        return section.sentences[n - 1]

    @property
    def sentences(self) -> tuple[Sentence, ...]:
        return tuple(s for sec in self.sections for s in sec.sentences)


def normalise(text: str) -> str:
    """What a fingerprint hashes: NFC, case-folded, whitespace collapsed, list marker dropped."""
    text = _LIST_MARKER.sub("", unicodedata.normalize("NFC", text).strip())
    return " ".join(text.casefold().split())


def fingerprint(text: str) -> str:
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:8]


def slugify(heading: str) -> str:
    """`Phase 1: Acquisition` -> `phase-1-acquisition` (German umlauts spelled out)."""
    text = heading.casefold()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(a, b)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def split_sentences(unit: str) -> list[str]:
    """The sentences of one paragraph, list item or table row (its list marker dropped)."""
    unit = _LIST_MARKER.sub("", unit.strip())
    return [s.strip() for s in _SENTENCE_END.split(unit) if s.strip()]


def _lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers; every such line is a paragraph or list item."""
    return [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


def _toc_headings(lines: list[tuple[int, str]]) -> tuple[set[int], list[str]]:
    """Indexes (into `lines`) of heading lines for a document with a table of contents."""
    try:
        toc_at = next(i for i, (_, line) in enumerate(lines) if line.strip() == "Table of Contents")
    except StopIteration:
        raise SplitError("no 'Table of Contents' line") from None
    entries: list[str] = []
    i = toc_at + 1
    while i < len(lines) and lines[i][1].strip() == "Table of Contents":
        i += 1
    while i < len(lines) and lines[i][1].lstrip().startswith("•"):
        entries.append(_LIST_MARKER.sub("", lines[i][1].strip()))
        i += 1
    if not entries:
        raise SplitError("the table of contents lists no entries")
    body_start = i
    wanted = set(entries)
    heads: set[int] = set()
    for k in range(body_start, len(lines)):
        text = lines[k][1]
        if text != text.strip() or text not in wanted:
            continue
        following = lines[k + 1][1] if k + 1 < len(lines) else ""
        if following in wanted:
            continue  # an item of a list of entries, not a heading
        heads.add(k)
    found = [lines[k][1] for k in sorted(heads)]
    if found != entries:
        missing = [e for e in entries if found.count(e) != 1]
        raise SplitError(f"headings do not match the table of contents (check: {', '.join(missing) or 'order'})")
    return heads, entries


def _is_bare_heading(line: str, max_words: int = 10) -> bool:
    text = line.strip()
    return (
        line == text and not _LIST_MARKER.match(text) and len(split_sentences(text)) == 1
        and len(text.split()) <= max_words and text[-1] not in ".:;!"
    )


def _web_page_lines(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], set[int]]:
    """The `web-page` layout: rule rows dropped, headings found, table bars and `Q. ` dropped."""
    kept = [(n, line) for n, line in lines if not _TABLE_RULE.match(line.strip())]
    heads = {k for k, (_, line) in enumerate(kept)
             if not _TABLE_ROW.match(line.strip()) and _is_bare_heading(line, max_words=12)}
    units: list[tuple[int, str]] = []
    for k, (n, line) in enumerate(kept):
        text = line.strip()
        if k not in heads:
            text = text[1:-1].strip() if _TABLE_ROW.match(text) else _QUESTION_MARKER.sub("", text)
        units.append((n, text if k not in heads else line))
    return units, heads


def _sections_by_headings(doc: str, lines: list[tuple[int, str]], heads: set[int], first: str) -> list[Section]:
    sections: list[Section] = []
    slug, title, start = first, _UNHEADED_TITLES[first], lines[0][0] if lines else 1
    units: list[tuple[int, str]] = []
    seen: set[str] = set()

    def close() -> None:
        if slug in seen:
            raise SplitError(f"two sections share the slug {slug!r}")
        seen.add(slug)
        if units or sections or slug != first:
            sections.append(_make_section(doc, slug, title, start, units))

    for k, (n, text) in enumerate(lines):
        if k in heads:
            close()
            slug, title, start, units = slugify(text), text.strip(), n, []
        else:
            units.append((n, text))
    close()
    return sections


def _make_section(doc: str, slug: str, title: str, line: int, units: Iterable[tuple[int, str]]) -> Section:
    sentences: list[Sentence] = []
    for n, unit in units:
        for text in split_sentences(unit):
            sentences.append(Sentence(doc=doc, section=slug, number=len(sentences) + 1, text=text, line=n))
    return Section(slug=slug, title=title, line=line, sentences=tuple(sentences))


def _page_sections(doc: str, lines: list[tuple[int, str]]) -> list[Section]:
    groups: dict[str, tuple[str, int, list[tuple[int, str]]]] = {}
    front: list[tuple[int, str]] = []
    for n, text in lines:
        m = _PAGE_CITATION.search(text)
        if m is None:
            if groups:
                raise SplitError(f"line {n}: a paragraph without a page citation '(Seite N)'")
            front.append((n, text))
            continue
        slug = slugify(m[1])
        groups.setdefault(slug, (m[1], n, []))[2].append((n, text))
    if not groups:
        raise SplitError("no paragraph cites a page '(Seite N)'")
    sections = [_make_section(doc, FRONT_MATTER, _UNHEADED_TITLES[FRONT_MATTER], front[0][0], front)] if front else []
    sections += [_make_section(doc, slug, title, line, units) for slug, (title, line, units) in groups.items()]
    return sections


def split_document(doc: str, text: str, layout: str) -> SplitDocument:
    """Cut `text` into sections and sentences according to its `layout` (see the module doc)."""
    lines = _lines(text)
    if layout == "toc":
        heads, _ = _toc_headings(lines)
        sections = _sections_by_headings(doc, lines, heads, FRONT_MATTER)
    elif layout == "bare-lines":
        heads = {k for k, (_, line) in enumerate(lines) if _is_bare_heading(line)}
        sections = _sections_by_headings(doc, lines, heads, INTRODUCTION)
    elif layout == "web-page":
        units, heads = _web_page_lines(lines)
        sections = _sections_by_headings(doc, units, heads, INTRODUCTION)
    elif layout == "page-references":
        sections = _page_sections(doc, lines)
    else:
        raise SplitError(f"unknown layout {layout!r} (known: {', '.join(LAYOUTS)})")
    return SplitDocument(doc=doc, sections=tuple(sections))


def split_file(doc: str, path: Path, layout: str) -> SplitDocument:
    return split_document(doc, path.read_text(encoding="utf-8"), layout)
