#!/usr/bin/env python3
"""Checks distsec HTML pages and prints what a reader sees of them.

htmlcheck.py PAGE...

Each page is parsed twice: as XML (xml.etree: the markup is well-formed, so
a hostile string that closed an element or an attribute breaks the parse)
and with html.parser, as a browser tokenizes it.  A page fails when it has
an element or an attribute outside the few the report uses (no script, no
img, no on* handler, no style attribute), a link that leaves the report
(a scheme, an absolute path) or leads nowhere (a file that does not exist,
an anchor the page lacks), or no Content-Security-Policy.  Then it prints,
per page, one line per heading, paragraph, list item, summary, table row
(cells joined by ' | ') and chart bar, with its text as rendered, so a test
can assert exact content.  Exits 1 with the reason on the first failure."""
import html.parser
import os
import sys
import urllib.parse
import xml.etree.ElementTree as ET

ELEMENTS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "code", "table",
    "thead", "tbody", "tr", "th", "td", "a", "span", "section", "details", "summary", "pre",
    "ul", "li", "svg", "rect", "text",
}
ATTRIBUTES = {
    "lang", "charset", "http-equiv", "content", "name", "href", "class", "id", "xmlns", "width",
    "height", "viewbox", "role", "aria-label", "x", "y", "fill", "font-size", "text-anchor",
    "font-family",
}
LINES = {"h1", "h2", "h3", "p", "li", "summary", "tr", "title"}


class Page(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.ids, self.links, self.out, self.stack = set(), [], [], []
        self.csp = False
        self.cur = None      # [tag, [text parts], [cells]] of the line being read
        self.cell = None

    def error(self, why):
        sys.exit("%s: %s" % (self.path, why))

    def handle_starttag(self, tag, attrs):
        if tag not in ELEMENTS:
            self.error("element <%s>" % tag)
        for k, v in attrs:
            if k not in ATTRIBUTES:
                self.error("attribute %s=%r on <%s>" % (k, v, tag))
            if k == "id":
                self.ids.add(v)
            if k == "href":
                self.links.append(v)
            if k == "http-equiv" and v == "Content-Security-Policy":
                self.csp = dict(attrs).get("content", "").startswith("default-src 'none'")
        if tag == "title" and self.stack and self.stack[-1] == "rect":
            self.cur = ["bar", [], None]
        elif tag in LINES and self.cur is None:
            self.cur = [tag, [], [] if tag == "tr" else None]
        elif tag in ("td", "th") and self.cur and self.cur[2] is not None:
            self.cell = []
        self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.error("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()
        if tag in ("td", "th") and self.cell is not None:
            self.cur[2].append("".join(self.cell).strip())
            self.cell = None
        elif self.cur and (tag == self.cur[0] or (self.cur[0] == "bar" and tag == "title")):
            name, parts, cells = self.cur
            text = " | ".join(cells) if cells is not None else "".join(parts).strip()
            if name != "title" or self.stack[-1] == "head":
                self.out.append("%s: %s" % (name, text))
            self.cur = None

    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("style",):
            return
        if self.cell is not None:
            self.cell.append(data)
        elif self.cur:
            self.cur[1].append(data)


def check(path):
    try:
        ET.parse(path)
    except ET.ParseError as e:
        sys.exit("%s: not well-formed: %s" % (path, e))
    p = Page(path)
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    if p.stack:
        p.error("unclosed <%s>" % p.stack[-1])
    if not p.csp:
        p.error("no Content-Security-Policy forbidding scripts and fetches")
    for href in p.links:
        u = urllib.parse.urlsplit(href)
        if u.scheme or u.netloc or href.startswith("/"):
            p.error("link out of the report: %r" % href)
        if u.path:
            target = os.path.join(os.path.dirname(path), urllib.parse.unquote(u.path))
            if not os.path.isfile(target):
                p.error("link to a missing page: %r" % href)
        elif u.fragment not in p.ids:
            p.error("link to a missing anchor: %r" % href)
    print("== %s" % path)
    for line in p.out:
        print(line)


for page in sys.argv[1:]:
    check(page)
