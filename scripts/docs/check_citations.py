#!/usr/bin/env python3
"""Checks that every docs/references.md#anchor cited in configs/ and in the code exists in docs/references.md.

    scripts/docs/check_citations.py [repository-root]

Scans every configs/**/*.json (comments and strings alike), and the sources and tests, for citations of the form
`docs/references.md#anchor` and collects the anchors docs/references.md defines: explicit
`<a id="anchor">` / `<a name="anchor">` tags and the anchors GitHub derives from headings.
Prints one line per broken citation (file:line: anchor) and exits 1 if there is any, else 0.
"""
import pathlib
import re
import sys

CITATION = re.compile(r"docs/references\.md#([A-Za-z0-9_-]+)")
EXPLICIT = re.compile(r"""<a\s+(?:id|name)\s*=\s*["']([^"']+)["']""")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def heading_slug(text):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"<[^>]+>", "", text)           # inline HTML
    text = re.sub(r"`([^`]*)`", r"\1", text)       # code spans keep their text
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(references):
    found = set()
    in_code = False
    for line in references.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        found.update(EXPLICIT.findall(line))
        m = HEADING.match(line)
        if m:
            found.add(heading_slug(m.group(1)))
    return found


def main(argv):
    root = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
    references = root / "docs" / "references.md"
    if not references.is_file():
        print(f"{references}: missing", file=sys.stderr)
        return 1
    known = anchors(references)
    broken = 0
    cited = 0
    cited_in = sorted((root / "configs").rglob("*.json"))
    # Code and tests cite the same page in their comments.
    for folder in ("hw", "noc", "chiplets", "mapper", "traces", "sim", "tests", "bench"):
        cited_in += sorted(p for p in (root / folder).rglob("*") if p.suffix in (".h", ".cpp", ".sh"))
    for path in cited_in:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for anchor in CITATION.findall(line):
                cited += 1
                if anchor not in known:
                    broken += 1
                    print(f"{path.relative_to(root)}:{number}: docs/references.md#{anchor}: no such anchor")
    if broken:
        print(f"{broken} of {cited} citations broken", file=sys.stderr)
        return 1
    print(f"{cited} citations, all anchors present in docs/references.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
