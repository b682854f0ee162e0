"""Every image the README and ``docs/*.md`` show exists, every PNG of ``docs/screenshots/`` is
shown by a page (or read by a test), and ``scripts/docs_screenshots.py`` takes exactly the
screenshots the pages show, so that one run of it brings them all up to date."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHOTS = ROOT / "docs" / "screenshots"
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def _referenced() -> dict[Path, list[str]]:
    """Image file -> the pages that show it (relative links resolved from each page)."""
    out: dict[Path, list[str]] = {}
    for page in PAGES:
        for m in IMAGE.finditer(page.read_text(encoding="utf-8")):
            target = m.group(1) or m.group(2)
            if re.match(r"[a-z]+:", target):  # an address, not a file of the repository
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            out.setdefault(path, []).append(page.name)
    return out


def _read_by_tests() -> set[str]:
    """Names of docs/screenshots files a test reads."""
    names = set()
    for test in (ROOT / "tests").rglob("*.py"):
        names.update(re.findall(r"docs/screenshots/([\w.-]+\.png)",
                                test.read_text(encoding="utf-8")))
    return names


def test_every_image_a_page_shows_exists() -> None:
    missing = {str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p): pages
               for p, pages in _referenced().items() if not p.is_file()}
    assert missing == {}
    assert len(_referenced()) >= 10


def test_every_screenshot_is_shown_by_a_page_or_read_by_a_test() -> None:
    shown = {p.name for p in _referenced() if p.parent == SHOTS}
    stray = sorted(p.name for p in SHOTS.glob("*.png")
                   if p.name not in shown and p.name not in _read_by_tests())
    assert stray == []


def test_the_script_takes_exactly_the_screenshots_the_pages_show() -> None:
    spec = importlib.util.spec_from_file_location("docs_screenshots",
                                                  ROOT / "scripts" / "docs_screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    taken = sorted(f"{name}.png" for pngs, _ in module.SHOTS.values() for name in pngs)
    shown = sorted(p.name for p in _referenced() if p.parent == SHOTS)
    assert taken == shown
