"""Load and validate a clause catalogue strictly: every problem names file, line, clause, field.

Validation collects every problem (for `spec lint`); `load_catalogue` refuses to return anything
when there is at least one, so nothing is ever half-loaded.

The spec root holds `documents.toml` (every document any catalogue cites) and one folder per game.
A game's folder has a `catalogue.toml` naming the game, its title, the id prefix of its clauses,
the documents it cites and (optionally) its component data and that data's schema; the chapter
files `NN-name.toml` and `trace-exclusions.toml` sit beside it. Nothing game-specific is chosen
here: `load_catalogue(game="azul")` finds the folder whose catalogue.toml says `game = "azul"`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from spec.catalogue import (
    CLAUSE_KINDS,
    Alternative,
    Catalogue,
    Chapter,
    Clause,
    Components,
    Document,
    DocumentSection,
    Exclusion,
    Interpretation,
    Source,
)
from spec.errors import SpecError
from spec.sentences import FINGERPRINT_PATTERN, LAYOUTS, LOCATOR_PATTERN, SECTION_PATTERN

SPEC_ROOT = Path(__file__).resolve().parent
ID_PATTERN = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")

CLAUSE_FIELDS = {
    "id": str, "revision": int, "title": str, "kind": str, "text": str, "sources": list,
    "interpretations": list, "assumption": str, "note": str,
}
CLAUSE_REQUIRED = ("id", "revision", "title", "kind", "text", "sources")
INTERP_FIELDS = {"id": str, "question": str, "reason": str, "alternatives": list}
ALT_FIELDS = {"name": str, "description": str, "support": str, "default": bool}
SOURCE_FIELDS = {"doc": str, "at": str, "fp": str, "where": str}
DOC_FIELDS = {"id": str, "title": str, "file": str, "locator": str, "primary": bool, "layout": str,
              "sections": list}
DOC_SECTION_FIELDS = {"id": str, "title": str, "sentences": int}
EXCLUSION_FIELDS = {"doc": str, "at": str, "fp": str, "reason": str}
EXCLUSIONS_FILE = "trace-exclusions.toml"
CATALOGUE_FILE = "catalogue.toml"
CATALOGUE_FIELDS = {"game": str, "title": str, "id_prefix": str, "documents": list, "components": str,
                    "component_schema": str}
CATALOGUE_REQUIRED = ("game", "title", "id_prefix", "documents")
PREFIX_PATTERN = re.compile(r"^[a-z][a-z0-9-]*\.$")
DEFAULT_GAME = "duel"
TABLET_SIDES_KNOWN = (
    "rows-complete", "colourful-rows", "columns-complete", "outer-spaces", "diagonals",
    "corner-plates", "wild-spaces", "empty-special-spaces",
)
# The rulebook's Special tile supply (duel.component.tiles); every Special plate needs one.
SPECIAL_TILES = 9


class _FileText:
    """Finds line numbers for ids and fields in a TOML file's text (tomllib gives none)."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of_id(self, value: str) -> int | None:
        pat = re.compile(r'^\s*id\s*=\s*"' + re.escape(value) + '"')
        for n, line in enumerate(self.lines, 1):
            if pat.match(line):
                return n
        return None

    def line_of_field(self, start: int | None, field: str) -> int | None:
        """First line at or after `start` (within the same [[clause]] block) setting `field`."""
        if start is None:
            return None
        pat = re.compile(r"^\s*(\{\s*)?" + re.escape(field) + r"\s*=")
        for n in range(start, len(self.lines) + 1):
            line = self.lines[n - 1]
            if n > start and line.strip() == "[[clause]]":
                break
            if pat.match(line) or re.search(r"[{,]\s*" + re.escape(field) + r"\s*=", line):
                return n
        return start

    def line_of_nth(self, start: int | None, field: str, k: int) -> int | None:
        """The line of the k-th (0-based) `{ field = ...` entry at or after `start`, same block."""
        if start is None:
            return None
        pat = re.compile(r"(^|[{,])\s*" + re.escape(field) + r"\s*=")
        seen = 0
        for n in range(start, len(self.lines) + 1):
            line = self.lines[n - 1]
            if n > start and line.strip() == "[[clause]]":
                break
            if pat.search(line):
                if seen == k:
                    return n
                seen += 1
        return start


def _read_toml(path: Path, problems: list[SpecError]) -> tuple[dict[str, Any], _FileText] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.append(SpecError(str(path), f"cannot read file: {exc.strerror}"))
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        problems.append(SpecError(str(path), f"malformed TOML: {exc}", line=int(m[1]) if m else None))
        return None
    return data, _FileText(path, text)


def _check_table(
    table: Any, fields: Mapping[str, type], required: tuple[str, ...], *, file: str, clause: str | None,
    prefix: str, line: int | None, problems: list[SpecError],
) -> bool:
    if not isinstance(table, dict):
        problems.append(SpecError(file, "expected a table", clause=clause, field=prefix, line=line))
        return False
    ok = True
    for key in sorted(table):
        if key not in fields:
            problems.append(SpecError(file, f"unknown field (allowed: {', '.join(sorted(fields))})",
                                      clause=clause, field=prefix + key, line=line))
            ok = False
        elif not isinstance(table[key], fields[key]) or (fields[key] is int and isinstance(table[key], bool)):
            problems.append(SpecError(file, f"must be of type {fields[key].__name__}",
                                      clause=clause, field=prefix + key, line=line))
            ok = False
        elif fields[key] is str and not table[key].strip():
            problems.append(SpecError(file, "must not be empty", clause=clause, field=prefix + key, line=line))
            ok = False
    for key in required:
        if key not in table:
            problems.append(SpecError(file, "required field is missing", clause=clause,
                                      field=prefix + key, line=line))
            ok = False
    return ok


def _load_documents(root: Path, problems: list[SpecError]) -> tuple[Document, ...]:
    read = _read_toml(root / "documents.toml", problems)
    if read is None:
        return ()
    data, ft = read
    docs: list[Document] = []
    file = str(root / "documents.toml")
    for n, d in enumerate(data.get("document", [])):
        line = ft.line_of_id(d.get("id", "")) if isinstance(d, dict) else None
        prefix = f"document[{n}]."
        if not _check_table(d, DOC_FIELDS, ("id", "title", "file", "locator"), file=file, clause=None,
                            prefix=prefix, line=line, problems=problems):
            continue
        sections = _document_sections(d, file=file, prefix=prefix, line=line, problems=problems)
        if sections is not None:
            docs.append(Document(**{**d, "sections": sections}))
    if len({d.id for d in docs}) != len(docs):
        problems.append(SpecError(file, "duplicate document id"))
    return tuple(docs)


def _document_sections(
    d: dict[str, Any], *, file: str, prefix: str, line: int | None, problems: list[SpecError],
) -> tuple[DocumentSection, ...] | None:
    """A sentence-traced document names its layout and lists its sections with sentence counts."""
    if d["locator"] != "sentence":
        for key in ("layout", "sections"):
            if key in d:
                problems.append(SpecError(file, "only documents with locator = \"sentence\" have this",
                                          field=prefix + key, line=line))
                return None
        return ()
    ok = True
    if d.get("layout") not in LAYOUTS:
        problems.append(SpecError(file, f"a sentence-traced document needs a layout (one of: {', '.join(LAYOUTS)})",
                                  field=prefix + "layout", line=line))
        ok = False
    sections: list[DocumentSection] = []
    for k, s in enumerate(d.get("sections", [])):
        sp = f"{prefix}sections[{k}]."
        if not _check_table(s, DOC_SECTION_FIELDS, ("id", "title", "sentences"), file=file, clause=None,
                            prefix=sp, line=line, problems=problems):
            ok = False
            continue
        if not SECTION_PATTERN.match(s["id"]) or s["sentences"] < 0:
            problems.append(SpecError(file, "a section id is a lower-case slug and its sentence count >= 0",
                                      field=sp + "id", line=line))
            ok = False
        sections.append(DocumentSection(**s))
    if not sections:
        problems.append(SpecError(file, "a sentence-traced document lists its sections",
                                  field=prefix + "sections", line=line))
        ok = False
    if len({s.id for s in sections}) != len(sections):
        problems.append(SpecError(file, "duplicate section id", field=prefix + "sections", line=line))
        ok = False
    return tuple(sections) if ok else None


def _check_locator(
    doc: Document, at: str, *, whole_section: bool, file: str, clause: str | None, field: str,
    line: int | None, problems: list[SpecError],
) -> bool:
    """`at` names an existing section (and, unless `whole_section`, a sentence number within it)."""
    if whole_section and "/" not in at:
        slug, number = at, None
    else:
        m = LOCATOR_PATTERN.match(at)
        if not m:
            problems.append(SpecError(file, f"malformed sentence locator {at!r} (expected section/sN, "
                                      "e.g. 'phase-1-acquisition/s4')", clause=clause, field=field, line=line))
            return False
        slug, number = m["section"], int(m["number"])
    section = doc.section(slug)
    if section is None:
        problems.append(SpecError(file, f"{doc.id} has no section {slug!r} (its sections: spec/documents.toml)",
                                  clause=clause, field=field, line=line))
        return False
    if number is not None and number > section.sentences:
        problems.append(SpecError(file, f"{doc.id} section {slug!r} has {section.sentences} sentences, "
                                  f"not {number}", clause=clause, field=field, line=line))
        return False
    return True


def _load_source(
    s: Any, k: int, *, docs: dict[str, Document], file: str, clause: str, line: int | None,
    problems: list[SpecError],
) -> Source | None:
    prefix = f"sources[{k}]."
    if not _check_table(s, SOURCE_FIELDS, ("doc",), file=file, clause=clause, prefix=prefix, line=line,
                        problems=problems):
        return None
    doc = docs.get(s["doc"])
    if doc is None:
        problems.append(SpecError(file, f"unknown document {s['doc']!r} (known: {', '.join(sorted(docs))})",
                                  clause=clause, field=prefix + "doc", line=line))
        return None
    if not doc.by_sentence:
        if "where" not in s or "at" in s or "fp" in s:
            problems.append(SpecError(file, f"{doc.id} is cited by a 'where' text (a {doc.locator}), "
                                      "not by 'at'/'fp'", clause=clause, field=prefix + "where", line=line))
            return None
        return Source(doc=doc.id, place=s["where"])
    if "where" in s or "at" not in s or "fp" not in s:
        problems.append(SpecError(file, f"{doc.id} is cited sentence by sentence: "
                                  "{ doc, at = \"section/sN\", fp = \"8 hex\" } (no 'where'; "
                                  "'azul-rules spec sentences' lists them)", clause=clause,
                                  field=prefix + ("where" if "where" in s else "at"), line=line))
        return None
    if not FINGERPRINT_PATTERN.match(s["fp"]):
        problems.append(SpecError(file, f"malformed fingerprint {s['fp']!r} (8 lower-case hex digits)",
                                  clause=clause, field=prefix + "fp", line=line))
        return None
    if not _check_locator(doc, s["at"], whole_section=False, file=file, clause=clause, field=prefix + "at",
                          line=line, problems=problems):
        return None
    return Source(doc=doc.id, at=s["at"], fp=s["fp"])


PROSE_LOCATOR = re.compile(r"\b([a-z0-9]+(?:-[a-z0-9]+)*)/s([1-9][0-9]*)(?:-s([1-9][0-9]*))?\b")


def _prose_fields(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """The free texts of a clause that may mention sentence locators, with their field names."""
    out = [(f, raw[f]) for f in ("note", "assumption", "text") if isinstance(raw.get(f), str)]
    for k, i in enumerate(raw.get("interpretations", [])):
        if not isinstance(i, dict):
            continue
        for f in ("question", "reason"):
            if isinstance(i.get(f), str):
                out.append((f"interpretations[{k}].{f}", i[f]))
        for n, a in enumerate(i.get("alternatives", []) if isinstance(i.get("alternatives"), list) else []):
            if isinstance(a, dict) and isinstance(a.get("support"), str):
                out.append((f"interpretations[{k}].alternatives[{n}].support", a["support"]))
    return out


def _check_prose_locators(
    prose: str, docs: dict[str, Document], *, file: str, clause: str, field: str, line: int | None,
    problems: list[SpecError],
) -> bool:
    """A locator mentioned in a note or support text (`end-of-phase-1/s4`, `scoring/s4-s6`) must exist
    in some sentence-traced document."""
    ok = True
    for m in PROSE_LOCATOR.finditer(prose):
        slug, first, last = m[1], int(m[2]), int(m[3] or m[2])
        counts = [s.sentences for d in docs.values() for s in d.sections if s.id == slug]
        if not counts:
            problems.append(SpecError(file, f"mentions {m[0]!r}, but no document has a section {slug!r}",
                                      clause=clause, field=field, line=line))
            ok = False
        elif max(first, last) > max(counts) or last < first:
            problems.append(SpecError(file, f"mentions {m[0]!r}, but section {slug!r} has {max(counts)} sentences",
                                      clause=clause, field=field, line=line))
            ok = False
    return ok


def _load_exclusions(path: Path, docs: dict[str, Document], problems: list[SpecError]) -> tuple[Exclusion, ...]:
    """Sentences and sections that state no rule, each with a reason (optional file)."""
    if not path.exists():
        return ()
    read = _read_toml(path, problems)
    if read is None:
        return ()
    data, ft = read
    file = str(path)
    for key in sorted(data):
        if key != "exclude":
            problems.append(SpecError(file, "unknown top-level key (allowed: exclude)", field=key))
    out: list[Exclusion] = []
    seen: set[tuple[str, str]] = set()
    raw = data.get("exclude", [])
    for k, e in enumerate(raw if isinstance(raw, list) else []):
        prefix = f"exclude[{k}]."
        line = ft.line_of_nth(1, "doc", k) if isinstance(e, dict) else None
        if not _check_table(e, EXCLUSION_FIELDS, ("doc", "at", "fp", "reason"), file=file, clause=None,
                            prefix=prefix, line=line, problems=problems):
            continue
        doc = docs.get(e["doc"])
        if doc is None or not doc.by_sentence:
            problems.append(SpecError(file, f"{e['doc']!r} is not a sentence-traced document", field=prefix + "doc",
                                      line=line))
            continue
        if not FINGERPRINT_PATTERN.match(e["fp"]):
            problems.append(SpecError(file, f"malformed fingerprint {e['fp']!r} (8 lower-case hex digits)",
                                      field=prefix + "fp", line=line))
            continue
        if not _check_locator(doc, e["at"], whole_section=True, file=file, clause=None, field=prefix + "at",
                              line=line, problems=problems):
            continue
        if (e["doc"], e["at"]) in seen:
            problems.append(SpecError(file, f"{e['doc']}:{e['at']} is excluded twice", field=prefix + "at", line=line))
            continue
        seen.add((e["doc"], e["at"]))
        out.append(Exclusion(doc=e["doc"], at=e["at"], fp=e["fp"], reason=" ".join(e["reason"].split()),
                             line=line or 0))
    return tuple(out)


def _load_components(path: Path, problems: list[SpecError]) -> Components | None:
    read = _read_toml(path, problems)
    if read is None:
        return None
    data, _ = read
    file = str(path)
    colours = ("blue", "yellow", "red", "black", "turquoise")
    before = len(problems)
    plates = data.get("plate", [])
    if len(plates) != 18:
        problems.append(SpecError(file, f"expected 18 plates, found {len(plates)}", field="plate"))
    checked_plates: list[tuple[str, str, str, str]] = []
    for n, p in enumerate(plates):
        spaces = p.get("spaces") if isinstance(p, dict) else None
        if not isinstance(spaces, list) or len(spaces) != 4:
            problems.append(SpecError(file, "a plate needs 4 spaces", field=f"plate[{n}].spaces"))
            continue
        bad = [s for s in spaces if s not in colours + ("wild", "special")]
        kinds = sum(s in ("wild", "special") for s in spaces)
        if bad:
            problems.append(SpecError(file, f"unknown space {bad[0]!r}", field=f"plate[{n}].spaces"))
        elif kinds != 1:
            problems.append(SpecError(file, "a plate has exactly one wild or special space",
                                      field=f"plate[{n}].spaces"))
        else:
            checked_plates.append((spaces[0], spaces[1], spaces[2], spaces[3]))
    special_plates = sum("special" in p for p in checked_plates)
    if special_plates > SPECIAL_TILES:
        problems.append(SpecError(file, f"{special_plates} Special plates but only {SPECIAL_TILES} Special tiles: the "
                                  "supply could run out, which no rule covers [duel.component.tiles]", field="plate"))
    chips = data.get("bonus_chips", {}).get("chips", [])
    if len(chips) != 20:
        problems.append(SpecError(file, f"expected 20 Bonus chips, found {len(chips)}", field="bonus_chips.chips"))
    for n, chip in enumerate(chips):
        if not isinstance(chip, list) or not 1 <= len(chip) <= 2 or any(c not in colours for c in chip):
            problems.append(SpecError(file, "a chip shows 1 or 2 known colours", field=f"bonus_chips.chips[{n}]"))
    pairs = data.get("tablets", {}).get("pairs", [])
    sides = [s for pair in pairs for s in pair] if all(isinstance(p, list) for p in pairs) else []
    if len(pairs) != 4 or any(len(p) != 2 for p in pairs) or sorted(sides) != sorted(TABLET_SIDES_KNOWN):
        problems.append(SpecError(file, "expected 4 tablet pairs covering the 8 known sides "
                                  f"({', '.join(TABLET_SIDES_KNOWN)})", field="tablets.pairs"))
    if len(problems) > before:
        return None
    return Components(
        colours=colours,
        plates=tuple(checked_plates),
        chips=tuple(tuple(c) for c in chips),
        tablet_pairs=tuple((p[0], p[1]) for p in pairs),
        file=file,
    )


def _load_interpretation(
    raw: Any, clause_id: str, file: str, ft: _FileText, problems: list[SpecError], n: int,
) -> Interpretation | None:
    prefix = f"interpretations[{n}]."
    line = ft.line_of_id(raw.get("id", "")) if isinstance(raw, dict) else None
    if not _check_table(raw, INTERP_FIELDS, ("id", "question", "reason", "alternatives"), file=file,
                        clause=clause_id, prefix=prefix, line=line, problems=problems):
        return None
    ok = True
    if not ID_PATTERN.match(raw["id"]):
        problems.append(SpecError(file, f"bad interpretation id {raw['id']!r}", clause=clause_id,
                                  field=prefix + "id", line=line))
        ok = False
    alts: list[Alternative] = []
    for k, a in enumerate(raw["alternatives"]):
        if _check_table(a, ALT_FIELDS, ("name", "description", "support"), file=file, clause=clause_id,
                        prefix=f"{prefix}alternatives[{k}].", line=line, problems=problems):
            if not NAME_PATTERN.match(a["name"]):
                problems.append(SpecError(file, f"bad alternative name {a['name']!r}", clause=clause_id,
                                          field=f"{prefix}alternatives[{k}].name", line=line))
                ok = False
            alts.append(Alternative(**a))
        else:
            ok = False
    if ok and len(alts) < 2:
        problems.append(SpecError(file, "an interpretation needs at least 2 alternatives",
                                  clause=clause_id, field=prefix + "alternatives", line=line))
        ok = False
    if ok and len({a.name for a in alts}) != len(alts):
        problems.append(SpecError(file, "duplicate alternative name", clause=clause_id,
                                  field=prefix + "alternatives", line=line))
        ok = False
    defaults = sum(a.default for a in alts)
    if ok and defaults != 1:
        problems.append(SpecError(file, f"needs exactly one default alternative, found {defaults}",
                                  clause=clause_id, field=prefix + "alternatives.default", line=line))
        ok = False
    if not ok:
        return None
    return Interpretation(id=raw["id"], clause_id=clause_id, question=raw["question"],
                          reason=raw["reason"], alternatives=tuple(alts))


def _load_chapter(
    path: Path, documents: dict[str, Document], problems: list[SpecError], id_prefix: str,
) -> tuple[Chapter, list[Clause]] | None:
    read = _read_toml(path, problems)
    if read is None:
        return None
    data, ft = read
    file = str(path)
    before = len(problems)
    for key in sorted(data):
        if key not in ("chapter", "order", "clause"):
            problems.append(SpecError(file, "unknown top-level key (allowed: chapter, order, clause)", field=key))
    if not isinstance(data.get("chapter"), str) or not isinstance(data.get("order"), int):
        problems.append(SpecError(file, "a chapter file needs 'chapter' (text) and 'order' (integer)",
                                  field="chapter"))
        return None
    chapter = Chapter(name=data["chapter"], order=data["order"], file=file)
    clauses: list[Clause] = []
    for n, raw in enumerate(data.get("clause", [])):
        cid: str = raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{n + 1}"
        line = ft.line_of_id(cid)

        def fline(field: str, line: int | None = line) -> int | None:
            return ft.line_of_field(line, field)

        if not _check_table(raw, CLAUSE_FIELDS, CLAUSE_REQUIRED, file=file, clause=cid, prefix="",
                            line=line, problems=problems):
            continue
        ok = True
        if not ID_PATTERN.match(cid) or not cid.startswith(id_prefix):
            problems.append(SpecError(file, f"ids are dotted lower-case words starting with {id_prefix!r}",
                                      clause=cid, field="id", line=line))
            ok = False
        if raw["revision"] < 1:
            problems.append(SpecError(file, "revision starts at 1", clause=cid, field="revision",
                                      line=fline("revision")))
            ok = False
        if raw["kind"] not in CLAUSE_KINDS:
            problems.append(SpecError(file, f"unknown kind {raw['kind']!r} (known: {', '.join(CLAUSE_KINDS)})",
                                      clause=cid, field="kind", line=fline("kind")))
            ok = False
        sources: list[Source] = []
        if not raw["sources"]:
            problems.append(SpecError(file, "a clause needs at least one source", clause=cid,
                                      field="sources", line=fline("sources")))
            ok = False
        for k, s in enumerate(raw["sources"]):
            source = _load_source(s, k, docs=documents, file=file, clause=cid,
                                  line=ft.line_of_nth(fline("sources"), "doc", k), problems=problems)
            if source is None:
                ok = False
            else:
                sources.append(source)
        cited = [(s.doc, s.at) for s in sources if s.at]
        if len(set(cited)) != len(cited):
            problems.append(SpecError(file, "the same sentence is cited twice", clause=cid, field="sources",
                                      line=fline("sources")))
            ok = False
        interps = [_load_interpretation(i, cid, file, ft, problems, k)
                   for k, i in enumerate(raw.get("interpretations", []))]
        if any(i is None for i in interps):
            ok = False
        for field, prose in _prose_fields(raw):
            if not _check_prose_locators(prose, documents, file=file, clause=cid, field=field,
                                         line=ft.line_of_field(line, field.rsplit(".", 1)[-1]),
                                         problems=problems):
                ok = False
        if ok:
            clauses.append(Clause(
                id=cid, revision=raw["revision"], title=raw["title"].strip(), kind=raw["kind"],
                text=" ".join(raw["text"].split()), sources=tuple(sources), chapter=chapter.name,
                file=file, line=line or 0, interpretations=tuple(i for i in interps if i is not None),
                assumption=" ".join(raw["assumption"].split()) if "assumption" in raw else None,
                note=raw.get("note"),
            ))
    if len(problems) > before:
        return None
    return chapter, clauses


# Component data schemas a catalogue.toml may name (`component_schema`): file -> Components.
COMPONENT_SCHEMAS: dict[str, Callable[[Path, list[SpecError]], Components | None]] = {
    "azul-duel": _load_components,
}


@attrs.frozen
class Manifest:
    """A game's catalogue.toml: what the loader needs to know about that game's folder."""

    game: str
    title: str
    id_prefix: str
    documents: tuple[str, ...]
    folder: Path
    components: str | None = None
    component_schema: str | None = None


def _game_of(path: Path) -> str | None:
    """The `game` a catalogue.toml names, or None when it names none or cannot be read."""
    try:
        game = tomllib.loads(path.read_text(encoding="utf-8")).get("game")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return game if isinstance(game, str) else None


def catalogue_games(root: Path | None = None) -> dict[str, Path]:
    """The games whose catalogue folders lie under `root` (game -> folder), unvalidated."""
    root = Path(root) if root is not None else SPEC_ROOT
    out: dict[str, Path] = {}
    for path in sorted(root.glob(f"*/{CATALOGUE_FILE}")):
        game = _game_of(path)
        if game is not None:
            out.setdefault(game, path.parent)
    return out


def _load_manifest(root: Path, game: str, problems: list[SpecError]) -> Manifest | None:
    """The catalogue.toml under `root` that says `game = <game>`, checked field by field."""
    paths = sorted(root.glob(f"*/{CATALOGUE_FILE}"))
    for path in paths:
        read = _read_toml(path, problems)
        if read is None or read[0].get("game") != game:
            continue
        data, ft = read
        twins = [str(other.parent) for other in paths if other != path and _game_of(other) == game]
        if twins:
            problems.append(SpecError(str(path), f"game {game!r} is also claimed by {', '.join(twins)}",
                                      field="game", line=ft.line_of_field(1, "game")))
            return None
        file = str(path)
        if not _check_table(data, CATALOGUE_FIELDS, CATALOGUE_REQUIRED, file=file, clause=None, prefix="",
                            line=None, problems=problems):
            return None
        ok = True
        if not NAME_PATTERN.match(game):
            problems.append(SpecError(file, "a game id is a lower-case word", field="game",
                                      line=ft.line_of_field(1, "game")))
            ok = False
        if not PREFIX_PATTERN.match(data["id_prefix"]):
            problems.append(SpecError(file, f"bad id prefix {data['id_prefix']!r} (a lower-case word and a dot, "
                                      "e.g. 'azul.')", field="id_prefix", line=ft.line_of_field(1, "id_prefix")))
            ok = False
        if not data["documents"] or not all(isinstance(d, str) for d in data["documents"]):
            problems.append(SpecError(file, "documents lists the ids (spec/documents.toml) this catalogue cites",
                                      field="documents", line=ft.line_of_field(1, "documents")))
            ok = False
        if ("components" in data) != ("component_schema" in data):
            problems.append(SpecError(file, "components and component_schema go together", field="components",
                                      line=ft.line_of_field(1, "components")))
            ok = False
        elif "component_schema" in data and data["component_schema"] not in COMPONENT_SCHEMAS:
            problems.append(SpecError(file, f"unknown component schema {data['component_schema']!r} "
                                      f"(known: {', '.join(sorted(COMPONENT_SCHEMAS))})", field="component_schema",
                                      line=ft.line_of_field(1, "component_schema")))
            ok = False
        if not ok:
            return None
        return Manifest(game=game, title=data["title"], id_prefix=data["id_prefix"],
                        documents=tuple(data["documents"]), folder=path.parent,
                        components=data.get("components"), component_schema=data.get("component_schema"))
    known = ", ".join(sorted(catalogue_games(root))) or "none"
    problems.append(SpecError(str(root), f"no catalogue for game {game!r}: no */{CATALOGUE_FILE} says "
                              f"game = {game!r} (games: {known})"))
    return None


def _catalogue_documents(
    manifest: Manifest, documents: tuple[Document, ...], problems: list[SpecError],
) -> tuple[Document, ...]:
    """The documents the catalogue cites, in documents.toml order; an unknown id is a problem."""
    known = {d.id for d in documents}
    for doc_id in manifest.documents:
        if doc_id not in known:
            problems.append(SpecError(str(manifest.folder / CATALOGUE_FILE), f"unknown document {doc_id!r} "
                                      f"(spec/documents.toml has: {', '.join(sorted(known))})", field="documents"))
    return tuple(d for d in documents if d.id in manifest.documents)


def validate(root: Path | None = None, game: str = DEFAULT_GAME) -> tuple[Catalogue | None, list[SpecError]]:
    """Validate `game`'s catalogue under `root` (default: this package); return it only if flawless."""
    root = Path(root) if root is not None else SPEC_ROOT
    problems: list[SpecError] = []
    all_documents = _load_documents(root, problems)
    manifest = _load_manifest(root, game, problems)
    if manifest is None:
        return None, problems
    folder = manifest.folder
    documents = _catalogue_documents(manifest, all_documents, problems)
    components = None
    if manifest.components is not None and manifest.component_schema is not None:
        components = COMPONENT_SCHEMAS[manifest.component_schema](folder / manifest.components, problems)
    chapters: list[Chapter] = []
    clauses: list[Clause] = []
    files = sorted(folder.glob("[0-9]*.toml"))
    if not files:
        problems.append(SpecError(str(folder), "no chapter files (NN-name.toml) found"))
    doc_ids = {d.id: d for d in documents}
    exclusions = _load_exclusions(folder / EXCLUSIONS_FILE, doc_ids, problems)
    for path in files:
        loaded = _load_chapter(path, doc_ids, problems, manifest.id_prefix)
        if loaded:
            chapters.append(loaded[0])
            clauses.extend(loaded[1])
    seen: dict[str, Clause] = {}
    interp_seen: dict[str, str] = {}
    for c in clauses:
        if c.id in seen:
            problems.append(SpecError(c.file, f"duplicate clause id (first defined in {seen[c.id].file}:{seen[c.id].line})",
                                      clause=c.id, field="id", line=c.line))
        seen.setdefault(c.id, c)
        for i in c.interpretations:
            if i.id in interp_seen or i.id in seen:
                problems.append(SpecError(c.file, "duplicate interpretation id", clause=c.id,
                                          field="interpretations.id", line=c.line))
            interp_seen[i.id] = c.id
    orders = [ch.order for ch in chapters]
    if len(set(orders)) != len(orders):
        problems.append(SpecError(str(folder), "two chapter files share an 'order'"))
    if problems or (manifest.components is not None and components is None):
        return None, problems
    chapters.sort(key=lambda ch: ch.order)
    rank = {ch.name: ch.order for ch in chapters}
    clauses.sort(key=lambda c: (rank[c.chapter], c.line))
    return Catalogue(clauses=tuple(clauses), documents=documents, chapters=tuple(chapters),
                     components=components, exclusions=exclusions, game=manifest.game,
                     title=manifest.title, id_prefix=manifest.id_prefix), []


def load_catalogue(root: Path | None = None, game: str = DEFAULT_GAME) -> Catalogue:
    """Load `game`'s catalogue, or raise the first SpecError (nothing is half-loaded)."""
    catalogue, problems = validate(root, game)
    if problems:
        raise problems[0]
    assert catalogue is not None
    return catalogue


_DEFAULTS: dict[str, Catalogue] = {}


def default_catalogue(game: str = DEFAULT_GAME) -> Catalogue:
    """The project's own catalogue of `game`, loaded once per process."""
    if game not in _DEFAULTS:
        _DEFAULTS[game] = load_catalogue(game=game)
    return _DEFAULTS[game]
