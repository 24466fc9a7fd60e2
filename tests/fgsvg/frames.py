#!/usr/bin/env python3
"""frames.py FILE.svg: print one line per frame of an fgsvg or flamegraph.pl
SVG: NAME|X|Y|WIDTH|HEIGHT, sorted. A frame is an element with a <title> and
a <rect> child; NAME is the title without its " (N samples, ...)" tail.
Also checks that the file parses as XML (exit 1 if not)."""
import re, sys
import xml.etree.ElementTree as ET

def local(tag):
    return tag.rsplit('}', 1)[-1]

def frames(path):
    out = []
    for el in ET.parse(path).iter():
        kids = {local(k.tag): k for k in reversed(list(el))}
        if 'title' not in kids or 'rect' not in kids:
            continue
        t = ''.join(kids['title'].itertext())
        m = re.match(r'^(.*) \(([\d,.]+) [^()]*\)$', t, re.S)
        r = kids['rect']
        out.append('%s|%s|%s|%s|%s' % (m.group(1) if m else t, r.get('x'),
                   r.get('y'), r.get('width'), r.get('height')))
    return sorted(out)

if __name__ == '__main__':
    try:
        for line in frames(sys.argv[1]):
            print(line)
    except ET.ParseError as e:
        sys.exit('frames.py: %s: not XML: %s' % (sys.argv[1], e))
