"""The clause catalogue as frozen attrs objects: clauses, sources, interpretations, components."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import attrs

CLAUSE_KINDS: tuple[str, ...] = (
    "component", "setup", "action", "constraint", "effect", "scoring", "phase", "end", "invariant",
)


SENTENCE_LOCATOR = "sentence"


@attrs.frozen
class DocumentSection:
    """One section of a sentence-traced document: its slug, heading and sentence count."""

    id: str
    title: str
    sentences: int


@attrs.frozen
class Document:
    id: str
    title: str
    file: str
    locator: str
    primary: bool = False
    layout: str | None = None
    sections: tuple[DocumentSection, ...] = ()

    @property
    def by_sentence(self) -> bool:
        """Clauses cite this document sentence by sentence (`at` + `fp`), not by a `where` text."""
        return self.locator == SENTENCE_LOCATOR

    def section(self, slug: str) -> DocumentSection | None:
        return next((s for s in self.sections if s.id == slug), None)


@attrs.frozen
class Source:
    """Where a document states a clause: one sentence (`at`, `fp`) or, for documents not traced
    by sentence, a free `place` (a table or section name; `where` in the TOML)."""

    doc: str
    at: str | None = None
    fp: str | None = None
    place: str | None = None

    @property
    def section(self) -> str | None:
        return self.at.split("/", 1)[0] if self.at else None

    @property
    def sentence(self) -> int | None:
        return int(self.at.split("/s", 1)[1]) if self.at else None

    @property
    def where(self) -> str:
        """A short human-readable locator: `section/sN` or the free place."""
        return self.at if self.at is not None else (self.place or "")


@attrs.frozen
class Exclusion:
    """A sentence (or a whole section) that states no rule, with the reviewed reason."""

    doc: str
    at: str
    fp: str
    reason: str
    line: int = 0

    @property
    def whole_section(self) -> bool:
        return "/" not in self.at


@attrs.frozen
class Alternative:
    name: str
    description: str
    support: str
    default: bool = False


@attrs.frozen
class Interpretation:
    """A point where the documents are silent, ambiguous or disagree, with named alternatives."""

    id: str
    clause_id: str
    question: str
    reason: str
    alternatives: tuple[Alternative, ...]

    @property
    def default(self) -> str:
        return next(a.name for a in self.alternatives if a.default)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.alternatives)


@attrs.frozen
class Clause:
    id: str
    revision: int
    title: str
    kind: str
    text: str
    sources: tuple[Source, ...]
    chapter: str
    file: str
    line: int
    interpretations: tuple[Interpretation, ...] = ()
    assumption: str | None = None
    note: str | None = None

    @property
    def documents(self) -> tuple[str, ...]:
        return tuple(sorted({s.doc for s in self.sources}))


@attrs.frozen
class Components:
    """Physical component data the rulebook does not print (replaceable)."""

    colours: tuple[str, ...]
    plates: tuple[tuple[str, str, str, str], ...]
    chips: tuple[tuple[str, ...], ...]
    tablet_pairs: tuple[tuple[str, str], ...]
    file: str

    @property
    def tablet_sides(self) -> tuple[str, ...]:
        return tuple(side for pair in self.tablet_pairs for side in pair)


@attrs.frozen
class Chapter:
    name: str
    order: int
    file: str


@attrs.frozen
class Catalogue:
    clauses: tuple[Clause, ...]
    documents: tuple[Document, ...]
    chapters: tuple[Chapter, ...]
    components: Components | None = None   # only for a game whose catalogue.toml names component data
    exclusions: tuple[Exclusion, ...] = ()
    game: str = "duel"                     # from the folder's catalogue.toml
    title: str = "Azul Duel"
    id_prefix: str = "duel."
    _by_id: Mapping[str, Clause] = attrs.field(init=False, repr=False, eq=False)
    _interps: Mapping[str, Interpretation] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.clauses})
        object.__setattr__(
            self, "_interps", {i.id: i for c in self.clauses for i in c.interpretations}
        )

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses)

    def __len__(self) -> int:
        return len(self.clauses)

    def __contains__(self, clause_id: object) -> bool:
        return clause_id in self._by_id

    def clause(self, clause_id: str) -> Clause:
        try:
            return self._by_id[clause_id]
        except KeyError:
            raise KeyError(f"unknown clause id {clause_id!r}") from None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clauses)

    @property
    def interpretations(self) -> tuple[Interpretation, ...]:
        return tuple(self._interps[k] for k in sorted(self._interps))

    def interpretation(self, interp_id: str) -> Interpretation:
        try:
            return self._interps[interp_id]
        except KeyError:
            raise KeyError(f"unknown interpretation point {interp_id!r}") from None

    def document(self, doc_id: str) -> Document:
        try:
            return next(d for d in self.documents if d.id == doc_id)
        except StopIteration:
            raise KeyError(f"unknown document {doc_id!r}") from None

    def source_label(self, source: Source) -> str:
        """`rulebook, Phase 1: Acquisition, sentence 4 (phase-1-acquisition/s4)` or `doc: place`."""
        if source.at is None:
            return f"{source.doc}: {source.place}"
        doc = self.document(source.doc)
        section = doc.section(source.section or "")
        title = section.title if section else source.section
        return f"{source.doc}, {title}, sentence {source.sentence} ({source.at})"

    def source_lines(self, clause: Clause) -> list[str]:
        """The clause's sources for reading, one line per document section:
        `rulebook, End of Phase 1: s4, s5 (end-of-phase-1/...)` or `doc: place`."""
        groups: dict[tuple[str, str | None], list[Source]] = {}
        for s in clause.sources:
            groups.setdefault((s.doc, s.section if s.at else s.place), []).append(s)
        out: list[str] = []
        for (doc_id, key), sources in groups.items():
            if sources[0].at is None:
                out.append(f"{doc_id}: {key}")
                continue
            section = self.document(doc_id).section(key or "")
            title = section.title if section else key
            numbers = ", ".join(f"s{s.sentence}" for s in sources)
            out.append(f"{doc_id}, {title}: {numbers} ({key}/...)")
        return out

    def by_chapter(self) -> dict[str, list[Clause]]:
        out: dict[str, list[Clause]] = {ch.name: [] for ch in self.chapters}
        for c in self.clauses:
            out[c.chapter].append(c)
        return out
