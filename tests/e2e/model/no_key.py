#!/usr/bin/env python3
"""no_key.py KEY FILE... - exit 1, naming the files, when a file holds
KEY in any form assay's redaction catches (docs/security.md, "Secrets"):
its bytes, or its bytes decoded up to 4 times over by
- backslash escapes as C, Python, JSON, JavaScript, Rust and Perl read
  them: \\uXXXX with surrogate pairs, \\u{H..}, \\UXXXXXXXX, \\xHH and C's
  \\xH.. (every hex digit), \\x{H..}, \\o{O..}, octal of 1 to 3 digits,
  \\N{NAME} (any Unicode name Python knows) and \\N{U+H..}, the one-letter
  escapes, a backslash before a line end (nothing), any other character
  for itself;
- CSS escapes: a backslash, 1 to 6 hex digits and one optional white
  space (which C reads differently: both readings are tried);
- percent-encoding (%HH, %uXXXX) and HTML references (Python's
  html.unescape: leading zeros, the ';' optional, every named one).
A decoder of its own, written from those formats' specifications and
not from assay's code, so that a form assay misses is caught here."""
import html
import re
import sys
import unicodedata
import urllib.parse

C_ESC = re.compile(r"""\\(?:
    (?P<nl>\r\n|[\n\r\f])
  | u(?P<u4>[0-9a-fA-F]{4})
  | U(?P<u8>[0-9a-fA-F]{8})
  | [xuo]\{[ \t]*(?P<br>[0-9a-fA-F]+)[ \t]*\}
  | N\{(?P<name>[^}\\]{1,64})\}
  | x(?P<x>[0-9a-fA-F]+)
  | (?P<oct>[0-7]{1,3})
  | (?P<ch>[\s\S]))""", re.X)
CSS_ESC = re.compile(r"\\(?:(\r\n|[\n\r\f])|([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|([\s\S]))")
ONE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "a": "\a"}
PCT_U = re.compile(r"%[uU]([0-9a-fA-F]{4})")


def cp(v, whole):
    return chr(v) if 0 <= v <= 0x10FFFF else whole


def c_reading(s, hex_all):
    def one(m):
        g = m.groupdict()
        if g["nl"] is not None:
            return ""
        if g["u4"] or g["u8"]:
            return cp(int(g["u4"] or g["u8"], 16), m.group(0))
        if g["br"]:
            base = 8 if m.group(0)[1] == "o" else 16
            try:
                return cp(int(g["br"], base), m.group(0))
            except ValueError:
                return m.group(0)
        if g["name"]:
            n = g["name"]
            if n[:2].upper() == "U+":
                try:
                    return cp(int(n[2:], 16), m.group(0))
                except ValueError:
                    return m.group(0)
            try:
                return unicodedata.lookup(n)
            except KeyError:
                return m.group(0)
        if g["x"]:
            # Python takes two digits; C every one that follows
            return cp(int(g["x"], 16), m.group(0)) if hex_all else \
                chr(int(g["x"][:2], 16)) + g["x"][2:] if len(g["x"]) >= 2 else m.group(0)
        if g["oct"]:
            return chr(int(g["oct"], 8))
        return ONE.get(g["ch"], g["ch"])
    s = C_ESC.sub(one, s)
    # a surrogate pair decoded as two code points is one character
    return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def css_reading(s):
    def one(m):
        if m.group(1) is not None:
            return ""
        if m.group(2):
            return cp(int(m.group(2), 16), m.group(0))
        return m.group(3)
    return CSS_ESC.sub(one, s)


def rest(s):
    s = PCT_U.sub(lambda m: chr(int(m.group(1), 16)), s)
    return html.unescape(urllib.parse.unquote(s, errors="surrogateescape"))


def forms(text):
    level = {text}
    yield text
    for _ in range(4):
        nxt = set()
        for t in level:
            for d in (c_reading(t, False), c_reading(t, True), css_reading(t)):
                nxt.add(rest(d))
        level = nxt
        yield from level


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
