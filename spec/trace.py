"""Trace the catalogue against the documents, sentence by sentence.

One catalogue (one game) at a time: its documents are the ones its catalogue.toml lists, and its
exclusions are its folder's `trace-exclusions.toml` (`load_catalogue(game=...)` gives both).
Every sentence of a sentence-traced document is rule-bearing unless `trace-exclusions.toml`
excludes it (or its whole section) with a reason. The trace reports rule-bearing sentences no
clause cites, citations whose sentence changed (fingerprint mismatch) or does not exist,
exclusions that went stale, and a section table in spec/documents.toml that no longer matches
the document. Findings carry locators and fingerprints only; the sentence text is attached for
the terminal (`text`) and never written anywhere by this module.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from spec.catalogue import Catalogue, Document
from spec.sentences import Section, Sentence, SplitDocument, SplitError, fingerprint, split_file

FINDING_KINDS: tuple[str, ...] = (
    "uncited", "changed", "missing", "unlocated", "excluded-changed", "excluded-missing", "excluded-cited",
    "sections", "document",
)


@attrs.frozen
class Finding:
    kind: str
    doc: str
    at: str
    detail: str
    fp: str | None = None            # the fingerprint the project stores (if any)
    actual_fp: str | None = None     # the document's fingerprint now (if the sentence exists)
    by: str | None = None            # the clause id or "exclusions" that holds the reference
    text: str | None = attrs.field(default=None, repr=False, eq=False)  # terminal only

    @property
    def locator(self) -> str:
        return f"{self.doc}:{self.at}"

    def to_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "locator": self.locator, "fp": self.fp, "actual_fp": self.actual_fp,
                "by": self.by, "detail": self.detail}


@attrs.frozen
class DocumentTrace:
    doc: str
    sentences: int
    excluded: int
    cited: int

    @property
    def rule_bearing(self) -> int:
        return self.sentences - self.excluded

    @property
    def share(self) -> float:
        return self.cited / self.rule_bearing if self.rule_bearing else 1.0


@attrs.frozen
class TraceReport:
    documents: tuple[DocumentTrace, ...]
    findings: tuple[Finding, ...]

    @property
    def rule_bearing(self) -> int:
        return sum(d.rule_bearing for d in self.documents)

    @property
    def cited(self) -> int:
        return sum(d.cited for d in self.documents)

    @property
    def share(self) -> float:
        return self.cited / self.rule_bearing if self.rule_bearing else 1.0

    @property
    def ok(self) -> bool:
        return not self.findings and self.cited == self.rule_bearing

    def of_kind(self, kind: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind == kind)

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "rule_bearing": self.rule_bearing,
            "cited": self.cited,
            "share": round(self.share, 4),
            "documents": [
                {"doc": d.doc, "sentences": d.sentences, "excluded": d.excluded,
                 "rule_bearing": d.rule_bearing, "cited": d.cited, "share": round(d.share, 4)}
                for d in self.documents
            ],
            "findings": [f.to_json() for f in self.findings],
        }


def default_documents_dir(repo_root: Path) -> Path | None:
    """`../shared/seeds` next to the checkout, if it exists."""
    candidate = repo_root.parent / "shared" / "seeds"
    return candidate if candidate.is_dir() else None


def split_catalogue_documents(catalogue: Catalogue, documents_dir: Path) -> dict[str, SplitDocument]:
    """Split every sentence-traced document found in `documents_dir` (raises SplitError/OSError)."""
    out: dict[str, SplitDocument] = {}
    for doc in catalogue.documents:
        if doc.by_sentence:
            assert doc.layout is not None
            out[doc.id] = split_file(doc.id, documents_dir / doc.file, doc.layout)
    return out


def section_fingerprint(section: Section) -> str:
    """A whole section's fingerprint: of its sentences' fingerprints, in order."""
    return fingerprint(" ".join(s.fingerprint for s in section.sentences))


def _section_findings(doc: Document, split: SplitDocument) -> list[Finding]:
    table = [(s.id, s.title, s.sentences) for s in doc.sections]
    actual = [(s.slug, s.title, len(s.sentences)) for s in split.sections]
    if table == actual:
        return []
    out: list[Finding] = []
    for slug, title, count in actual:
        if (slug, title, count) not in table:
            out.append(Finding("sections", doc.id, slug, f"spec/documents.toml should list "
                               f"{{ id = \"{slug}\", title = \"{title}\", sentences = {count} }}"))
    for slug, title, count in table:
        if (slug, title, count) not in actual:
            out.append(Finding("sections", doc.id, slug, f"spec/documents.toml lists section {slug!r} "
                               f"({count} sentences) that the document does not have"))
    if not out:
        out.append(Finding("sections", doc.id, "", "spec/documents.toml lists the sections in another order"))
    return out


def _exclusion_findings(
    catalogue: Catalogue, doc: Document, split: SplitDocument, cited: dict[str, list[str]],
) -> tuple[set[str], list[Finding]]:
    """The locators the exclusions cover, and their stale entries."""
    covered: set[str] = set()
    out: list[Finding] = []
    for e in (x for x in catalogue.exclusions if x.doc == doc.id):
        if e.whole_section:
            section = split.section(e.at)
            if section is None:
                out.append(Finding("excluded-missing", doc.id, e.at, "excluded section is not in the document",
                                   fp=e.fp, by="exclusions"))
                continue
            actual, text = section_fingerprint(section), None
            members = [s.at for s in section.sentences]
        else:
            sentence = split.sentence(e.at)
            if sentence is None:
                out.append(Finding("excluded-missing", doc.id, e.at, "excluded sentence is not in the document",
                                   fp=e.fp, by="exclusions"))
                continue
            actual, text, members = sentence.fingerprint, sentence.text, [sentence.at]
        if actual != e.fp:
            out.append(Finding("excluded-changed", doc.id, e.at, "the excluded text changed: review the reason",
                               fp=e.fp, actual_fp=actual, by="exclusions", text=text))
        covered.update(members)
        for at in members:
            for clause_id in cited.get(at, []):
                out.append(Finding("excluded-cited", doc.id, at, f"cited by {clause_id} but excluded as "
                                   f"stating no rule ({e.reason})", by=clause_id))
    return covered, out


def _trace_document(catalogue: Catalogue, doc: Document, split: SplitDocument) -> tuple[DocumentTrace, list[Finding]]:
    findings = _section_findings(doc, split)
    cited: dict[str, list[str]] = {}
    for clause in catalogue:
        for source in clause.sources:
            if source.doc != doc.id:
                continue
            if source.at is None:
                findings.append(Finding("unlocated", doc.id, "", f"cited by a 'where' text ({source.place!r}), "
                                        "not by sentence locators", by=clause.id))
                continue
            sentence = split.sentence(source.at)
            if sentence is None:
                findings.append(Finding("missing", doc.id, source.at, "cited sentence is not in the document",
                                        fp=source.fp, by=clause.id))
                continue
            if sentence.fingerprint != source.fp:
                findings.append(Finding("changed", doc.id, source.at, "the cited sentence changed: re-read it",
                                        fp=source.fp, actual_fp=sentence.fingerprint, by=clause.id,
                                        text=sentence.text))
            cited.setdefault(source.at, []).append(clause.id)
    covered, stale = _exclusion_findings(catalogue, doc, split, cited)
    findings += stale
    sentences: tuple[Sentence, ...] = split.sentences
    for s in sentences:
        if s.at not in cited and s.at not in covered:
            findings.append(Finding("uncited", doc.id, s.at, "no clause cites this sentence",
                                    actual_fp=s.fingerprint, text=s.text))
    rule_bearing = [s for s in sentences if s.at not in covered]
    n_cited = sum(1 for s in rule_bearing if s.at in cited)
    return DocumentTrace(doc=doc.id, sentences=len(sentences), excluded=len(sentences) - len(rule_bearing),
                         cited=n_cited), findings


def trace(catalogue: Catalogue, documents_dir: Path) -> TraceReport:
    """Trace every sentence-traced document of `catalogue` found under `documents_dir`."""
    traces: list[DocumentTrace] = []
    findings: list[Finding] = []
    for doc in catalogue.documents:
        if not doc.by_sentence:
            continue
        assert doc.layout is not None
        path = documents_dir / doc.file
        try:
            split = split_file(doc.id, path, doc.layout)
        except OSError as exc:
            findings.append(Finding("document", doc.id, "", f"cannot read {path}: {exc.strerror}"))
            continue
        except SplitError as exc:
            findings.append(Finding("document", doc.id, "", f"{path}: {exc}"))
            continue
        t, f = _trace_document(catalogue, doc, split)
        traces.append(t)
        findings += f
    return TraceReport(documents=tuple(traces), findings=tuple(findings))
