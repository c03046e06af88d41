#!/usr/bin/env python3
"""A strict stand-in for APNs' push service: HTTP/2 over TLS on 127.0.0.1, checking each request
as Apple documents it ("Sending notification requests to APNs", "Sending broadcast push
notification requests to APNs", "Establishing a token-based connection to APNs", "Starting and
updating Live Activities with ActivityKit push notifications").

  apns_standin.py --log LOG --cert-dir DIR --provider-key PUB.pem --key-id KID --team-id TEAM \\
                  --bundle-id ID [--port 0]

At start it makes a self-signed certificate for localhost and 127.0.0.1 (python's
`cryptography`), writes DIR/cert.pem (what clients trust) and DIR/key.pem, listens, and prints
"PORT <n>" on stdout. It answers each request 200 (with an `apns-id` header: the request's, or
one it makes) or the APNs error status with the body {"reason": "..."}; the first failed check
decides:

  :method POST                                      405 MethodNotAllowed
  path /3/device/<64 hex> (token mode) or
       /4/broadcasts/apps/<bundle id> (broadcast)   404 BadPath, 400 BadDeviceToken
  a header given twice                              400 DuplicateHeaders
  authorization: bearer <ES256 JWT>, verified with
    pyjwt against --provider-key, header kid =
    --key-id, claim iss = --team-id, iat at most
    an hour old and not in the future               403 MissingProviderToken, InvalidProviderToken,
                                                        ExpiredProviderToken
  apns-push-type: liveactivity                      400 InvalidPushType
  token: apns-topic = <bundle id>.push-type.liveactivity
                                                    400 MissingTopic, BadTopic
  broadcast: apns-channel-id, base64               400 MissingChannelId, BadChannelId
  apns-priority 5 or 10                             400 BadPriority
  apns-expiration an integer (required here)        400 BadExpirationDate
  apns-id, and apns-request-id, when present: a canonical UUID, 32 lower-case hex digits in
    groups 8-4-4-4-12 (Apple's words)               400 BadMessageId
  a body                                            400 PayloadEmpty
  body at most 4096 bytes (token), 5120 (broadcast) 413 PayloadTooLarge
  body JSON with an "aps" object: timestamp an integer, event start|update|end, content-state
    an object, attributes-type (string) and attributes (object) on a start, no start in
    broadcast mode                                  400 BadPayload (the stand-in's own reason:
                                                        APNs itself answers 200 and the device
                                                        drops such a push silently)

The same apns-id on requests to different device tokens is accepted (Apple asks for a unique id
per notification; a client that tracks requests by id can lose answers) and logged as
"duplicateId": true; on the same token it is too.

Every request is appended to --log as one JSON line once answered:
{"n", "mode": "token"|"broadcast"|null, "token", "apnsId", "status", "reason", "bytes", "event",
 "priority", "duplicateId", "detail"} ("detail" says what failed, for people).

Needs `h2`, `cryptography` and `pyjwt` (the venv .ci/run makes). Stops on SIGTERM, or when the
process that started it is gone.
"""
import argparse
import asyncio
import base64
import datetime
import ipaddress
import json
import os
import re
import signal
import ssl
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_support import run_as_child  # noqa: E402

import jwt  # noqa: E402
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402
from h2.config import H2Configuration  # noqa: E402
from h2.connection import H2Connection  # noqa: E402
from h2.events import DataReceived, RequestReceived, StreamEnded, StreamReset, ConnectionTerminated  # noqa: E402
from h2.exceptions import ProtocolError  # noqa: E402

CANONICAL_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
DEVICE_PATH = re.compile(r"^/3/device/([^/]*)$")
TOKEN = re.compile(r"^[0-9a-fA-F]{64}$")
LIMITS = {"token": 4096, "broadcast": 5120}


class Rejection(Exception):
    def __init__(self, status, reason, detail):
        super().__init__(detail)
        self.status, self.reason, self.detail = status, reason, detail


def make_certificate(folder):
    """A self-signed certificate for localhost and 127.0.0.1; returns (cert.pem, key.pem)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ScoreFeed APNs stand-in")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    os.makedirs(folder, exist_ok=True)
    cert_path, key_path = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(cert_path, "wb") as f:
        f.write(certificate.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


class Checker:
    """The rules above, for one request: returns (mode, token) or raises Rejection."""

    def __init__(self, args):
        with open(args.provider_key, "rb") as f:
            self.public_key = serialization.load_pem_public_key(f.read())
        self.key_id, self.team_id, self.bundle_id = args.key_id, args.team_id, args.bundle_id
        self.broadcast_path = "/4/broadcasts/apps/%s" % args.bundle_id
        # A provider token's signature is checked once (a sender reuses one token for up to an
        # hour); its age is checked on every request.
        self.verified = {}

    def check(self, pairs, body):
        names = [name for name, _ in pairs]
        headers = dict(pairs)
        if headers.get(":method") != "POST":
            raise Rejection(405, "MethodNotAllowed", "method %r" % headers.get(":method"))
        path = headers.get(":path", "")
        device = DEVICE_PATH.match(path)
        if device:
            mode, token = "token", device.group(1)
            if not TOKEN.match(token):
                raise Rejection(400, "BadDeviceToken", "device token %r is not 64 hex digits" % token[:80])
        elif path == self.broadcast_path:
            mode, token = "broadcast", None
        else:
            raise Rejection(404, "BadPath", "path %r" % path[:200])
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise Rejection(400, "DuplicateHeaders", "given twice: %s" % ", ".join(twice))
        self.check_provider_token(headers.get("authorization"))
        if headers.get("apns-push-type") != "liveactivity":
            raise Rejection(400, "InvalidPushType", "apns-push-type %r" % headers.get("apns-push-type"))
        if mode == "token":
            topic = headers.get("apns-topic")
            if topic is None:
                raise Rejection(400, "MissingTopic", "no apns-topic")
            if topic != self.bundle_id + ".push-type.liveactivity":
                raise Rejection(400, "BadTopic", "apns-topic %r" % topic)
        else:
            channel = headers.get("apns-channel-id")
            if not channel:
                raise Rejection(400, "MissingChannelId", "no apns-channel-id")
            try:
                base64.b64decode(channel, validate=True)
            except ValueError:
                raise Rejection(400, "BadChannelId", "apns-channel-id %r is not base64" % channel)
        if headers.get("apns-priority") not in ("5", "10"):
            raise Rejection(400, "BadPriority", "apns-priority %r" % headers.get("apns-priority"))
        if not re.fullmatch(r"[0-9]+", headers.get("apns-expiration") or ""):
            raise Rejection(400, "BadExpirationDate", "apns-expiration %r" % headers.get("apns-expiration"))
        for name in ("apns-id", "apns-request-id"):
            if name in headers and not CANONICAL_UUID.match(headers[name]):
                raise Rejection(400, "BadMessageId", "%s %r is not a canonical lower-case UUID" % (name, headers[name]))
        if not body:
            raise Rejection(400, "PayloadEmpty", "no body")
        if len(body) > LIMITS[mode]:
            raise Rejection(413, "PayloadTooLarge", "%d bytes, limit %d" % (len(body), LIMITS[mode]))
        self.check_payload(body, mode)
        return mode, token

    def check_provider_token(self, value):
        if not value:
            raise Rejection(403, "MissingProviderToken", "no authorization header")
        scheme, _, token = value.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Rejection(403, "InvalidProviderToken", "authorization is not 'bearer <JWT>'")
        if token in self.verified:
            header, claims = self.verified[token]
        else:
            try:
                header = jwt.get_unverified_header(token)
                claims = jwt.decode(token, self.public_key, algorithms=["ES256"], options={"require": ["iss", "iat"], "verify_iat": False})
            except jwt.PyJWTError as error:
                raise Rejection(403, "InvalidProviderToken", "JWT: %s" % error)
            if "exp" not in claims:  # an expiring token is decoded again each time
                self.verified[token] = (header, claims)
        if header.get("alg") != "ES256" or header.get("kid") != self.key_id:
            raise Rejection(403, "InvalidProviderToken", "JWT header %r" % header)
        if claims.get("iss") != self.team_id:
            raise Rejection(403, "InvalidProviderToken", "JWT iss %r" % claims.get("iss"))
        age = time.time() - claims["iat"]
        if age > 3600:
            raise Rejection(403, "ExpiredProviderToken", "JWT issued %d s ago" % age)
        if age < -300:
            raise Rejection(403, "InvalidProviderToken", "JWT issued in the future")

    def check_payload(self, body, mode):
        try:
            payload = json.loads(body)
        except ValueError as error:
            raise Rejection(400, "BadPayload", "not JSON: %s" % error)
        aps = payload.get("aps") if isinstance(payload, dict) else None
        if not isinstance(aps, dict):
            raise Rejection(400, "BadPayload", "no aps object")
        if type(aps.get("timestamp")) is not int:
            raise Rejection(400, "BadPayload", "aps.timestamp %r is not an integer" % aps.get("timestamp"))
        event = aps.get("event")
        if event not in ("start", "update", "end"):
            raise Rejection(400, "BadPayload", "aps.event %r" % event)
        if not isinstance(aps.get("content-state"), dict):
            raise Rejection(400, "BadPayload", "aps.content-state is not an object")
        if event == "start":
            if mode == "broadcast":
                raise Rejection(400, "BadPayload", "a broadcast cannot start a Live Activity")
            if not isinstance(aps.get("attributes-type"), str) or not isinstance(aps.get("attributes"), dict):
                raise Rejection(400, "BadPayload", "a start needs attributes-type and attributes")


class StandIn:
    def __init__(self, args):
        self.checker = Checker(args)
        self.log = open(args.log, "a", encoding="utf-8")
        self.count = 0
        self.seen_ids = {}  # apns-id -> the set of tokens (or "broadcast") it was sent to

    def answer(self, pairs, body):
        """(status, response headers, body bytes) for one request, logged."""
        headers = dict(pairs)
        apns_id = headers.get("apns-id")
        entry = {"n": None, "mode": None, "token": None, "apnsId": apns_id, "status": 200, "reason": None,
                 "bytes": len(body), "event": None, "priority": headers.get("apns-priority"), "duplicateId": False,
                 "detail": None}
        # What the request is, as far as it can be read, for the log (a refused one too).
        path = headers.get(":path", "")
        device = DEVICE_PATH.match(path)
        entry["mode"] = "token" if device else "broadcast" if path.startswith("/4/broadcasts/") else None
        entry["token"] = device.group(1) if device else None
        try:
            entry["event"] = json.loads(body)["aps"]["event"]
        except (ValueError, KeyError, TypeError):
            pass
        try:
            self.checker.check(pairs, body)
        except Rejection as rejection:
            entry.update(status=rejection.status, reason=rejection.reason, detail=rejection.detail)
        if apns_id is not None:
            targets = self.seen_ids.setdefault(apns_id, set())
            entry["duplicateId"] = bool(targets)
            targets.add(entry["token"] or "broadcast")
        self.count += 1
        entry["n"] = self.count
        self.log.write(json.dumps(entry) + "\n")
        self.log.flush()
        answer_id = apns_id if apns_id is not None else str(uuid.uuid4())
        response = [(":status", str(entry["status"])), ("apns-id", answer_id)]
        if entry["status"] == 200:
            return response, b""
        data = json.dumps({"reason": entry["reason"]}).encode()
        return response + [("content-type", "application/json"), ("content-length", str(len(data)))], data


class Connection(asyncio.Protocol):
    def __init__(self, stand_in):
        self.stand_in = stand_in
        self.h2 = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.requests = {}
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        self.h2.initiate_connection()
        self.transport.write(self.h2.data_to_send())

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except ProtocolError:
            self.transport.write(self.h2.data_to_send())
            self.transport.close()
            return
        for event in events:
            if isinstance(event, RequestReceived):
                self.requests[event.stream_id] = (list(event.headers), bytearray())
            elif isinstance(event, DataReceived):
                if event.stream_id in self.requests:
                    self.requests[event.stream_id][1].extend(event.data)
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, StreamEnded):
                pairs, body = self.requests.pop(event.stream_id, ([], bytearray()))
                headers, data = self.stand_in.answer(pairs, bytes(body))
                self.h2.send_headers(event.stream_id, headers, end_stream=not data)
                if data:
                    self.h2.send_data(event.stream_id, data, end_stream=True)
            elif isinstance(event, StreamReset):
                self.requests.pop(event.stream_id, None)
            elif isinstance(event, ConnectionTerminated):
                self.transport.close()
        self.transport.write(self.h2.data_to_send())


def main():
    run_as_child()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", required=True)
    parser.add_argument("--cert-dir", required=True)
    parser.add_argument("--provider-key", required=True, help="the ES256 public key (PEM) provider tokens are signed for")
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--bundle-id", required=True)
    args = parser.parse_args()
    cert_path, key_path = make_certificate(args.cert_dir)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_path, key_path)
    context.set_alpn_protocols(["h2"])
    stand_in = StandIn(args)

    async def serve():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: Connection(stand_in), "127.0.0.1", args.port, ssl=context)
        print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
        async with server:
            await server.serve_forever()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
