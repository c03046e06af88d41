#!/usr/bin/env python3
"""A strict stand-in for Firebase Cloud Messaging's HTTP v1 API ("FCM HTTP v1 API" reference:
projects.messages.send, Message, AndroidConfig; "About FCM messages"; "Set and manage Android
message options"), for ScoreFeed's Android push records (DESIGN.md, "Android Live Updates").

  fcm_standin.py --log LOG --project PROJECT --access-token TOKEN [--port 0]

Plain HTTP/1.1 on 127.0.0.1 (threaded `http.server`); prints "PORT <n>" on stdout once listening.
It answers `POST /v1/projects/<project>/messages:send` with 200 {"name":
"projects/<project>/messages/<id>"} ("…/messages/fake_message_id" with validate_only) or with
Google's error shape, as FCM does:

  {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT",
             "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                          "errorCode": "INVALID_ARGUMENT"}, ...]}}

The first failed check decides:

  path /v1/projects/<id>/messages:send, method POST  404 NOT_FOUND (Google's front end answers
                                                        an unknown path or method so)
  Authorization: Bearer <--access-token>             401 UNAUTHENTICATED (missing, or another)
  <id> = --project                                   403 PERMISSION_DENIED
  Content-Type application/json                      400 INVALID_ARGUMENT (the stand-in's rule:
                                                        it never tried another type on FCM)
  body: UTF-8 JSON, an object, no key twice          400 INVALID_ARGUMENT
  body keys: "message" (required) and the optional boolean "validate_only" (proto3 JSON: the
    camelCase spelling too, and null for an absent field)
                                                     400 INVALID_ARGUMENT
  message keys: the Message fields only (name, data, notification, android, webpush, apns,
    fcm_options, token, topic, condition, fid; both spellings)
                                                     400 INVALID_ARGUMENT
  ScoreFeed's contract, data-only: no "notification" in message or android (FCM itself takes one)
                                                     400 INVALID_ARGUMENT, logged "contract": true
  exactly one target: token, topic, condition (or fid)
                                                     400 INVALID_ARGUMENT
  token: a registration token's characters ([A-Za-z0-9_:.-], 20 to 4096), so a "{token}" left
    in the body is refused as FCM refuses it        400 INVALID_ARGUMENT
  topic: ^[a-zA-Z0-9-_.~%]{1,900}$ (no "/topics/" prefix in v1)
                                                     400 INVALID_ARGUMENT
  data (and android.data): an object of string to string; no reserved key ("from",
    "notification", "message_type", any key starting with "google" or "gcm")
                                                     400 INVALID_ARGUMENT
  data keys plus values, UTF-8 bytes: at most 4096, 2048 to a topic or condition (of the data an
    Android device gets: android.data where given, else data)
                                                     400 INVALID_ARGUMENT ("too big")
  android: AndroidConfig fields only (collapse_key, priority, ttl, restricted_package_name,
    data, notification, fcm_options, direct_boot_ok, bandwidth_constrained_ok,
    restricted_satellite_ok; both spellings); priority "HIGH" or "NORMAL" (FCM also reads the
    lower-case names, which firebase-admin sends; the stand-in refuses the enum's numbers, which
    proto3 JSON would take); ttl a Duration string ("60s", "3.5s": digits, up to 9 fraction
    digits, "s"), not negative, at most 28 days (2419200s); collapse_key and
    restricted_package_name strings; the *_ok fields booleans; fcm_options an object with a
    string analytics_label
                                                     400 INVALID_ARGUMENT
  webpush, apns, fcm_options, name: the JSON type FCM's schema gives them (objects; name a
    string); not looked into further                400 INVALID_ARGUMENT
  A value of the wrong JSON type anywhere above is refused; null stands for an absent field.

Every request is appended to --log as one JSON line once answered (numbered from 1 in "n"):

  {"n", "status", "error" (e.g. "INVALID_ARGUMENT", null on 200), "detail" (what failed, for
   people), "contract" (refused by ScoreFeed's contract, not by FCM), "project", "target"
   ("token"|"topic"|"condition"|"fid"|null), "to" (the token or topic), "bytes", "dataBytes",
   "validateOnly", "client" (X-Firebase-Client, else User-Agent), "message" (the message as
   received, on 200; null otherwise)}

Python 3 standard library only. Stops on SIGTERM, or when the process that started it is gone.
"""
import argparse
import hashlib
import io
import json
import os
import re
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_support import run_as_child, send_json, serve  # noqa: E402

PATH = re.compile(r"^/v1/projects/([^/]+)/messages:send$")
TOPIC = re.compile(r"^[a-zA-Z0-9\-_.~%]{1,900}$")
REGISTRATION_TOKEN = re.compile(r"^[A-Za-z0-9_:.\-]{20,4096}$")
DURATION = re.compile(r"^([0-9]+)(?:\.([0-9]{1,9}))?s$")
MAX_TTL_SECONDS = 28 * 24 * 3600
RESERVED_KEYS = {"from", "notification", "message_type"}
RESERVED_PREFIXES = ("google", "gcm")
DATA_LIMIT = {"token": 4096, "fid": 4096, "topic": 2048, "condition": 2048}

# Field name (as sent) -> the proto field it spells: proto3 JSON takes both spellings.
REQUEST_FIELDS = {"message": "message", "validate_only": "validate_only", "validateOnly": "validate_only"}
MESSAGE_FIELDS = {name: name for name in (
    "name", "data", "notification", "android", "webpush", "apns", "token", "topic", "condition", "fid")}
MESSAGE_FIELDS.update({"fcm_options": "fcm_options", "fcmOptions": "fcm_options"})
ANDROID_FIELDS = {name: name for name in ("priority", "ttl", "data", "notification")}
ANDROID_FIELDS.update({
    "collapse_key": "collapse_key", "collapseKey": "collapse_key",
    "restricted_package_name": "restricted_package_name", "restrictedPackageName": "restricted_package_name",
    "fcm_options": "fcm_options", "fcmOptions": "fcm_options",
    "direct_boot_ok": "direct_boot_ok", "directBootOk": "direct_boot_ok",
    "bandwidth_constrained_ok": "bandwidth_constrained_ok", "bandwidthConstrainedOk": "bandwidth_constrained_ok",
    "restricted_satellite_ok": "restricted_satellite_ok", "restrictedSatelliteOk": "restricted_satellite_ok",
})
ANDROID_FCM_OPTIONS_FIELDS = {"analytics_label": "analytics_label", "analyticsLabel": "analytics_label"}
TARGETS = ("token", "topic", "condition", "fid")
PRIORITIES = {"HIGH", "NORMAL", "high", "normal"}

FCM_ERROR = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
UNAUTHENTICATED_MISSING = (
    "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or "
    "other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.")
UNAUTHENTICATED_INVALID = (
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid "
    "authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.")


class Rejection(Exception):
    def __init__(self, status, code, message, field=None, contract=False, fcm_code=None):
        super().__init__(message)
        self.status, self.code, self.message, self.field, self.contract = status, code, message, field, contract
        self.fcm_code = fcm_code if fcm_code is not None else (code if status == 400 else None)

    def body(self):
        error = {"code": self.status, "message": self.message, "status": self.code}
        details = []
        if self.fcm_code:
            details.append({"@type": FCM_ERROR, "errorCode": self.fcm_code})
        if self.field:
            details.append({"@type": BAD_REQUEST, "fieldViolations": [{"field": self.field, "description": self.message}]})
        if details:
            error["details"] = details
        return json.dumps({"error": error}).encode()


def invalid(message, field=None, contract=False):
    return Rejection(400, "INVALID_ARGUMENT", message, field=field, contract=contract)


class DuplicateKey(ValueError):
    pass


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen[key] = value
    return seen


def json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def fields(obj, known, where):
    """`obj`'s fields by proto name, nulls dropped (proto3 JSON: null is an absent field); an
    unknown name, or one field spelled both ways, is refused."""
    out = {}
    for key, value in obj.items():
        name = known.get(key)
        if name is None:
            raise invalid('Invalid JSON payload received. Unknown name "%s" at \'%s\': Cannot find field.' % (key, where),
                          field=where + "." + key if where else key)
        if name in out:
            raise invalid("Invalid JSON payload received. Field '%s' is given twice (as %s) at '%s'." % (name, key, where),
                          field=where + "." + name if where else name)
        if value is not None:
            out[name] = value
    return out


def need(value, kind, field):
    if json_type(value) != kind:
        raise invalid("Invalid value at '%s' (%s), %s" % (field, kind.upper(), json.dumps(value)[:80]), field=field)
    return value


def check_data(data, field):
    """A map<string, string> without reserved keys; returns its size (keys plus values, UTF-8)."""
    need(data, "object", field)
    size = 0
    for index, (key, value) in enumerate(data.items()):
        if not isinstance(value, str):
            raise invalid("Invalid value at '%s[%d].value' (TYPE_STRING), %s" % (field, index, json.dumps(value)[:80]),
                          field="%s[%d].value" % (field, index))
        lowered = key.lower()
        if key in RESERVED_KEYS or lowered.startswith(RESERVED_PREFIXES):
            raise invalid("Invalid data message key: %r is a reserved word (from, notification, message_type, "
                          "google*, gcm*)." % key, field="%s[%d].key" % (field, index))
        size += len(key.encode("utf-8")) + len(value.encode("utf-8"))
    return size


def check_duration(value, field):
    need(value, "string", field)
    match = DURATION.match(value)
    if not match:
        raise invalid("Invalid value at '%s' (type.googleapis.com/google.protobuf.Duration), Field '%s', Illegal "
                      "duration format; duration must end with 's'; %r" % (field, field, value), field=field)
    seconds = int(match.group(1)) + (int((match.group(2) or "0").ljust(9, "0")) / 1e9)
    if seconds > MAX_TTL_SECONDS:
        raise invalid("Invalid value at '%s': TTL %s is beyond the maximum of 4 weeks (2419200s)." % (field, value),
                      field=field)


def check_android(android):
    """The AndroidConfig; returns its data's size, or None when it has no data of its own."""
    config = fields(need(android, "object", "message.android"), ANDROID_FIELDS, "message.android")
    if "notification" in config:
        raise invalid("ScoreFeed's records are data-only: message.android.notification is not part of the contract "
                      "(FCM itself would take it).", field="message.android.notification", contract=True)
    if "priority" in config:
        priority = config["priority"]
        if not isinstance(priority, str) or priority not in PRIORITIES:
            raise invalid("Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1."
                          "AndroidMessagePriority), %s" % json.dumps(priority)[:80], field="message.android.priority")
    if "ttl" in config:
        check_duration(config["ttl"], "message.android.ttl")
    for name in ("collapse_key", "restricted_package_name"):
        if name in config:
            need(config[name], "string", "message.android." + name)
    for name in ("direct_boot_ok", "bandwidth_constrained_ok", "restricted_satellite_ok"):
        if name in config:
            need(config[name], "boolean", "message.android." + name)
    if "fcm_options" in config:
        options = fields(need(config["fcm_options"], "object", "message.android.fcm_options"),
                         ANDROID_FCM_OPTIONS_FIELDS, "message.android.fcm_options")
        if "analytics_label" in options:
            need(options["analytics_label"], "string", "message.android.fcm_options.analytics_label")
    if "data" in config:
        return check_data(config["data"], "message.android.data")
    return None


class Checker:
    def __init__(self, project, access_token):
        self.project, self.access_token = project, access_token

    def check(self, method, path, headers, body):
        """Raises Rejection, or returns (target kind, target, data bytes, validate_only, message)."""
        match = PATH.match(path.split("?", 1)[0])
        if not match or method != "POST":
            raise Rejection(404, "NOT_FOUND", "%s %s: the requested URL was not found on this server." % (method, path[:200]))
        authorization = headers.get("Authorization")
        if not authorization:
            raise Rejection(401, "UNAUTHENTICATED", UNAUTHENTICATED_MISSING)
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or token.strip() != self.access_token:
            raise Rejection(401, "UNAUTHENTICATED", UNAUTHENTICATED_INVALID)
        project = match.group(1)
        if project != self.project:
            raise Rejection(403, "PERMISSION_DENIED", "Permission 'cloudmessaging.messages.create' denied on resource "
                            "'//cloudresourcemanager.googleapis.com/projects/%s' (or it may not exist)." % project[:200])
        content_type = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            raise invalid("Content-Type %r: the body must be application/json." % headers.get("Content-Type"))
        try:
            request = json.loads(body.decode("utf-8"), object_pairs_hook=no_duplicates)
        except UnicodeDecodeError as error:
            raise invalid("Invalid JSON payload received. Invalid UTF-8: %s" % error)
        except DuplicateKey as error:
            raise invalid("Invalid JSON payload received. Duplicate key %r." % str(error))
        except ValueError as error:
            raise invalid("Invalid JSON payload received. %s" % error)
        if not isinstance(request, dict):
            raise invalid("Invalid JSON payload received. Expected an object, got %s." % json_type(request))
        top = fields(request, REQUEST_FIELDS, "")
        validate_only = top.get("validate_only", False)
        need(validate_only, "boolean", "validate_only")
        if "message" not in top:
            raise invalid("Request contains an invalid argument: no message.", field="message")
        message = fields(need(top["message"], "object", "message"), MESSAGE_FIELDS, "message")
        if "notification" in message:
            raise invalid("ScoreFeed's records are data-only: message.notification is not part of the contract "
                          "(FCM itself would take it).", field="message.notification", contract=True)
        targets = [name for name in TARGETS if name in message]
        if not targets:
            raise invalid("Recipient of the message is not set.", field="message")
        if len(targets) > 1:
            raise invalid("Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set '%s'"
                          % targets[1], field="message." + targets[1])
        kind = targets[0]
        to = need(message[kind], "string", "message." + kind)
        if kind == "token" and not REGISTRATION_TOKEN.match(to):
            raise invalid("The registration token is not a valid FCM registration token", field="message.token")
        if kind == "topic" and not TOPIC.match(to):
            raise invalid("Invalid topic name %r (v1 takes it without the /topics/ prefix)." % to[:100],
                          field="message.topic")
        if kind in ("condition", "fid") and not to:
            raise invalid("Invalid value at 'message.%s': empty." % kind, field="message." + kind)
        for name in ("webpush", "apns", "fcm_options"):
            if name in message:
                need(message[name], "object", "message." + name)
        if "name" in message:
            need(message["name"], "string", "message.name")
        data_size = check_data(message["data"], "message.data") if "data" in message else 0
        if "android" in message:
            android_size = check_android(message["android"])
            if android_size is not None:
                data_size = android_size
        limit = DATA_LIMIT[kind]
        if data_size > limit:
            raise invalid("Android message is too big: its data is %d bytes (keys plus values), the limit to a %s is %d."
                          % (data_size, kind, limit), field="message.data")
        return kind, to, data_size, validate_only, top["message"]


def main():
    run_as_child()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", required=True)
    parser.add_argument("--project", required=True, help="the Firebase project id the credential is for")
    parser.add_argument("--access-token", required=True, help="the OAuth2 access token a request must bear")
    args = parser.parse_args()
    checker = Checker(args.project, args.access_token)
    lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8")
    counts = {"requests": 0}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Answers go out at once (TCP_NODELAY), in one write each (reply), so a kept-alive
        # connection never waits on a delayed ACK.
        disable_nagle_algorithm = True

        def do_POST(self):
            self.answer()

        do_GET = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_POST

        def read_body(self):
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                body = bytearray()
                while True:
                    size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return bytes(body)
                    body.extend(self.rfile.read(size))
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def answer(self):
            body = self.read_body()
            entry = {"n": None, "status": 200, "error": None, "detail": None, "contract": False, "project": None,
                     "target": None, "to": None, "bytes": len(body), "dataBytes": None, "validateOnly": None,
                     "client": self.headers.get("X-Firebase-Client") or self.headers.get("User-Agent"), "message": None}
            match = PATH.match(self.path.split("?", 1)[0])
            entry["project"] = match.group(1) if match else None
            refused = None
            try:
                kind, to, size, validate_only, message = checker.check(self.command, self.path, self.headers, body)
                entry.update(target=kind, to=to, dataBytes=size, validateOnly=validate_only, message=message)
            except Rejection as rejection:
                refused = rejection
                entry.update(status=rejection.status, error=rejection.code, detail=rejection.message,
                             contract=rejection.contract)
            with lock:
                counts["requests"] += 1
                entry["n"] = counts["requests"]
                log.write(json.dumps(entry, ensure_ascii=False) + "\n")
                log.flush()
            if entry["status"] == 200:
                name = "fake_message_id" if entry["validateOnly"] else "0:%d%%%s" % (
                    entry["n"], hashlib.sha256(body).hexdigest()[:16])
                self.reply(200, {}, json.dumps({"name": "projects/%s/messages/%s" % (args.project, name)}).encode())
            else:
                extra = {"WWW-Authenticate": 'Bearer realm="https://accounts.google.com/"'} if entry["status"] == 401 else {}
                self.reply(entry["status"], extra, refused.body())

        def reply(self, status, headers, body):
            """send_json's answer, written in one piece."""
            buffer = io.BytesIO()
            wfile, self.wfile = self.wfile, buffer
            try:
                send_json(self, status, headers, body)
            finally:
                self.wfile = wfile
            try:
                self.wfile.write(buffer.getvalue())
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format, *args):
            pass

    serve(Handler, args.port)


if __name__ == "__main__":
    main()
