"""The repository stands alone: it cites no file outside itself, and its links lead somewhere.

The rule decisions once lived in a file next to the repository; they are now
docs/rules/decisions.md (shared by all games) and each game page's Decisions section.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"

# Spelled in pieces so that this file does not cite them itself.
OUTSIDE = re.compile("|".join(re.escape(s) for s in (
    "RULES" + "-DECISIONS",  # the decisions file that stood beside the repository
    ".." + "/shared",  # the folder that held it, the design file and the rule texts
    "/" + "work/",  # absolute paths of the machine the project was written on
)))
SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".pytest_cache",
             ".ruff_cache"}
FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE = re.compile(r"\[[^\]]*\]\(([^)\s]+)[^)]*\)")
DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(\S+)", re.M)
CITATION = re.compile(r"docs/rules/([a-z0-9-]+\.md)(#[a-z0-9-]+)?")


def tracked_files() -> list[Path]:
    """The files git tracks; without git (an unpacked copy), every file but caches and envs."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        return [ROOT / name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
            files += [Path(top) / name for name in names]
        return files


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None


def prose(text: str) -> str:
    """The markdown outside fenced code blocks (a '#' in code is no heading)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return "\n".join(out)


def anchors(page: Path) -> set[str]:
    """The anchors a markdown renderer makes from the page's headings, as GitHub does."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", prose(page.read_text()), re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def label(text: str) -> str:
    """A reference label as markdown matches it: case and runs of spaces do not count."""
    return " ".join(text.split()).lower()


LABELS = {label(m.group(1)) for p in RULES.glob("*.md")
          for m in DEFINITION.finditer(prose(p.read_text()))}


def broken(page: Path, target: str) -> str | None:
    """Why a link from page to target leads nowhere, or None when it resolves."""
    if re.match(r"[a-z]+:", target):  # https:, mailto: ...
        return None
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    if not dest.exists():
        return f"{target}: no such file"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}"
    return None


def test_no_file_cites_a_path_outside_the_repository():
    found = []
    for path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "citations of files outside the repository:\n" + "\n".join(found)


def test_the_decisions_are_in_the_repository():
    """One page for what all games share, and a Decisions section on every game's page."""
    assert (RULES / "decisions.md").exists()
    games = [p for p in RULES.glob("*.md") if p.name != "decisions.md"]
    assert games
    missing = [p.name for p in games if "decisions" not in anchors(p)]
    assert not missing, f"rule pages without a Decisions section: {missing}"


@pytest.mark.parametrize("page", sorted(RULES.glob("*.md")), ids=lambda p: p.name)
def test_every_link_of_a_rule_page_leads_somewhere(page):
    text = prose(page.read_text())
    targets = [m.group(1) for m in INLINE.finditer(text)]
    targets += [m.group(2) for m in DEFINITION.finditer(text)]
    bad = [why for t in targets if (why := broken(page, t))]
    # A reference link ("[the stock]") whose label the rule pages define somewhere must be
    # defined on this page too, or it shows as bare brackets.
    defined = {label(m.group(1)) for m in DEFINITION.finditer(text)}
    words = DEFINITION.sub("", re.sub(r"`[^`]*`", "", text))
    used = {label(m.group(1)) for m in re.finditer(r"\[([^\]\[]+)\](?![(\[])", words)}
    bad += [f"[{name}] is not defined" for name in sorted(used & LABELS - defined)]
    assert not bad, f"{page.name}: " + "; ".join(bad)


def test_every_citation_of_a_rule_page_names_one_that_exists():
    """Code and docs cite 'docs/rules/<page>.md' (maybe with '#section'): each must resolve."""
    bad = []
    for path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        for m in CITATION.finditer(text):
            if why := broken(RULES / "x.md", m.group(1) + (m.group(2) or "")):
                bad.append(f"{path.relative_to(ROOT)}: {why}")
    assert not bad, "\n".join(bad)


def test_the_files_handed_out_first_exist():
    """A file renamed or removed would quietly leave the order of a distributed run."""
    from tests.conftest import LONGEST_FIRST

    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    assert [name for name in LONGEST_FIRST if not (ROOT / "tests" / name).is_file()] == []
