#!/usr/bin/env python3
"""ScoreFeed's token-mode push records sent through a real APNs client library, `aioapns`
(PyPI, 4.x), the way an application would use it: the payload handed over as an object (aioapns
serializes it again, `json.dumps(..., ensure_ascii=False)`, with `", "` and `": "`), the record's
headers as the library's parameters, a JWT provider key, one record's devices sent concurrently.

  apns_send_aioapns.py --host localhost --port PORT --ca CERT.pem --auth-key AuthKey.p8 \\
                       --key-id KID --team-id TEAM [--devices 3] [--wait 30] RECORDS.jsonl

Broadcast records are refused (aioapns cannot send broadcasts). Each device's apns-id is
apns_send.device_apns_id(record, token). aioapns matches answers to requests by apns-id; a
record whose requests are not all answered within --wait seconds (a bound, so a lost answer
cannot hang the run) counts them as "no answer" and ends the run there ("stoppedAt"). Prints one JSON summary line, as apns_send.py
does, and exits 0 when every request was answered 200.
"""
import argparse
import asyncio
import json
import logging
import os
import ssl
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apns_send import Tally, device_apns_id, device_tokens, is_broadcast, read_records  # noqa: E402


async def send(args):
    import aioapns.connection
    from aioapns import APNs, NotificationRequest, PushType

    # Point the library's sandbox endpoint at the stand-in.
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_SERVER = args.host
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_PORT = args.port
    records = read_records(args.records)
    if any(is_broadcast(record) for record, _ in records):
        print(json.dumps({"error": "aioapns cannot send broadcast records"}), flush=True)
        return 2
    with open(args.auth_key) as f:
        key = f.read()
    topics = {record["request"]["headers"].get("apns-topic") for record, _ in records}
    client = APNs(
        key=key, key_id=args.key_id, team_id=args.team_id, topic=sorted(t for t in topics if t)[0] if topics else "x",
        use_sandbox=True, ssl_context=ssl.create_default_context(cafile=args.ca), max_connection_attempts=1)
    tokens = device_tokens(args.devices)
    tally = Tally()
    stopped = None
    for record, body in records:
        if stopped:
            break
        headers = record["request"]["headers"]
        message = json.loads(body)
        requests = []
        for token in tokens:
            expiration = int(headers["apns-expiration"])
            requests.append((token, NotificationRequest(
                device_token=token, message=message, notification_id=device_apns_id(record, token),
                time_to_live=expiration - int(time.time()), priority=int(headers["apns-priority"]),
                push_type=PushType.LIVEACTIVITY, apns_topic=headers.get("apns-topic"))))
        tasks = [asyncio.ensure_future(client.send_notification(request)) for _, request in requests]
        done, pending = await asyncio.wait(tasks, timeout=args.wait)
        for task in pending:
            task.cancel()
        for (token, request), task in zip(requests, tasks):
            if task in pending:
                tally.add(None, "no answer", record, token, request.notification_id)
                stopped = {"activity": record.get("activity"), "seq": record.get("seq"),
                           "why": "requests left unanswered (aioapns matches answers by apns-id)"}
            elif task.exception() is not None:
                tally.add(None, "%s" % type(task.exception()).__name__, record, token, request.notification_id)
            else:
                result = task.result()
                status = int(result.status) if str(result.status).isdigit() else result.status
                tally.add(status, result.description, record, token, request.notification_id)
    client.pool.close()
    print(json.dumps(tally.summary(len(records), client="aioapns", stoppedAt=stopped)), flush=True)
    return 0 if tally.all_ok and not stopped else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--auth-key", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--devices", type=int, default=3)
    parser.add_argument("--wait", type=float, default=30)
    parser.add_argument("records")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    return asyncio.run(send(args))


if __name__ == "__main__":
    sys.exit(main())
