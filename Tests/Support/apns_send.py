#!/usr/bin/env python3
"""A minimal push sender for ScoreFeed's push records, as the manual (FeedingYourPushSender.md) describes one: each record
(one JSON line) is sent as it stands over HTTP/2 and TLS (`httpx[http2]`) with an ES256 provider
token (`pyjwt`), its payload's exact bytes cut from the line, never re-serialized.

  apns_send.py keygen DIR
      writes an ES256 (P-256) provider key: DIR/AuthKey.p8 (the private key, PKCS#8 PEM, as Apple
      hands it out) and DIR/AuthKey.pub.pem (the public key a stand-in verifies with)
  apns_send.py send --url https://localhost:PORT --ca CERT.pem --auth-key AuthKey.p8 \\
                    --key-id KID --team-id TEAM [--devices 3] RECORDS.jsonl
      sends every line of RECORDS.jsonl that has a "request" (refusals and channel requests are
      skipped): in token mode once per device, {token} replaced by each of --devices device
      tokens and the apns-id set by device_apns_id(); in broadcast mode once, as it stands.
      Prints one JSON summary line on stdout:
        {"records": R, "requests": N, "http2": true, "answers": {"200": n, "400 BadMessageId": m},
         "first failures": [...]}
      and exits 0 when every request was answered 200, 1 otherwise.

Requests go one after another on one connection, each record's devices before the next record,
so an activity's pushes arrive in order. `keygen` needs `cryptography`; `send` needs `httpx[http2]`
and `pyjwt` (the venv .ci/run makes). apns_send_aioapns.py shares this file's helpers.
"""
import argparse
import hashlib
import uuid
import json
import os
import sys
import time


# --- The per-device apns-id: the lead updates this to the rule the manual states. -----------------
def device_apns_id(record, token):
    """The apns-id of `record`'s request to the device `token` (token mode).

    The manual's rule: the UUIDv5 of the token (lower case) in the namespace of the record's own
    apns-id (its key for retries), so no two devices get one id and a retry keeps each one's."""
    key = record["request"]["headers"].get("apns-id")
    return str(uuid.uuid5(uuid.UUID(key), token.lower())) if key else None
# ---------------------------------------------------------------------------------------------------


def device_tokens(count):
    """`count` device tokens: 64 lower-case hex digits each, the same on every run."""
    return [hashlib.sha256(b"scorefeed-test-device-%d" % i).hexdigest() for i in range(count)]


def payload_bytes(line):
    """The exact bytes of the record's "payload" value, cut from its JSON line (`bytes` or `str`):
    ScoreFeed splices the payload into the line as written, so this is what it measured."""
    text = line.decode("utf-8") if isinstance(line, bytes) else line
    decoder = json.JSONDecoder()
    at = text.index("{") + 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        key, at = json.decoder.scanstring(text, at + 1)
        at = text.index(":", at) + 1
        while text[at] in " \t\r\n":
            at += 1
        _, end = decoder.raw_decode(text, at)
        if key == "payload":
            return text[at:end].encode("utf-8")
        at = end


def read_records(path):
    """(record, exact payload bytes) for every line of `path` that is a push request."""
    records = []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            record = json.loads(line)
            if isinstance(record, dict) and "request" in record and "payload" in record:
                records.append((record, payload_bytes(line)))
    return records


def is_broadcast(record):
    return record["request"]["path"].startswith("/4/broadcasts/")


def provider_token(key_pem, key_id, team_id):
    """`bearer <JWT>`: ES256, header kid, claims iss and iat, as Apple's token-based auth asks."""
    import jwt

    token = jwt.encode({"iss": team_id, "iat": int(time.time())}, key_pem, algorithm="ES256", headers={"kid": key_id})
    return "bearer " + token


class Tally:
    """Counts answers by "status reason" and keeps the first few failures for the summary."""

    def __init__(self):
        self.answers, self.failures, self.requests = {}, [], 0

    def add(self, status, reason, record, token=None, apns_id=None):
        self.requests += 1
        key = str(status) if status == 200 else reason if status is None else "%s %s" % (status, reason)
        self.answers[key] = self.answers.get(key, 0) + 1
        if status != 200 and len(self.failures) < 5:
            self.failures.append({"status": status, "reason": reason, "activity": record.get("activity"),
                                  "seq": record.get("seq"), "event": record.get("event"), "token": token,
                                  "apnsId": apns_id})

    def summary(self, records, **extra):
        summary = {"records": records, "requests": self.requests, "answers": self.answers}
        summary.update(extra)
        summary["first failures"] = self.failures
        return summary

    @property
    def all_ok(self):
        return self.requests > 0 and set(self.answers) == {"200"}


def keygen(folder):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "AuthKey.p8"), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(os.path.join(folder, "AuthKey.pub.pem"), "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))


def send(args):
    import ssl

    import httpx

    records = read_records(args.records)
    with open(args.auth_key) as f:
        authorization = provider_token(f.read(), args.key_id, args.team_id)
    tokens = device_tokens(args.devices)
    tally, versions = Tally(), set()
    context = ssl.create_default_context(cafile=args.ca)
    with httpx.Client(http2=True, verify=context, base_url=args.url, timeout=30) as client:
        for record, body in records:
            request = record["request"]
            if is_broadcast(record):
                targets = [(None, request["path"], dict(request["headers"]))]
            else:
                targets = []
                for token in tokens:
                    headers = dict(request["headers"])
                    apns_id = device_apns_id(record, token)
                    headers.pop("apns-id", None)
                    if apns_id is not None:
                        headers["apns-id"] = apns_id
                    targets.append((token, request["path"].replace("{token}", token), headers))
            for token, path, headers in targets:
                headers["authorization"] = authorization
                response = client.request(request["method"], path, headers=headers, content=body)
                versions.add(response.http_version)
                reason = None
                if response.status_code != 200:
                    try:
                        reason = response.json().get("reason")
                    except ValueError:
                        reason = response.text[:100]
                tally.add(response.status_code, reason, record, token, headers.get("apns-id"))
    print(json.dumps(tally.summary(len(records), http2=versions == {"HTTP/2"}, versions=sorted(versions))), flush=True)
    return 0 if tally.all_ok and versions == {"HTTP/2"} else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("keygen")
    make.add_argument("folder")
    sender = commands.add_parser("send")
    sender.add_argument("--url", required=True)
    sender.add_argument("--ca", required=True)
    sender.add_argument("--auth-key", required=True)
    sender.add_argument("--key-id", required=True)
    sender.add_argument("--team-id", required=True)
    sender.add_argument("--devices", type=int, default=3)
    sender.add_argument("records")
    args = parser.parse_args()
    if args.command == "keygen":
        keygen(args.folder)
        return 0
    return send(args)


if __name__ == "__main__":
    sys.exit(main())
