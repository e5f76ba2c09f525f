"""dedup_synth.py - the synthetic set of bench/dedup-recall.sh (issue 25,
item 6): N samples made from real ones by edits.

    python3 dedup_synth.py RAW.jsonl N SEED > SYNTH.jsonl

RAW.jsonl is `assay export --format raw` of the shared RTLFixer rows.
Each synthetic sample takes the code of a real one, chosen at random,
and makes K edits to its tokens, K drawn from 0 to 15 with small
numbers likelier, so that the pairs of a family spread over the whole
range of similarity around the threshold.  An edit is one of:

  rename      one identifier renamed everywhere it occurs
  substitute  one token replaced (a name by another name of the file, a
              number by another number, an operator by another)
  delete      one token deleted
  insert      one token (a name of the file or an operator) inserted
  line        one line deleted or repeated

Each sample is written as a row of the assay JSONL for its source's
task, origin "synth", with a last comment line "// synth I" so that its
identity is its own (a comment is no token: two samples whose edits gave
the same code are exact copies for dedup).  Deterministic for a SEED.
"""
import json
import random
import re
import sys

TOKEN = re.compile(r"\s+|//[^\n]*|/\*.*?\*/|[A-Za-z_][A-Za-z0-9_$]*"
                   r"|\d+'[sS]?[bBoOdDhH][0-9a-fA-FxXzZ_?]+|\d+|\S", re.S)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*$")
KEYWORDS = set("""module endmodule input output inout wire reg logic assign
always always_comb always_ff begin end if else case casez casex endcase
default posedge negedge or and not parameter localparam integer for while
generate endgenerate genvar initial function endfunction task endtask
signed unsigned""".split())
OPERATORS = ["+", "-", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":"]
COUNTS = [0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 10, 12, 15]


def names(toks):
    return sorted({t for t in toks if NAME.match(t) and t not in KEYWORDS})


def edit(code, k, rnd):
    toks = TOKEN.findall(code)
    for _ in range(k):
        solid = [i for i, t in enumerate(toks) if not t.isspace()
                 and not t.startswith("//") and not t.startswith("/*")]
        if not solid:
            break
        op = rnd.choice(["rename", "substitute", "substitute", "delete",
                         "insert", "line"])
        ns = names(toks)
        if op == "rename" and ns:
            old, new = rnd.choice(ns), "n%d" % rnd.randrange(1000)
            toks = [new if t == old else t for t in toks]
        elif op == "substitute":
            i = rnd.choice(solid)
            t = toks[i]
            if NAME.match(t) and t not in KEYWORDS and len(ns) > 1:
                toks[i] = rnd.choice([n for n in ns if n != t])
            elif t.isdigit():
                toks[i] = str(int(t) + rnd.randrange(1, 9))
            else:
                toks[i] = rnd.choice(OPERATORS)
        elif op == "delete":
            del toks[rnd.choice(solid)]
        elif op == "insert":
            i = rnd.choice(solid)
            ins = rnd.choice(ns) if ns and rnd.random() < 0.5 else \
                rnd.choice(OPERATORS)
            toks[i:i] = [ins, " "]
        else:
            lines = "".join(toks).split("\n")
            j = rnd.randrange(len(lines))
            if rnd.random() < 0.5 and len(lines) > 1:
                del lines[j]
            else:
                lines.insert(j, lines[j])
            toks = TOKEN.findall("\n".join(lines))
    return "".join(toks)


def main():
    src, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rows = []
    with open(src) as f:
        for line in f:
            r = json.loads(line)
            c = r.get("candidate")
            if not c or not c.get("code"):
                continue
            t = r["task"]
            rows.append((t["id"] if isinstance(t, dict) else t, c))
    rows.sort(key=lambda x: x[1]["id"])
    rnd = random.Random(seed)
    out = sys.stdout
    for i in range(n):
        task, c = rnd.choice(rows)
        code = edit(c["code"], rnd.choice(COUNTS), rnd)
        if not code.endswith("\n"):
            code += "\n"
        row = {"task": task, "candidate": {
            "origin": "synth", "kind": "direct",
            "lang": c.get("lang", "verilog"),
            "code": code + "// synth %d\n" % i}}
        out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
