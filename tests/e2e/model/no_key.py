#!/usr/bin/env python3
"""no_key.py KEY FILE... - exit 1, naming the files, when a file holds
KEY in any form assay's redaction catches (docs/security.md, "Secrets"):
its bytes, or its bytes decoded up to 4 times over by JSON, C and Python
backslash escapes (\\uXXXX with surrogate pairs, \\UXXXXXXXX, \\xHH,
\\NNN, \\/ and friends), percent-encoding and HTML references.  A
decoder of its own, written from those formats' specifications and
not from assay's code, so that a form assay misses is caught here."""
import html
import re
import sys
import urllib.parse

BACKSLASH = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[0-3][0-7]{2}|[/\"\\'bfnrt])")
SIMPLE = {"/": "/", '"': '"', "\\": "\\", "'": "'", "b": "\b", "f": "\f",
          "n": "\n", "r": "\r", "t": "\t"}


def unbackslash(s):
    def one(m):
        e = m.group(1)
        if e[0] in "uU":
            return chr(int(e[1:], 16)) if int(e[1:], 16) <= 0x10FFFF else m.group(0)
        if e[0] == "x":
            return chr(int(e[1:], 16))
        if e[0].isdigit():
            return chr(int(e, 8))
        return SIMPLE[e]
    s = BACKSLASH.sub(one, s)
    # a surrogate pair decoded as two code points is one character
    return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def forms(text):
    yield text
    for _ in range(4):
        text = html.unescape(urllib.parse.unquote(unbackslash(text),
                                                  errors="surrogateescape"))
        yield text


key = sys.argv[1]
bad = []
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        text = f.read().decode("latin-1")
    # bytes read as latin-1 keep an ASCII key whole; decoded escapes
    # give characters, so both readings are searched
    if any(key in t for t in forms(text)) or \
            any(key in t for t in forms(text.encode("latin-1").decode("utf-8", "replace"))):
        bad.append(path)
if bad:
    print("the key, plain or escaped, in: " + " ".join(bad))
    sys.exit(1)
