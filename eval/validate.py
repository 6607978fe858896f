#!/usr/bin/env python3
"""Check the evaluation sets named in a manifest (eval/sets.toml).

Usage (from the repository root):

    python3 eval/validate.py eval/sets.toml [-v] [--sets a,b]

For every [[set]] in the manifest (or only those --sets names) this reads the question file and checks
each line:

- it parses as JSON and has `id`, `question`, `as_of` (YYYY-MM-DD) and
  `expect` with `answer_any`, `answer_none`, `sources_all`, `sources_none`
  (lists of strings) and `abstain` (bool); ids are unique within the set;
- an abstain line has empty `answer_any` and `sources_all`; an answerable
  line has both non-empty;
- every source names exactly one file under the set's document folders
  (after `exclude`): an entry containing "/" is a path suffix, any other
  entry a file name; `sources_all` and `sources_none` do not overlap;
- at least one `answer_any` string occurs (case-insensitively, whitespace
  runs collapsed) in a `sources_all` file, and for a set that is not frozen
  every one occurs exactly as written (so none is split over two lines);
- no `answer_none` string occurs in any `sources_all` file (checked
  case-insensitively, also with whitespace runs collapsed, so a value split
  over two lines is still caught).

A set with `generated = true` (written by scripts/eval/prepare.py from
public QA data) gets the structural and source checks only: its answers
need not be spelt out in a source (HotpotQA's "yes"/"no"). A set whose
`modes` are all rankers (bm25, vector, hybrid) is scored on retrieval only,
so its answerable lines need no `answer_any`.

Document folders and question files are relative to the repository root
(the parent of the folder holding the manifest). PDFs are read with
`pdftotext` when it is installed; otherwise their content checks are skipped
with a note.

`eval/sample-docs.jsonl` is frozen (see eval/README.md) and deliberately
lists, in `answer_none`, wrong values that appear in the same document (the
"Other cities" hotel cap next to the Mumbai one), and in `answer_any`
spellings the document does not use ("2500" next to "2,500"). For a frozen
set those two per-string checks are notes (listed with -v), not problems;
everything else is checked as for any set.

Exit status: 0 when there is no problem, 1 otherwise (2 for bad usage).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from datetime import date
from pathlib import Path

FROZEN = {"eval/sample-docs.jsonl"}
ANSWERING = {"classic", "agent", "auto"}
RANKERS = {"bm25", "vector", "hybrid"}
EXPECT_KEYS = {
    "answer_any": list,
    "answer_none": list,
    "sources_all": list,
    "sources_none": list,
    "abstain": bool,
}


def norm_ws(s: str) -> str:
    return re.sub(r"\s+", " ", s)


class Docs:
    """The files of one set: relative paths (per folder) and absolute paths."""

    def __init__(self, root: Path, folders: list[str], include: list[str], exclude: list[str]):
        self.files: list[tuple[str, Path]] = []  # (path relative to its folder, absolute path)
        self.missing: list[str] = []
        for folder in folders:
            base = (root / folder).resolve()
            if not base.is_dir():
                self.missing.append(folder)
                continue
            for dirpath, _dirs, names in os.walk(base):
                for name in names:
                    p = Path(dirpath) / name
                    rel = p.relative_to(base).as_posix()
                    if include and not any(self._match(rel, g) for g in include):
                        continue
                    if any(self._match(rel, g) for g in exclude):
                        continue
                    self.files.append((rel, p))
        self._text: dict[Path, str | None] = {}

    @staticmethod
    def _match(rel: str, glob: str) -> bool:
        return fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch(rel.rsplit("/", 1)[-1], glob)

    def find(self, entry: str) -> list[Path]:
        hits = []
        for rel, p in self.files:
            if "/" in entry:
                if rel == entry or rel.endswith("/" + entry) or p.as_posix().endswith("/" + entry):
                    hits.append(p)
            elif p.name == entry:
                hits.append(p)
        return hits

    def text(self, p: Path) -> str | None:
        if p not in self._text:
            if p.suffix.lower() == ".pdf":
                if shutil.which("pdftotext"):
                    r = subprocess.run(["pdftotext", "-layout", str(p), "-"], capture_output=True)
                    self._text[p] = r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None
                else:
                    self._text[p] = None
            else:
                self._text[p] = p.read_text(encoding="utf-8", errors="replace")
        return self._text[p]


def check_set(root: Path, spec: dict) -> tuple[list[str], list[str], dict]:
    problems: list[str] = []
    notes: list[str] = []
    name = spec.get("name", "?")
    qpath = spec.get("questions")
    folders = spec.get("documents")
    if not isinstance(qpath, str) or not isinstance(folders, list) or not folders:
        return [f"[{name}] manifest entry needs `questions` (string) and `documents` (non-empty list)"], notes, {}
    versioning = spec.get("versioning", "auto")
    if versioning not in ("auto", "explicit", "off"):
        problems.append(f"[{name}] versioning must be auto, explicit or off, not {versioning!r}")
    frozen = qpath in FROZEN
    generated = spec.get("generated", False) is True
    modes = spec.get("modes", sorted(ANSWERING))
    unknown = [m for m in modes if m not in ANSWERING | RANKERS] if isinstance(modes, list) else [modes]
    if unknown or not modes:
        problems.append(f"[{name}] modes must be a non-empty list of {sorted(ANSWERING | RANKERS)}, got {modes!r}")
    retrieval_only = isinstance(modes, list) and bool(modes) and all(m in RANKERS for m in modes)
    docs = Docs(root, folders, spec.get("include", []), spec.get("exclude", []))
    for m in docs.missing:
        hint = " (run python3 scripts/eval/prepare.py)" if generated else ""
        problems.append(f"[{name}] document folder not found: {m}{hint}")
    qfile = root / qpath
    if not qfile.is_file():
        return problems + [f"[{name}] question file not found: {qpath}"], notes, {}

    stats = {"lines": 0, "answerable": 0, "abstain": 0, "historical": 0}
    ids: dict[str, int] = {}
    dates: list[date] = []
    for lineno, line in enumerate(qfile.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"[{name}] {qpath}:{lineno}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{where}: not JSON ({e})")
            continue
        if not isinstance(item, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        stats["lines"] += 1
        qid = item.get("id")
        if not isinstance(qid, str) or not qid:
            problems.append(f"{where}: missing id")
            qid = f"line{lineno}"
        elif qid in ids:
            problems.append(f"{where}: duplicate id {qid!r} (also line {ids[qid]})")
        else:
            ids[qid] = lineno
        where = f"{where} ({qid})"
        if not isinstance(item.get("question"), str) or not item["question"].strip():
            problems.append(f"{where}: missing question")
        as_of = item.get("as_of")
        try:
            d = date.fromisoformat(as_of) if isinstance(as_of, str) and len(as_of) == 10 else None
        except ValueError:
            d = None
        if d is None:
            problems.append(f"{where}: as_of must be YYYY-MM-DD, got {as_of!r}")
        extra = set(item) - {"id", "question", "as_of", "expect", "half"}
        if extra:
            problems.append(f"{where}: unknown keys {sorted(extra)}")
        # "half": "tuning" pins a question quoted in the source to the tuning
        # half (crates/answer/tests/contamination.rs); nothing else is allowed.
        if "half" in item and item["half"] != "tuning":
            problems.append(f"{where}: half may only be \"tuning\", got {item['half']!r}")
        exp = item.get("expect")
        if not isinstance(exp, dict):
            problems.append(f"{where}: missing expect")
            continue
        bad = False
        for k, t in EXPECT_KEYS.items():
            if k not in exp:
                problems.append(f"{where}: expect.{k} missing")
                bad = True
            elif not isinstance(exp[k], t) or (t is list and not all(isinstance(s, str) and s for s in exp[k])):
                problems.append(f"{where}: expect.{k} must be {'a list of non-empty strings' if t is list else 'a bool'}")
                bad = True
        extra = set(exp) - set(EXPECT_KEYS)
        if extra:
            problems.append(f"{where}: unknown expect keys {sorted(extra)}")
        if bad:
            continue
        if d is not None:
            dates.append(d)

        if exp["abstain"]:
            stats["abstain"] += 1
            if exp["answer_any"] or exp["sources_all"]:
                problems.append(f"{where}: abstain line must have empty answer_any and sources_all")
        else:
            stats["answerable"] += 1
            if not exp["answer_any"] and not retrieval_only:
                problems.append(f"{where}: answerable line without answer_any")
            if not exp["sources_all"]:
                problems.append(f"{where}: answerable line without sources_all")

        overlap = set(exp["sources_all"]) & set(exp["sources_none"])
        if overlap:
            problems.append(f"{where}: in both sources_all and sources_none: {sorted(overlap)}")
        resolved: dict[str, list[Path]] = {}
        for key in ("sources_all", "sources_none"):
            for entry in exp[key]:
                hits = docs.find(entry)
                resolved[entry] = hits
                if not hits:
                    problems.append(f"{where}: {key} entry {entry!r} matches no file")
                elif len(hits) > 1:
                    problems.append(f"{where}: {key} entry {entry!r} is ambiguous ({len(hits)} files); use a longer path suffix")
        if len(exp["sources_none"]) != len(set(exp["sources_none"])):
            problems.append(f"{where}: duplicate entries in sources_none")

        # Content checks against the sources_all files.
        texts = []
        for entry in exp["sources_all"]:
            for p in resolved.get(entry, [])[:1]:
                t = docs.text(p)
                if t is None:
                    notes.append(f"{where}: cannot read {p.name} (no pdftotext?); content checks skipped for it")
                else:
                    texts.append((p.name, t))
        if generated or not texts or len(texts) != len(exp["sources_all"]):
            continue
        report = notes if frozen else problems
        found = [s for s in exp["answer_any"] if any(s.lower() in t.lower() for _, t in texts)]
        loose = [s for s in exp["answer_any"]
                 if any(norm_ws(s.lower()) in norm_ws(t.lower()) for _, t in texts)]
        if exp["answer_any"] and not loose:
            problems.append(f"{where}: no answer_any string occurs in {[n for n, _ in texts]}")
        else:
            for s in exp["answer_any"]:
                if s not in found:
                    report.append(f"{where}: answer_any {s!r} not found in {[n for n, _ in texts]}")
        for s in exp["answer_none"]:
            for n, t in texts:
                if s.lower() in t.lower() or norm_ws(s.lower()) in norm_ws(t.lower()):
                    report.append(f"{where}: answer_none {s!r} occurs in sources_all file {n}")
    # Historical lines: asked before the set's latest as_of date.
    stats["historical"] = sum(1 for d in dates if dates and d < max(dates))
    return problems, notes, stats


def main(argv: list[str]) -> int:
    verbose = "-v" in argv[1:]
    argv = [a for a in argv if a != "-v"]
    only = None
    if "--sets" in argv:
        i = argv.index("--sets")
        if i + 1 >= len(argv):
            print("--sets needs a comma-separated list of set names", file=sys.stderr)
            return 2
        only = set(argv[i + 1].split(","))
        del argv[i:i + 2]
    if len(argv) != 2:
        print("usage: python3 eval/validate.py eval/sets.toml [-v] [--sets a,b]", file=sys.stderr)
        return 2
    manifest = Path(argv[1]).resolve()
    root = manifest.parent.parent
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        print(f"cannot read {argv[1]}: {e}", file=sys.stderr)
        return 1
    sets = data.get("set")
    if not isinstance(sets, list) or not sets:
        print(f"{argv[1]}: no [[set]] entries", file=sys.stderr)
        return 1
    all_problems: list[str] = []
    names = set()
    unknown = sorted(only - {s.get("name") for s in sets}) if only else []
    if unknown:
        print(f"unknown set(s) {', '.join(unknown)}; the sets are {', '.join(s.get('name', '?') for s in sets)}")
        return 1
    for spec in sets:
        name = spec.get("name", "?")
        if name in names:
            all_problems.append(f"duplicate set name {name!r}")
        names.add(name)
        if only and name not in only:
            continue
        problems, notes, stats = check_set(root, spec)
        all_problems += problems
        if stats:
            print(f"{name}: {stats['lines']} lines, {stats['answerable']} answerable, {stats['abstain']} abstain, "
                  f"{stats['historical']} historical (as_of before the set's latest); "
                  f"{len(problems)} problem(s), {len(notes)} note(s)")
        if verbose:
            for n in notes:
                print(f"  note: {n}")
        elif notes:
            print(f"  ({len(notes)} note(s) not shown; add -v to list them)")
        for p in problems:
            print(f"  PROBLEM: {p}")
    if all_problems:
        print(f"FAILED: {len(all_problems)} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
