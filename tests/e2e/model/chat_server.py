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
Each request body is appended to $SERVER_LOG; a body without model,
messages or temperature, or a wrong key, gets 400.
Prints its port on stdout, then serves until killed (at most 120 s).
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = os.environ["SERVER_KEY"]
LOG = os.environ["SERVER_LOG"]
ANSWER = open(os.environ["SERVER_ANSWER"]).read()
seen_rate = [0]


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
                                "body": raw.decode()}) + "\n")
        if self.path != "/v1/chat/completions":
            return self.reply(404, '{"error":{"message":"no such path"}}')
        if self.headers.get("Authorization") != "Bearer " + KEY:
            return self.reply(401, '{"error":{"message":"bad key"}}')
        try:
            req = json.loads(raw)
            assert isinstance(req["model"], str)
            assert isinstance(req["temperature"], (int, float))
            msgs = req["messages"]
            assert msgs[0]["role"] == "system" and msgs[1]["role"] == "user"
        except Exception as e:  # noqa: BLE001 - any malformed body
            return self.reply(400, json.dumps({"error": {"message": "bad request: %r" % e}}))
        text = msgs[1]["content"]
        if "RATE" in text and seen_rate[0] == 0:
            seen_rate[0] += 1
            return self.reply(429, '{"error":{"message":"slow down"}}',
                              [("Retry-After", "1")])
        if "SLOW" in text:
            time.sleep(30)
            return self.reply(200, "{}")
        if "BROKEN" in text:
            return self.reply(200, "this is not json")
        auth = self.headers.get("Authorization")
        if "ECHOERR" in text:
            return self.reply(400, json.dumps({"error": {
                "message": "bad request; you sent Authorization: %s" % auth}}))
        if "ECHO" in text:
            body = {"id": "x", "object": "chat.completion", "model": req["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content":
                                             "// request headers: Authorization: %s\n%s"
                                             % (auth, ANSWER)}}]}
            return self.reply(200, json.dumps(body))
        body = {"id": "x", "object": "chat.completion", "model": req["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": ANSWER}}],
                "usage": {"prompt_tokens": 42, "completion_tokens": 7,
                          "total_tokens": 49}}
        return self.reply(200, json.dumps(body))


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
threading.Timer(120, srv.shutdown).start()
srv.serve_forever()
