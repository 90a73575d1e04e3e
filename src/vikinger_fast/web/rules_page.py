"""The rules (docs/rules.md) as a page of `vikinger serve`, GET /rules: every rule id is an anchor
(/rules#B7.2.3), so the page's rule ids link straight to their text.

docs/rules.md is plain markdown of a few kinds (headings, paragraphs, nested lists, tables,
bold, italics, code, links); this turns exactly those into HTML, escaping everything else, so the
page needs no markdown package. A rule id's anchor sits on the list item or heading that defines
it; the numbered steps of B7.2 are B7.2.1 to B7.2.6.
"""

import html
import os
import re
from typing import List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
# A wheel carries a copy (CMakeLists.txt installs docs/rules.md beside this package); an editable
# install or a checkout reads the docs folder itself.
RULES_FILES = (
    os.path.join(HERE, "..", "rules.md"),
    os.path.join(HERE, "..", "..", "..", "docs", "rules.md"),
)
RULE_ID = re.compile(r"^(?:\*\*)?((?:B|A)\d+(?:\.\d+[a-z]?)*)\b")
INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)]+)\)")
LIST_ITEM = re.compile(r"^(\s*)(-|\d+\.) (.*)$")
STYLE = """body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;max-width:900px;margin:20px auto;
padding:0 14px;line-height:1.45;background:#f3efe6;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 8px;vertical-align:top}code{background:#ece6d8;
padding:0 3px}:target{background:#fff1b8}a.back{float:right}"""


def rules_markdown() -> str:
    for path in RULES_FILES:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as source:
                return source.read()
    raise FileNotFoundError("docs/rules.md is not installed with the package")


def inline(text: str) -> str:
    """Escape `text` and turn its code, bold, italics and links into HTML."""
    out, last = [], 0
    for match in INLINE.finditer(text):
        out.append(html.escape(text[last : match.start()]))
        code, bold, italic, label, target = match.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        elif italic is not None:
            out.append(f"<em>{inline(italic)}</em>")
        else:
            out.append(f'<a href="{html.escape(_link(target))}">{inline(label)}</a>')
        last = match.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _link(target: str) -> str:
    """Links inside rules.md stay on this page; other docs are files of the repository."""
    return target if target.startswith(("#", "http")) else "#"


def _slug(heading: str) -> str:
    """The anchor a markdown renderer gives a heading: lower case, spaces to hyphens, other
    punctuation dropped ("R — The rulings, and why" -> "r--the-rulings-and-why")."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


class _Writer:
    def __init__(self) -> None:
        self.out: List[str] = []
        self.lists: List[tuple] = []  # (indent, tag, the rule id it belongs to) of open lists
        self.item_text: List[str] = []  # the list item being read (it runs over lines)
        self.ids: set = set()
        self.paragraph: List[str] = []
        self.table: List[List[str]] = []
        self.rule = ""  # the last rule id defined, for the numbered steps under it

    def close_item(self) -> None:
        if self.item_text:
            self.out.append(inline(" ".join(self.item_text)))
            self.item_text = []

    def close_paragraph(self) -> None:
        self.close_item()
        if self.paragraph:
            self.out.append(f"<p>{inline(' '.join(self.paragraph))}</p>")
            self.paragraph = []

    def close_lists(self, indent: int = -1) -> None:
        while self.lists and self.lists[-1][0] > indent:
            self.out.append(f"</li></{self.lists.pop()[1]}>")

    def close_table(self) -> None:
        if not self.table:
            return
        head, *rows = [r for r in self.table if not set("".join(r)) <= set("-: ")]
        self.out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr>")
        for row in rows:
            self.out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
        self.out.append("</table>")
        self.table = []

    def close_all(self) -> None:
        self.close_paragraph()
        self.close_lists()
        self.close_table()

    def item(self, indent: int, marker: str, text: str) -> None:
        tag = "ol" if marker[0].isdigit() else "ul"
        self.close_item()
        if self.lists and self.lists[-1][0] == indent:
            self.out.append("</li>")
        elif not self.lists or self.lists[-1][0] < indent:
            self.out.append(f"<{tag}>")
            self.lists.append((indent, tag, self.rule))
        else:
            self.close_lists(indent)
            self.out.append("</li>")
        anchor = self._anchor(marker, text)
        self.out.append(f"<li{anchor}>")
        self.item_text = [text]

    def _anchor(self, marker: str, text: str) -> str:
        match = RULE_ID.match(text)
        if match:
            self.rule = match.group(1)
            return self.anchor(self.rule)
        if marker[0].isdigit() and self.lists[-1][2] == "B7.2":
            return self.anchor(f"B7.2.{marker[:-1]}")
        return ""

    def anchor(self, rule: str) -> str:
        """The id attribute of the first place that defines `rule` (later mentions get none)."""
        if rule in self.ids:
            return ""
        self.ids.add(rule)
        return f' id="{rule}"'


def rules_html(markdown: Optional[str] = None) -> str:
    """The whole page."""
    writer = _Writer()
    lines = (rules_markdown() if markdown is None else markdown).splitlines()
    for line in lines:
        item = LIST_ITEM.match(line)
        if line.startswith("#"):
            writer.close_all()
            level = len(line) - len(line.lstrip("#"))
            text = line[level:].strip()
            match = RULE_ID.match(text)
            # a heading without a rule id keeps the anchor its links use ("#r--the-rulings-...")
            anchor = writer.anchor(match.group(1) if match else _slug(text))
            writer.out.append(f"<h{level}{anchor}>{inline(text)}</h{level}>")
        elif line.startswith("|"):
            writer.close_paragraph()
            writer.close_lists()
            writer.table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif item:
            writer.close_paragraph()
            writer.close_table()
            writer.item(len(item.group(1)), item.group(2), item.group(3))
        elif not line.strip() or line.strip() == "---":
            writer.close_paragraph()
            writer.close_table()
            if line.strip() == "---":
                writer.close_lists()
                writer.out.append("<hr>")
        elif writer.item_text and line.startswith(" "):
            writer.item_text.append(line.strip())  # the list item goes on
        else:
            writer.close_lists()
            writer.paragraph.append(line.strip())
    writer.close_all()
    # An id without its own anchor (a sub-step) opens at the nearest rule that has one; an
    # anchor that is not valid percent-encoding (/rules#%E0%A4%A) is ignored, not an error.
    script = (
        "<script>let h='';try{h=decodeURIComponent(location.hash.slice(1));}catch(e){}"
        "if(h&&!document.getElementById(h)){let p=h;while(p.includes('.')&&"
        "!document.getElementById(p))p=p.slice(0,p.lastIndexOf('.'));"
        "const e=document.getElementById(p);if(e)e.scrollIntoView();}</script>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<link rel="icon" href="data:,">'  # no favicon request, as the game's page
        f"<title>Wikinger: the rules</title><style>{STYLE}</style></head><body>"
        '<a class="back" href="/">back to the game</a>\n'
        + "\n".join(writer.out)
        + script
        + "</body></html>\n"
    )
