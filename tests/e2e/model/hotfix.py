#!/usr/bin/env python3
"""A deterministic model for the feedback-level test (198): it repairs a
candidate only when the repair request tells it where the time goes.

Reads a chat-completions request on stdin.  The task is found by a marker
string in the first user turn (answers.json, $HOTFIX_ANSWERS:
{"marker": {"fix": CODE, "again": CODE}}).  When the last user turn (the
toolchain's feedback on the code being repaired) carries the hot lines
("Hot lines:", docs/formats.md "Feedback") it answers "fix", else "again"
(the failed code once more, reworded: it fails the same way).  Every
request is appended to $HOTFIX_LOG.
"""
import json
import os
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
for marker, a in answers.items():
    if marker in msgs[1]["content"]:
        sys.stdout.write(a["fix"] if "Hot lines:" in feedback else a["again"])
        break
else:
    sys.stderr.write("hotfix: no answer for this task\n")
    sys.exit(3)
