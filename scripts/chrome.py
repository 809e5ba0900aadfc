"""Puts the chrome every page shares (web/partials/chrome.html) into the pages of a built site.

Usage: python3 scripts/chrome.py SITE_DIR

A page marks each place with a line `<!-- chrome: NAME -->` (head, header, footer); the
line is replaced by the section of that name, and in the navigation the link to the page
itself gets aria-current="page". A marker naming no section, a section no page uses, or a
page the navigation does not link (but the front page) stops the build.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MARKER = re.compile(r"^<!-- chrome: ([a-z]+) -->$", re.MULTILINE)
SECTION = re.compile(r"^<!-- section: ([a-z]+) -->\n", re.MULTILINE)


def sections(chrome: str) -> dict[str, str]:
    """The named sections of the partial, each without its trailing newline."""
    parts = SECTION.split(chrome)
    return {name: body.rstrip("\n") for name, body in zip(parts[1::2], parts[2::2])}


def dress(page: str, name: str, chrome: dict[str, str], used: set[str]) -> str:
    """The page with its markers replaced; the link to `name` marked current."""

    def section(marker: re.Match[str]) -> str:
        wanted = marker.group(1)
        if wanted not in chrome:
            sys.exit(f"chrome: {name} asks for `{wanted}`; web/partials/chrome.html has {sorted(chrome)}")
        used.add(wanted)
        body = chrome[wanted]
        if wanted == "header":
            link = f'<a href="{name}"'
            if link not in body:
                sys.exit(f"chrome: the navigation does not link {name}")
            body = body.replace(link, f'{link} aria-current="page"', 1)
        return body

    return MARKER.sub(section, page)


def main() -> None:
    site = Path(sys.argv[1])
    chrome = sections((site / "partials" / "chrome.html").read_text())
    used: set[str] = set()
    for path in sorted(site.glob("*.html")):
        path.write_text(dress(path.read_text(), path.name, chrome, used))
    if unused := set(chrome) - used:
        sys.exit(f"chrome: no page uses {sorted(unused)}")


if __name__ == "__main__":
    main()
