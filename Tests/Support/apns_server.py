#!/usr/bin/env python3
"""A test server that plays APNs behind ScoreFeed's webhook, with injected faults.

Binds 127.0.0.1 (port 0 picks a free one), prints "PORT <n>" on stdout once listening, and
answers every POST (any path) as APNs would answer the record in its body, one JSON line:

  push record (no "kind")   request.path "/4/broadcasts/..." is a broadcast: 200 if
                            request.headers["apns-channel-id"] is open here, else 400
                            {"reason":"BadChannelId"}. Any other path (token mode) is 200.
  {"kind":"channel", "action":"create", "game":G, "request":{...}, "body":{...}}
                            a new channel (base64 of 16 random bytes) owned by G: 200, header
                            "apns-channel-id: <id>", body {}. 400 {"reason":"TooManyChannels"}
                            when --max-channels are already open. With --dedupe-request-ids a
                            create whose apns-request-id was seen gets the same channel back
                            (if still open); by default, like APNs, every create makes one.
  ... "action":"delete"     closes request.headers["apns-channel-id"]: 200 {}, or 404
                            {"reason":"ChannelNotRegistered"} when it is not open.
  ... "action":"list"       200 {"channels":[<the open ids>]}.
  anything else             400 {"reason":"BadRequest"} (kind "bad").

Every request is appended to --log as one JSON line, once answered:
{"n": 1, "kind": "create"|"delete"|"list"|"broadcast"|"push"|"bad", "game": ..., "channel": ...,
 "event": ..., "seq": ..., "status": 200, "reason": null, "action": "200", "key": <Idempotency-Key>,
 "t": <seconds on the server's monotonic clock when it answered>, "body": "<the request body>"}
"channel" is the request's apns-channel-id (broadcast, delete) or the id made (create); "status"
is what was answered (null when dropped).

Fault plan: --script gives the actions of requests 1, 2, 3, ... of this process that are of a
kind in --fault-on (default: all kinds); after it runs out, --cycle repeats (default: 200).
Requests of other kinds behave normally and use no action. Actions:
  200                       behave as APNs (above)
  400 | 500 | 503 ...       answer that status, body {"reason":"Injected"}, change nothing
  429:N                     429 with "Retry-After: N" (seconds), change nothing
  429d:N                    429 with "Retry-After: <HTTP date N seconds from now>", change nothing
  slow:S                    wait S seconds, then behave as APNs
  drop                      close the connection without answering, change nothing
  noid                      behave as APNs, but a create's answer lacks apns-channel-id
With --token T, a request without "Authorization: Bearer T" gets 401 and changes nothing.
With --down-after-end S, the first push record whose event is "end" takes the server down for S
seconds: it and every request until then (of any kind, scripted or not) get 503 {"reason":"Down"}
and change nothing (logged with action "down").

GET /state answers {"open": {id: game}, "created": [{"channel", "game", "requestId"}],
"deleted": [ids], "createsByGame": {game: count}}. Nothing but the log is kept on disk.

Stop it with SIGTERM. Python 3.7+ standard library only.
"""
import base64
import email.utils
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler

from server_support import fault_server_arguments, send_json, serve

KINDS = ("create", "delete", "list", "broadcast", "push", "bad")


def classify(body):
    """(kind, record): the kind of request the body is, and the record as a dict ({} if bad)."""
    try:
        record = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "bad", {}
    if not isinstance(record, dict):
        return "bad", {}
    if "kind" not in record:
        request = record.get("request")
        if not isinstance(request, dict) or not isinstance(request.get("path"), str):
            return "bad", record
        return ("broadcast" if request["path"].startswith("/4/broadcasts/") else "push"), record
    if record.get("kind") == "channel" and record.get("action") in ("create", "delete", "list"):
        return record["action"], record
    return "bad", record


def compact(value):
    return json.dumps(value, separators=(",", ":")).encode("utf-8")


def header(record, name):
    """A string header of the record's request, or None."""
    request = record.get("request")
    headers = request.get("headers") if isinstance(request, dict) else None
    value = headers.get(name) if isinstance(headers, dict) else None
    return value if isinstance(value, str) else None


def valid_action(action):
    try:
        if action in ("drop", "noid"):
            return True
        for prefix in ("429d:", "429:", "slow:"):
            if action.startswith(prefix):
                return float(action[len(prefix):]) >= 0
        return 100 <= int(action) <= 599
    except ValueError:
        return False


def main():
    parser = fault_server_arguments(__doc__)
    parser.add_argument("--fault-on", default=",".join(KINDS))
    parser.add_argument("--max-channels", type=int, default=10000)
    parser.add_argument("--dedupe-request-ids", action="store_true")
    parser.add_argument("--token", default=None)
    parser.add_argument("--down-after-end", type=float, default=None)
    args = parser.parse_args()
    script = [a for a in args.script.split(",") if a]
    cycle = [a for a in args.cycle.split(",") if a] or ["200"]
    for action in script + cycle:
        if not valid_action(action):
            parser.error("unknown action %r (200, a status, 429:N, 429d:N, slow:S, drop, noid)" % action)
    fault_on = {k for k in args.fault_on.split(",") if k}
    unknown = fault_on - set(KINDS)
    if unknown:
        parser.error("--fault-on: unknown kinds %s (known: %s)" % (",".join(sorted(unknown)), ",".join(KINDS)))

    lock = threading.Lock()
    counters = {"n": 0, "faults": 0, "down_until": None}
    open_channels = {}  # id -> game, in creation order
    created = []  # {"channel", "game", "requestId"}
    deleted = []
    creates_by_game = {}
    by_request_id = {}  # apns-request-id -> channel id (only with --dedupe-request-ids)

    def action_for(i):
        if i <= len(script):
            return script[i - 1]
        return cycle[(i - len(script) - 1) % len(cycle)]

    def new_channel_id():
        while True:
            channel = base64.b64encode(os.urandom(16)).decode("ascii")
            if channel not in open_channels and channel not in deleted:
                return channel

    def behave(kind, record):
        """APNs' answer to the record, changing the state: (status, reason, headers, body, channel).
        Call with the lock held."""
        if kind == "create":
            game = record.get("game")
            body = record.get("body")
            if (not isinstance(game, str) or not isinstance(body, dict)
                    or body.get("push-type") != "LiveActivity"
                    or body.get("message-storage-policy") not in (0, 1)
                    or isinstance(body.get("message-storage-policy"), bool)):
                return 400, "BadRequest", {}, None, None
            request_id = header(record, "apns-request-id")
            if args.dedupe_request_ids and request_id is not None:
                earlier = by_request_id.get(request_id)
                if earlier is not None and earlier in open_channels:
                    return 200, None, {"apns-channel-id": earlier}, b"{}", earlier
            if len(open_channels) >= args.max_channels:
                return 400, "TooManyChannels", {}, None, None
            channel = new_channel_id()
            open_channels[channel] = game
            created.append({"channel": channel, "game": game, "requestId": request_id})
            creates_by_game[game] = creates_by_game.get(game, 0) + 1
            if args.dedupe_request_ids and request_id is not None:
                by_request_id[request_id] = channel
            return 200, None, {"apns-channel-id": channel}, b"{}", channel
        if kind == "delete":
            channel = header(record, "apns-channel-id")
            if channel is None or channel not in open_channels:
                return 404, "ChannelNotRegistered", {}, None, channel
            del open_channels[channel]
            deleted.append(channel)
            return 200, None, {}, b"{}", channel
        if kind == "list":
            return 200, None, {}, compact({"channels": list(open_channels)}), None
        if kind == "broadcast":
            channel = header(record, "apns-channel-id")
            if channel is None or channel not in open_channels:
                return 400, "BadChannelId", {}, None, channel
            return 200, None, {}, None, channel
        if kind == "push":
            return 200, None, {}, None, None
        return 400, "BadRequest", {}, None, None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_GET(self):
            if self.path.split("?")[0] != "/state":
                self.reply(404, {}, b'{"reason":"NotFound"}')
                return
            with lock:
                state = {
                    "open": dict(open_channels), "created": list(created), "deleted": list(deleted),
                    "createsByGame": dict(creates_by_game),
                }
            self.reply(200, {}, compact(state))

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            authorization = self.headers.get("Authorization")
            kind, record = classify(body)
            with lock:
                counters["n"] += 1
                n = counters["n"]
                action = "200"
                if kind in fault_on:
                    counters["faults"] += 1
                    action = action_for(counters["faults"])
                now = time.monotonic()
                if (args.down_after_end is not None and counters["down_until"] is None
                        and kind in ("broadcast", "push") and record.get("event") == "end"):
                    counters["down_until"] = now + args.down_after_end
                if counters["down_until"] is not None and now < counters["down_until"]:
                    action = "down"
            unauthorized = args.token is not None and authorization != "Bearer " + args.token
            if unauthorized:
                action = "401"
            if action.startswith("slow:"):
                time.sleep(float(action[5:]))
            game = record.get("game") if isinstance(record.get("game"), str) else None
            event = record.get("event") if kind in ("broadcast", "push") and isinstance(record.get("event"), str) else None
            seq = record.get("seq") if kind in ("broadcast", "push") else None
            seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
            headers = {}
            reply = None
            with lock:
                channel = header(record, "apns-channel-id") if kind in ("broadcast", "delete") else None
                if action == "drop":
                    status, reason = None, None
                elif action in ("200", "noid") or action.startswith("slow:"):
                    status, reason, headers, reply, channel = behave(kind, record)
                    if action == "noid":
                        headers.pop("apns-channel-id", None)
                else:
                    if action.startswith("429d:"):
                        status = 429
                        headers["Retry-After"] = email.utils.formatdate(time.time() + float(action[5:]), usegmt=True)
                    elif action.startswith("429:"):
                        status = 429
                        headers["Retry-After"] = action[4:]
                    else:
                        status = 503 if action == "down" else int(action)
                    reason = "Unauthorized" if unauthorized else "Down" if action == "down" else "Injected"
                if status is not None:
                    if reply is None:
                        reply = compact({"reason": reason}) if reason is not None else b"{}"
                    for name in ("apns-request-id", "apns-id"):
                        value = header(record, name)
                        if value is not None:
                            headers.setdefault(name, value)
                entry = {
                    "n": n, "kind": kind, "game": game, "channel": channel, "event": event, "seq": seq,
                    "status": status, "reason": reason, "action": action, "key": self.headers.get("Idempotency-Key"),
                    "t": time.monotonic(), "body": body.decode("utf-8", "replace"),
                }
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps(entry) + "\n")
            if status is None:
                self.close_connection = True
                return
            self.reply(status, headers, reply)

        def reply(self, status, headers, body):
            send_json(self, status, headers, body)

        def log_message(self, format, *args):
            pass

    serve(Handler, args.port)

if __name__ == "__main__":
    main()
