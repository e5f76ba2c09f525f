#!/usr/bin/env python3
"""A deterministic model for the feedback-level test (198): it repairs a
candidate only when the repair request tells it where the time goes.

Reads a chat-completions request on stdin.  The task is found by a marker
string in the first user turn (answers.json, $HOTFIX_ANSWERS:
{"marker": {"fix": CODE, "again": CODE, "hot": [LINE, ...]}}).  When the
last user turn (the toolchain's feedback on the code being repaired)
names every one of the task's hot lines (callgrind's, as "line N" or
"lines N, M and K", in whatever section) it answers "fix", else "again"
(the failed code once more, reworded: it fails the same way): it keys
on the information, not on a heading.  Every request is appended to
$HOTFIX_LOG.
"""
import json
import os
import re
import sys

req = json.load(sys.stdin)
msgs = req["messages"]
with open(os.environ["HOTFIX_ANSWERS"]) as f:
    answers = json.load(f)
log = os.environ.get("HOTFIX_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps(req) + "\n")
feedback = msgs[-1]["content"] if msgs[-1]["role"] == "user" else ""
named = set()
for words in re.findall(r"\blines? (\d+(?:(?:, | and )\d+)*)", feedback):
    named.update(int(n) for n in re.findall(r"\d+", words))
for marker, a in answers.items():
    if marker in msgs[1]["content"]:
        sys.stdout.write(a["fix"] if set(a["hot"]) <= named else a["again"])
        break
else:
    sys.stderr.write("hotfix: no answer for this task\n")
    sys.exit(3)
