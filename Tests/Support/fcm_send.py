#!/usr/bin/env python3
"""A minimal FCM HTTP v1 sender for ScoreFeed's Android push records (DESIGN.md contract 4,
"platform": "android"): each record's `payload` is POSTed as it stands, its exact bytes cut from
the line (never re-serialized), with `httpx` and an OAuth2 bearer token.

  fcm_send.py --url http://127.0.0.1:PORT --project ID --access-token TOKEN [--devices 1] RECORDS.jsonl

Every line of RECORDS.jsonl must be an Android record; any other line (an APNs record, a channel
request, a refusal) stops the run before anything is sent (exit 2, with the line). In each record
"{project}" in the request's path becomes --project (a path the record already names a project
in is sent as it stands); a token-mode message ("token": "{token}") goes once to each of --devices
device registration tokens (fcm_device_tokens), only that string replaced in the payload's
bytes; a topic message goes once, as it stands. The record's request headers are sent, with
"Authorization: Bearer <TOKEN>".

Prints one JSON summary line on stdout:
  {"records": R, "requests": N, "answers": {"200": n, "400 INVALID_ARGUMENT": m},
   "first failures": [{"line", "game", "seq", "event", "to", "status", "error", "message"}]}
and, on standard error, a line for each failed request naming its record (line, game, seq).
Exits 0 when every request was answered 200, 1 otherwise. Needs `httpx` (the venv .ci/run makes).
fcm_send_admin.py shares this file's helpers.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apns_send  # noqa: E402
from apns_send import payload_bytes  # noqa: E402

TOKEN_PLACEHOLDER = re.compile(rb'"token"\s*:\s*"\{token\}"')


class InputError(Exception):
    pass


def fcm_device_tokens(count):
    """`count` registration tokens shaped like FCM's (an instance id, ":", "APA91b" and 134
    base64url characters), the same on every run."""
    tokens = []
    for i in range(count):
        seed = hashlib.sha512(b"scorefeed-fcm-device-%d" % i).digest()
        text = base64.urlsafe_b64encode(seed + hashlib.sha512(seed).digest()).decode().rstrip("=")
        tokens.append("%s:APA91b%s" % (text[:22], text[22:156]))
    return tokens


def read_android_records(path):
    """[(line number, record, exact payload bytes)] for every line of `path`; InputError names the
    first line that is not an Android push record."""
    records = []
    with open(path, "rb") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as error:
                raise InputError("line %d is not JSON: %s" % (number, error))
            if not isinstance(record, dict) or record.get("platform") != "android":
                what = ("platform %r" % record["platform"] if isinstance(record, dict) and "platform" in record
                        else "no platform: an APNs record, a refusal or a channel request")
                raise InputError("line %d is not an Android push record (%s): this sender sends FCM records only, as "
                                 "scorefeed replay --platform android --jsonl writes them" % (number, what))
            if not isinstance(record.get("request"), dict) or not isinstance(record.get("payload"), dict):
                raise InputError("line %d (game %s, seq %s) has no request or payload" % (
                    number, record.get("game"), record.get("seq")))
            records.append((number, record, payload_bytes(line)))
    return records


def message_of(record):
    message = record["payload"].get("message")
    if not isinstance(message, dict):
        raise InputError("game %s seq %s: the payload has no message object" % (record.get("game"), record.get("seq")))
    return message


def request_path(record, project):
    return record["request"]["path"].replace("{project}", project)


def targets(record, body, tokens):
    """[(to, body)]: the record's message for each device (token mode), or as it stands."""
    message = message_of(record)
    if message.get("token") != "{token}":
        return [(message.get("token") or message.get("topic") or message.get("condition"), body)]
    if len(TOKEN_PLACEHOLDER.findall(body)) != 1:
        raise InputError("game %s seq %s: the payload's bytes do not hold \"token\":\"{token}\" exactly once" % (
            record.get("game"), record.get("seq")))
    return [(token, TOKEN_PLACEHOLDER.sub(lambda _: b'"token":' + json.dumps(token).encode(), body)) for token in tokens]


def error_of(response):
    """(status name, message) from Google's error shape, or the start of the body."""
    try:
        error = response.json().get("error") or {}
        return error.get("status"), error.get("message")
    except ValueError:
        return None, response.text[:200]


class Tally(apns_send.Tally):
    """Counts answers by "status STATUS" and keeps the first few failures; each failure is also
    said on stderr with its line, game and seq."""

    def add(self, number, record, to, status, error=None, message=None):
        self.requests += 1
        key = "200" if status == 200 else " ".join(str(part) for part in (status, error) if part is not None)
        self.answers[key] = self.answers.get(key, 0) + 1
        if status != 200:
            sys.stderr.write("line %d (game %s, seq %s, %s): %s: %s\n" % (
                number, record.get("game"), record.get("seq"), record.get("event"), key, message))
            if len(self.failures) < 5:
                self.failures.append({"line": number, "game": record.get("game"), "seq": record.get("seq"),
                                      "event": record.get("event"), "to": to, "status": status, "error": error,
                                      "message": message})


def send(args):
    import httpx

    records = read_android_records(args.records)
    tokens = fcm_device_tokens(args.devices)
    work = [(number, record, request_path(record, args.project), targets(record, body, tokens))
            for number, record, body in records]
    tally = Tally()
    with httpx.Client(base_url=args.url, timeout=30) as client:
        for number, record, path, sends in work:
            headers = dict(record["request"].get("headers") or {})
            headers["Authorization"] = "Bearer " + args.access_token
            for to, body in sends:
                response = client.request(record["request"].get("method", "POST"), path, headers=headers, content=body)
                if response.status_code == 200:
                    tally.add(number, record, to, 200)
                else:
                    error, message = error_of(response)
                    tally.add(number, record, to, response.status_code, error, message)
    print(json.dumps(tally.summary(len(records), client="httpx %s" % httpx.__version__)), flush=True)
    return 0 if tally.all_ok else 1


def arguments(doc):
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the FCM endpoint's origin, e.g. http://127.0.0.1:PORT")
    parser.add_argument("--project", required=True)
    parser.add_argument("--access-token", required=True)
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("records")
    return parser


def main(send=send, name="fcm_send.py", doc=__doc__):
    """Runs `send` on the command line's arguments; an input error is said (exit 2)."""
    args = arguments(doc).parse_args()
    try:
        return send(args)
    except InputError as error:
        print(json.dumps({"error": str(error)}), flush=True)
        sys.stderr.write("%s: %s\n" % (name, error))
        return 2


if __name__ == "__main__":
    sys.exit(main())
