#!/usr/bin/env python3
"""Writes the portal's subset of the Bootstrap Icons font and its CSS.

The full icon font is about 130 KB; a page uses a few dozen icons. style/icons-subset.css
declares the subset (style/fonts/bootstrap-icons-subset.woff2) for the icons the portal's
code names, and the full font for every other icon (for example a tag icon an admin picks),
each with its unicode-range, so a browser downloads the full font only for a page that shows
an icon outside the subset. Run again after using new icons:

    pip install fonttools brotli
    python3 scripts/subset-icons.py
"""
import json
import pathlib
import re

from fontTools import subset

ROOT = pathlib.Path(__file__).resolve().parent.parent
ICONS = ROOT / "islands/node_modules/bootstrap-icons/font"
SOURCES = [ROOT / "src", ROOT / "islands/src", ROOT / "style"]
OUT_FONT = ROOT / "style/fonts/bootstrap-icons-subset.woff2"
OUT_CSS = ROOT / "style/icons-subset.css"


def used_names(codepoints):
    names = set()
    for folder in SOURCES:
        for path in folder.rglob("*"):
            if path.suffix in {".rs", ".ts", ".tsx", ".css"} and path != OUT_CSS:
                names.update(re.findall(r"\bbi-([a-z0-9]+(?:-[a-z0-9]+)*)", path.read_text()))
    return sorted(n for n in names if n in codepoints)


def ranges(points):
    """`U+F101-F103, U+F10A` for a sorted list of code points."""
    spans, start, last = [], None, None
    for point in points:
        if start is None:
            start = last = point
        elif point == last + 1:
            last = point
        else:
            spans.append((start, last))
            start = last = point
    if start is not None:
        spans.append((start, last))
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in spans)


def main():
    codepoints = json.loads((ICONS / "bootstrap-icons.json").read_text())
    names = used_names(codepoints)
    used = sorted({codepoints[n] for n in names})
    rest = sorted(set(codepoints.values()) - set(used))
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.name_IDs = []
    options.notdef_outline = True
    font = subset.load_font(str(ICONS / "fonts/bootstrap-icons.woff2"), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=used)
    subsetter.subset(font)
    OUT_FONT.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(OUT_FONT), options)
    OUT_CSS.write_text(
        "/* Written by scripts/subset-icons.py: do not edit. The icons the portal uses come from a\n"
        f"   small subset font ({len(used)} icons); any other icon from the full font. Declared after\n"
        "   bootstrap-icons.css, these faces are the ones the browser checks first. */\n\n"
        "@font-face {\n"
        '  font-family: "bootstrap-icons";\n'
        "  font-display: block;\n"
        '  src: url("./fonts/bootstrap-icons-subset.woff2") format("woff2");\n'
        f"  unicode-range: {ranges(used)};\n"
        "}\n\n"
        "@font-face {\n"
        '  font-family: "bootstrap-icons";\n'
        "  font-display: block;\n"
        '  src: url("../islands/node_modules/bootstrap-icons/font/fonts/bootstrap-icons.woff2") format("woff2");\n'
        f"  unicode-range: {ranges(rest)};\n"
        "}\n"
    )
    print(f"{len(used)} icons, {OUT_FONT.stat().st_size} bytes: {OUT_FONT.relative_to(ROOT)}, {OUT_CSS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
