#!/usr/bin/env python3
"""A chat-completions server for the HTTP generator tests, on 127.0.0.1
only.  It speaks the OpenAI protocol (POST /v1/chat/completions, bearer
key, choices[0].message.content, usage) and misbehaves on purpose by a
marker in the first user turn:
  RATE    the first request gets 429 with Retry-After: 1, the next an answer
  SLOW    sleeps 30 s (the client's timeout must end it)
  BROKEN  answers 200 with a body that is not JSON
  OTHER   answers with a fixed module
  ECHO    answers with a module whose comment echoes the request's
          Authorization header, as a debugging proxy might (issue 22.7)
  ECHOERR answers 400 with an error message that echoes it
  ECHOID  answers a plain module, but echoes the header in the response's
          "model" ("proxy " + header, as bytes) and "id" ("r-" + header,
          the key's first letter as a JSON \\u escape, so that only a
          decoder sees it) and in finish_reason
  LONGWAIT  every request gets 429 with Retry-After: 86400 and a message
          that echoes the header
  REFUSE  refuses: content null and a refusal (the OpenAI API's shape)
  REASON  answers nothing (content "", finish_reason "length") after 64
          reasoning tokens, as a reasoning model out of max tokens does
  CACHED  answers from a dated snapshot with cached prompt tokens and
          reasoning tokens in the usage's details
  MSWAIT  the first request gets 429 with Retry-After: 5 and
          retry-after-ms: 200, the next an answer
  ESC400  answers 400 with {"detail": "bad key " + the key with every
          character a JSON \\u escape + ", again: " + the key escaped
          twice (\\\\u0073...)}: no error.message, so the body is what
          is shown
  ESC500  the same body with 500, to every request (so a retry line)
  OBJMSG  answers 400 with an error.message that is an object, the key
          escaped in one of its values and in one of its keys
  BADJSON answers 400 with a body that is not JSON (cut short) holding
          the key as JSON escapes, percent-encoded and as HTML references
  FORMS   answers a module whose comments hold the key in forms a second
          look found unredacted: 2-digit octal (\\55), HTML references
          with leading zeros (&#000000115; &#x000000073;), \\N{...},
          \\x{...}, CSS's \\73 and %u0073, one a line
  HDR[NAME: VALUE]  every request gets 429 with that header (a
          Retry-After to test), and a message that echoes the header
  NO_N    "n" above 1 gets 400, as llama.cpp's server answers it
  IGNORE_N  answers one choice whatever n asks
Otherwise the answer has n choices (the request's "n", default 1), the
first the answer file's text, choice i that text and "// choice i".
Each request body is appended to $SERVER_LOG with its arrival time; a
body without model or messages, with a temperature that is no number,
or with a wrong key, gets 400 (a request without a temperature takes the
server's default, as the API has it).
Prints its port on stdout, then serves until killed (at most 120 s).
"""
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = os.environ["SERVER_KEY"]
LOG = os.environ["SERVER_LOG"]
ANSWER = open(os.environ["SERVER_ANSWER"]).read()
seen_rate = [0]
seen_ratems = [0]
served = [0]
id_lock = threading.Lock()


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, code, body, headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(n)
        with open(LOG, "a") as f:
            f.write(json.dumps({"path": self.path,
                                "auth": self.headers.get("Authorization"),
                                "t": time.monotonic(),
                                "body": raw.decode()}) + "\n")
        if self.path != "/v1/chat/completions":
            return self.reply(404, '{"error":{"message":"no such path"}}')
        if self.headers.get("Authorization") != "Bearer " + KEY:
            return self.reply(401, '{"error":{"message":"bad key"}}')
        try:
            req = json.loads(raw)
            assert isinstance(req["model"], str)
            # optional, as in the API: unset, the server's default
            assert isinstance(req.get("temperature", 1), (int, float))
            msgs = req["messages"]
            assert msgs[0]["role"] == "system" and msgs[1]["role"] == "user"
        except Exception as e:  # noqa: BLE001 - any malformed body
            return self.reply(400, json.dumps({"error": {"message": "bad request: %r" % e}}))
        text = msgs[1]["content"]
        if "RATE" in text and seen_rate[0] == 0:
            seen_rate[0] += 1
            return self.reply(429, '{"error":{"message":"slow down"}}',
                              [("Retry-After", "1")])
        if "MSWAIT" in text and seen_ratems[0] == 0:
            seen_ratems[0] += 1
            return self.reply(429, '{"error":{"message":"slow down"}}',
                              [("Retry-After", "5"), ("retry-after-ms", "200")])
        if "SLOW" in text:
            time.sleep(30)
            return self.reply(200, "{}")
        if "BROKEN" in text:
            return self.reply(200, "this is not json")
        auth = self.headers.get("Authorization")
        if "ECHOERR" in text:
            return self.reply(400, json.dumps({"error": {
                "message": "bad request; you sent Authorization: %s" % auth}}))
        if "LONGWAIT" in text:
            return self.reply(429, json.dumps({"error": {
                "message": "slow down, %s" % auth}}), [("Retry-After", "86400")])
        def esc(k):
            return "".join("\\u%04x" % ord(c) for c in k)
        if "ESC400" in text or "ESC500" in text:
            body = '{"detail":"bad key %s, again: %s"}' % (
                esc(KEY), esc(KEY).replace("\\", "\\\\"))
            return self.reply(400 if "ESC400" in text else 500, body)
        if "OBJMSG" in text:
            body = '{"error":{"message":{"text":"%s","%s":1}}}' % (esc(KEY), esc(KEY))
            return self.reply(400, body)
        if "BADJSON" in text:
            pct = "".join("%%%02X" % ord(c) for c in KEY)
            ent = "".join("&#%d;" % ord(c) for c in KEY)
            return self.reply(400, '{"error": "bad key %s %s %s' % (esc(KEY), pct, ent))
        if "FORMS" in text:
            k1 = KEY[1:]
            forms = ["sk\\55" + KEY[3:], "&#000000115;" + k1,
                     "&#x000000073;" + k1, "\\N{LATIN SMALL LETTER S}" + k1,
                     "\\x{73}" + k1, "\\73 " + k1, "%u0073" + k1]
            body = {"id": "forms", "object": "chat.completion", "model": req["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content":
                                             "".join("// %s\n" % f for f in forms) + ANSWER}}]}
            return self.reply(200, json.dumps(body))
        hdr = re.search(r"HDR\[([^:\]]+): ([^\]]*)\]", text)
        if hdr:
            return self.reply(429, json.dumps({"error": {
                "message": "slow down, %s" % auth}}), [(hdr.group(1), hdr.group(2))])
        if "ECHOID" in text:
            body = {"id": "r-@ID@", "object": "chat.completion",
                    "model": "proxy " + auth,
                    "choices": [{"index": 0, "finish_reason": "stop " + auth,
                                 "message": {"role": "assistant", "content": ANSWER}}],
                    "usage": {"prompt_tokens": 42, "completion_tokens": 7,
                              "total_tokens": 49}}
            esc = auth.replace(KEY, "\\u%04x" % ord(KEY[0]) + KEY[1:])
            return self.reply(200, json.dumps(body).replace("@ID@", esc))
        if "ECHO" in text:
            body = {"id": "x", "object": "chat.completion", "model": req["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content":
                                             "// request headers: Authorization: %s\n%s"
                                             % (auth, ANSWER)}}]}
            return self.reply(200, json.dumps(body))
        n = req.get("n", 1)
        if "NO_N" in text and n != 1:
            return self.reply(400, json.dumps({"error": {
                "code": 400, "type": "invalid_request_error",
                "message": "Only one completion choice is allowed"}}))
        if "IGNORE_N" in text:
            n = 1
        usage = {"prompt_tokens": 42, "completion_tokens": 7 * n,
                 "total_tokens": 42 + 7 * n}
        model = req["model"]
        choices = [{"index": i, "finish_reason": "stop",
                    "message": {"role": "assistant", "refusal": None,
                                "content": ANSWER + ("// choice %d\n" % i if i else "")}}
                   for i in range(n)]
        if "REFUSE" in text:
            choices = [{"index": 0, "finish_reason": "stop",
                        "message": {"role": "assistant", "content": None,
                                    "refusal": "I can't help with that request."}}]
        elif "REASON" in text:
            choices = [{"index": 0, "finish_reason": "length",
                        "message": {"role": "assistant", "content": ""}}]
            usage = {"prompt_tokens": 42, "completion_tokens": 64, "total_tokens": 106,
                     "completion_tokens_details": {"reasoning_tokens": 64}}
        elif "CACHED" in text:
            model = req["model"] + "-2026-01-01"
            usage = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200,
                     "prompt_tokens_details": {"cached_tokens": 600},
                     "completion_tokens_details": {"reasoning_tokens": 150}}
        with id_lock:
            served[0] += 1
            rid = "chatcmpl-test-%d" % served[0]
        body = {"id": rid, "object": "chat.completion",
                "model": model, "choices": choices, "usage": usage}
        return self.reply(200, json.dumps(body))


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
threading.Timer(120, srv.shutdown).start()
srv.serve_forever()
