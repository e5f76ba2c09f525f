#!/usr/bin/env python3
"""A deterministic model for the model-loop tests: reads a chat-completions
request on stdin and answers from answers.json (beside the request's cwd or
$FIXER_ANSWERS), keyed by a marker string found in the first user turn.

answers.json: {"marker": ["answer of round 0 (generate) or 1", "round 2", ...]}
The round is the number of assistant turns already in the conversation:
0 for a direct request, 1 for the first repair, 2 for the second ...
With FIXER_RESPONSE=json the answer is wrapped in a chat-completions
response object with usage, as a server would send it.
"""
import json
import os
import sys

req = json.load(sys.stdin)
with open(os.environ["FIXER_ANSWERS"]) as f:
    answers = json.load(f)
msgs = req["messages"]
assert msgs[0]["role"] == "system", msgs[0]
assert msgs[1]["role"] == "user", msgs[1]
# Roles alternate after the system turn, feedback being a user turn.
for i, m in enumerate(msgs[1:]):
    assert m["role"] == ("user" if i % 2 == 0 else "assistant"), msgs
rounds = sum(1 for m in msgs if m["role"] == "assistant")
log = os.environ.get("FIXER_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps(req) + "\n")
for marker, seq in answers.items():
    if marker in msgs[1]["content"]:
        text = seq[min(rounds, len(seq) - 1)]
        break
else:
    sys.stderr.write("fixer: no answer for this task\n")
    sys.exit(3)
if os.environ.get("FIXER_RESPONSE") == "json":
    json.dump({"choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text}}],
               "usage": {"prompt_tokens": 100 + rounds,
                         "completion_tokens": len(text.split())}},
              sys.stdout)
else:
    sys.stdout.write(text)
