"""The documentation stands alone: every relative link in the README, CONTRIBUTING and docs/ leads to a file of
the repository (and, with a #fragment, to a heading of it); every page named in prose exists; the figures quoted
of the rules vectors are the files there are."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "tests" / "README.md",
         *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    heads = re.findall(r"^#+ (.+)$", page.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
        for match in LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):
                continue  # https://, mailto: — not ours to check offline
            path, _, fragment = target.partition("#")
            resolved = (page.parent / path).resolve() if path else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken


def test_the_readme_is_short_and_the_canon_is_here() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    for canon in ("rules.md", "variants.md", "scenarios.md"):
        assert (ROOT / "docs" / canon).stat().st_size > 5000, canon


def test_every_page_named_in_prose_exists() -> None:
    """A page named without a link (``rules.md §11``, ``docs/operating.md``) is one of ours, spelt as it is."""
    named = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.md)\b")
    missing = []
    for page in PAGES:
        for name in set(named.findall(LINK.sub("", page.read_text()))):
            if not any(p.exists() for p in (page.parent / name, ROOT / name, ROOT / "docs" / name)):
                missing.append(f"{page.relative_to(ROOT)}: {name}")
    assert not missing, sorted(missing)


def test_the_scenario_count_quoted_is_the_count_there_is() -> None:
    text = " ".join((ROOT / "docs" / "engine.md").read_text().split())
    found = re.search(r"\((\d+) files: (\d+) for the sections .*? and (\d+) for the variants", text)
    assert found is not None
    files = sorted((ROOT / "tests" / "scenarios").glob("*.json"))
    rules, variants = (len([f for f in files if f.name.startswith(p)]) for p in ("s", "v_"))
    assert tuple(map(int, found.groups())) == (len(files), rules, variants)
