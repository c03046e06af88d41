#!/usr/bin/env python3
"""A tiny HTTP server for ScoreFeed's webhook tests, with injected faults.

Binds 127.0.0.1 (port 0 picks a free one), prints "PORT <n>" on stdout once listening, and
answers every POST as its fault plan says. Each request is appended to --log as one JSON line:
{"n": 1, "path": "/push", "key": <Idempotency-Key>, "authorization": ..., "action": "500",
 "body": "<the request body>"}.

Fault plan: --script gives the actions of requests 1, 2, 3, ... of this process; after it runs
out, --cycle repeats (default: always 200). Actions:
  200 | 400 | 500 | 503 ...  answer with that status
  429:N | 503:N ...         that status with "Retry-After: N" (seconds)
  429d:N                    429 with "Retry-After: <HTTP date N seconds from now>"
  slow:S                    wait S seconds, then 200 (the client should time out first)
  drop                      close the connection without answering
  huge                      200 with a 1 GB body of spaces, generated as it is sent (the client
                            should stop reading at its cap)
  endless                   the same without a Content-Length (the body ends when the connection
                            does): only what arrives tells the cap is passed
With --token T, a request without "Authorization: Bearer T" gets 401.

Stop it with SIGTERM. Python 3.7+ standard library only.
"""
import email.utils
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from server_support import fault_server_arguments, send_json, serve


def main():
    parser = fault_server_arguments(__doc__)
    parser.add_argument("--token", default=None)
    args = parser.parse_args()
    script = [a for a in args.script.split(",") if a]
    cycle = [a for a in args.cycle.split(",") if a] or ["200"]
    lock = threading.Lock()
    state = {"n": 0}

    def action_for(n):
        if n <= len(script):
            return script[n - 1]
        return cycle[(n - len(script) - 1) % len(cycle)]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            authorization = self.headers.get("Authorization")
            with lock:
                state["n"] += 1
                n = state["n"]
                action = action_for(n)
                if args.token is not None and authorization != "Bearer " + args.token:
                    action = "401"
                entry = {
                    "n": n, "path": self.path, "key": self.headers.get("Idempotency-Key"),
                    "contentType": self.headers.get("Content-Type"), "authorization": authorization,
                    "action": action, "body": body.decode("utf-8", "replace"),
                }
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps(entry) + "\n")
            self.act(action)

        def act(self, action):
            try:
                if action == "drop":
                    self.close_connection = True
                    return
                headers = {}
                if action in ("huge", "endless"):
                    self.close_connection = True
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    if action == "huge":
                        self.send_header("Content-Length", str(1 << 30))
                    self.end_headers()
                    chunk = b" " * (1 << 16)
                    for _ in range((1 << 30) // len(chunk)):
                        self.wfile.write(chunk)
                    return
                if action.startswith("slow:"):
                    time.sleep(float(action[5:]))
                    status = 200
                elif action.startswith("429d:"):
                    status = 429
                    headers["Retry-After"] = email.utils.formatdate(time.time() + float(action[5:]), usegmt=True)
                elif ":" in action and action.split(":", 1)[0].isdigit():
                    code, after = action.split(":", 1)
                    status = int(code)
                    headers["Retry-After"] = after
                else:
                    status = int(action)
                reply = b'{"ok":true}' if status < 300 else b'{"ok":false}'
                send_json(self, status, headers, reply)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and left

        def log_message(self, format, *args):
            pass

    serve(Handler, args.port)

if __name__ == "__main__":
    main()
