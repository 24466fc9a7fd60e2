#!/usr/bin/env python3
# xmlsafe.py BASE.svg HOSTILE.svg: fails unless HOSTILE.svg is well-formed
# XML (xml.etree) and holds nothing that BASE.svg, drawn from the same
# stacks with harmless names, does not: no element or attribute of a new
# kind, no more <script> elements, the same script text, no javascript:
# link, no event-handler attribute. Names may change text, never markup.
import json
import re
import sys
import xml.etree.ElementTree as ET


def load(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        sys.exit("%s: not well-formed XML: %s" % (path, e))


def shape(root):
    kinds, scripts = set(), []
    for e in root.iter():
        kinds.add((e.tag, frozenset(e.attrib)))
        if e.tag.endswith("}script") or e.tag == "script":
            scripts.append(e.text or "")
    return kinds, scripts


def names(scripts):
    """Takes the names of the grey frames' contents (fgcfg's N:[...], a JSON
    array since every ']' in a name is escaped) out of the script text; any
    name that broke out of its string makes that fail."""
    out, lists = [], []
    for s in scripts:
        m = re.search(r", N:\[([^\]]*)\]\};", s)
        if m:
            try:
                n = json.loads("[" + m.group(1) + "]")
            except ValueError as e:
                sys.exit("fgcfg.N is not a JSON array of strings: %s" % e)
            if not all(isinstance(x, str) for x in n):
                sys.exit("fgcfg.N holds a non-string")
            lists.append(n)
            s = s[:m.start()] + ", N:[%d names]};" % len(n) + s[m.end():]
        out.append(s)
    return out, lists


base, hostile = load(sys.argv[1]), load(sys.argv[2])
bk, bs = shape(base)
hk, hs = shape(hostile)
bs, bn = names(bs)
hs, hn = names(hs)
bad = 0
for k in sorted(hk - bk, key=str):
    print("new element or attribute set: %s %s" % (k[0], sorted(k[1])))
    bad = 1
if bs != hs:
    print("the script differs from the harmless SVG's (%d vs %d elements)"
          % (len(hs), len(bs)))
    bad = 1
base_attrs = {(n, v) for e in base.iter() for n, v in e.attrib.items()}
for e in hostile.iter():
    for n, v in e.attrib.items():
        local = n.split("}")[-1]
        if v.strip().lower().startswith("javascript:"):
            print("javascript: link in %s=%r" % (n, v))
            bad = 1
        if local.lower().startswith("on") and (n, v) not in base_attrs:
            print("event handler %s=%r" % (n, v))
            bad = 1
sys.exit(bad)
