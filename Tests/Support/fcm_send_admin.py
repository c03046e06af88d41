#!/usr/bin/env python3
"""ScoreFeed's Android push records sent through Google's own client library, `firebase-admin`
(PyPI), the way a backend would use it: a `messaging.Message` built from each record's payload
(its token or topic, its data, an AndroidConfig of its priority, ttl and collapse_key) and
`messaging.send`, which serializes it again.

  fcm_send_admin.py --url http://127.0.0.1:PORT --project ID --access-token TOKEN [--devices 1] RECORDS.jsonl

The library's endpoint is pointed at --url: firebase-admin builds it from the class attribute
`messaging._MessagingService.FCM_URL` ('https://fcm.googleapis.com/v1/projects/{0}/messages:send',
formatted with the app's project id when the app's messaging service is made), which is set
before the first send; the library has no documented override for FCM (its emulator
variables are for Auth, Database and Firestore). The credential is a google.auth credential
holding the fixed --access-token (no key, no network; it refuses to refresh). The app's project
is --project; a record whose path names another project is an input error.

A mapping the library cannot make is a failure of that record: a field of the payload this
sender does not map (anything but token/topic/condition, data, android.priority/ttl/
collapse_key), or a value the library refuses (ValueError, e.g. a priority it does not take).
Records' priorities are handed over lower-cased ("HIGH" -> "high"): AndroidConfig refuses
anything but "high" and "normal". The ttl "<n>[.<f>]s" becomes a timedelta.

Each request the library makes is captured at its HTTP session (a requests response hook), and
its JSON checked against the record: the same target, the same data (every key, every value),
the same priority (case aside), the same ttl (as a duration) and collapse_key; a difference
counts as "mismatch".

Prints one JSON summary line, as fcm_send.py does, with "client": "firebase-admin <version>" and
"firstBody": the first request's body as the library sent it; exits 0 when every request was
answered 200 and matched its record.
"""
import datetime
import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcm_send  # noqa: E402
from fcm_send import InputError, Tally, fcm_device_tokens, message_of, read_android_records  # noqa: E402
from fcm_standin import DURATION  # noqa: E402

MAPPED_MESSAGE = {"token", "topic", "condition", "data", "android"}
MAPPED_ANDROID = {"priority", "ttl", "collapse_key"}


def duration(text):
    """A Duration string ("60s", "3.5s") as a timedelta; None for anything else."""
    match = DURATION.match(text) if isinstance(text, str) else None
    if not match:
        return None
    nanos = int((match.group(2) or "0").ljust(9, "0"))
    return datetime.timedelta(seconds=int(match.group(1)), microseconds=nanos // 1000)


def static_credential(token):
    import google.auth.credentials
    import google.auth.exceptions

    class StaticToken(google.auth.credentials.Credentials):
        """An OAuth2 access token fixed for the run: valid, never expiring, never refreshed."""

        def __init__(self):
            super().__init__()
            self.token = token

        def refresh(self, request):
            raise google.auth.exceptions.RefreshError("a fixed access token cannot be refreshed")

    return StaticToken()


def build(messaging, record, to):
    """The messaging.Message for `record` to `to` (the device token, in token mode)."""
    message = message_of(record)
    unmapped = sorted(set(message) - MAPPED_MESSAGE)
    android = message.get("android") or {}
    unmapped += sorted("android." + key for key in set(android) - MAPPED_ANDROID)
    if unmapped:
        raise ValueError("fields this sender does not map to firebase-admin: %s" % ", ".join(unmapped))
    ttl = None
    if "ttl" in android:
        ttl = duration(android["ttl"])
        if ttl is None:
            raise ValueError("android.ttl %r is not a duration" % android["ttl"])
    priority = android.get("priority")
    config = messaging.AndroidConfig(
        priority=priority.lower() if isinstance(priority, str) else priority, ttl=ttl,
        collapse_key=android.get("collapse_key")) if "android" in message else None
    token = to if message.get("token") == "{token}" else message.get("token")
    # firebase-admin 7.x marks Message.token deprecated in favour of fid (a Firebase installation
    # id); it still sends it as FCM's "token", which is what the records address.
    warnings.filterwarnings("ignore", "Message.token is deprecated", DeprecationWarning)
    return messaging.Message(
        token=token, topic=message.get("topic"), condition=message.get("condition"),
        data=message.get("data"), android=config)


def differences(record, sent, to):
    """How the library's request body `sent` (parsed) differs from `record`'s message."""
    want = message_of(record)
    got = sent.get("message") or {}
    out = []
    for key in ("token", "topic", "condition"):
        expected = to if key == "token" and want.get(key) == "{token}" else want.get(key)
        if got.get(key) != expected:
            out.append("%s %r, the record's %r" % (key, got.get(key), expected))
    if (got.get("data") or {}) != (want.get("data") or {}):
        keys = sorted(set(got.get("data") or {}) ^ set(want.get("data") or {})) or [
            k for k in want["data"] if got["data"].get(k) != want["data"][k]]
        out.append("data differs (%s)" % ", ".join(keys))
    a, b = got.get("android") or {}, want.get("android") or {}
    if str(a.get("priority")).upper() != str(b.get("priority")).upper():
        out.append("android.priority %r, the record's %r" % (a.get("priority"), b.get("priority")))
    if duration(a.get("ttl")) != duration(b.get("ttl")):
        out.append("android.ttl %r, the record's %r" % (a.get("ttl"), b.get("ttl")))
    if a.get("collapse_key") != b.get("collapse_key"):
        out.append("android.collapse_key %r, the record's %r" % (a.get("collapse_key"), b.get("collapse_key")))
    return out


def send(args):
    import firebase_admin
    from firebase_admin import exceptions, messaging

    records = read_android_records(args.records)
    for number, record, _ in records:
        path = record["request"]["path"]
        if "{project}" not in path and path != "/v1/projects/%s/messages:send" % args.project:
            raise InputError("line %d (game %s, seq %s): the path %s names another project than --project %s" % (
                number, record.get("game"), record.get("seq"), path, args.project))
    # Point the library at the stand-in: the URL is formatted from this when the service is made.
    messaging._MessagingService.FCM_URL = args.url.rstrip("/") + "/v1/projects/{0}/messages:send"
    app = firebase_admin.initialize_app(static_credential(args.access_token), {"projectId": args.project},
                                        name="scorefeed-fcm-wire-%d" % os.getpid())
    captured = []
    session = messaging._get_messaging_service(app)._client.session
    session.hooks["response"].append(lambda response, *a, **k: captured.append(response))
    tokens = fcm_device_tokens(args.devices)
    tally, first_body = Tally(), None
    for number, record, _ in records:
        message = message_of(record)
        for to in (tokens if message.get("token") == "{token}" else [None]):
            before = len(captured)
            try:
                built = build(messaging, record, to)
                messaging.send(built, app=app)
                status, error, detail = 200, None, None
            except ValueError as failure:
                status, error, detail = None, "refused by firebase-admin", str(failure)
            except exceptions.FirebaseError as failure:
                response = failure.http_response
                status = response.status_code if response is not None else None
                error, detail = failure.code, str(failure)
            except Exception as failure:  # e.g. the credential's RefreshError after a 401
                last = captured[-1] if len(captured) > before else None
                status = last.status_code if last is not None else None
                error, detail = type(failure).__name__, str(failure)
            if len(captured) > before:
                body = captured[-1].request.body
                body = body.decode("utf-8") if isinstance(body, bytes) else body
                if first_body is None:
                    first_body = {"headers": {k: v for k, v in captured[-1].request.headers.items()
                                              if k.lower() != "authorization"},
                                  "url": captured[-1].request.url, "body": body}
                if status == 200:
                    wrong = differences(record, json.loads(body), to)
                    if wrong:
                        status, error, detail = None, "mismatch", "; ".join(wrong)
            tally.add(number, record, to, status, error, detail)
    firebase_admin.delete_app(app)
    print(json.dumps(tally.summary(len(records), client="firebase-admin %s" % firebase_admin.__version__,
                                   firstBody=first_body)), flush=True)
    return 0 if tally.all_ok else 1


if __name__ == "__main__":
    sys.exit(fcm_send.main(send, "fcm_send_admin.py", __doc__))
