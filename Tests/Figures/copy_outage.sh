#!/usr/bin/env bash
# Session 41: a real game streamed at 400x into `serve --clock system` (as production runs, on
# the real clock), through a webhook that answers its requests 11 to 18 with 503 (an outage of a
# few seconds while priority 10s and their priority-5 copies wait in the sender's queue), in
# token and broadcast mode. Prints, per binary and mode, the requests, the records delivered, the
# priority-10 updates, the copies, the copies delivered without their priority 10 (the same event
# and sentAt), and the last record's event and score.
# usage: Tests/Figures/copy_outage.sh <game file> <binary>...   (a release build of each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
game=$1; shift
for bin in "$@"; do
  for mode in token broadcast; do
    work=$(mktemp -d)
    script=$(python3 -c "print(','.join(['200']*10+['503']*8))")
    python3 "$here/../Support/webhook_server.py" --port 0 --log "$work/log" --script "$script" > "$work/port" &
    server=$!
    for _ in $(seq 50); do grep -q PORT "$work/port" && break; sleep 0.1; done
    port=$(awk '/PORT/{print $2}' "$work/port")
    args=(); [ "$mode" = broadcast ] && args=(--mode broadcast)
    # The game's header names its channel (broadcast mode sends on it; token mode ignores it).
    "$bin" stream "$game" --speed 400 2>/dev/null | sed '1s/^{/{"channel":"dGVzdA==",/' \
      | "$bin" serve --clock system --webhook "http://127.0.0.1:$port/push" "${args[@]}" --drain-timeout 30 --webhook-give-up 60 >/dev/null 2>"$work/err" \
      || echo "$bin $mode: serve exited $?"
    kill "$server"; wait "$server" 2>/dev/null || true
    python3 - "$work/log" "$bin" "$mode" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
ok = [json.loads(r["body"]) for r in rows if r["action"] == "200"]
p10 = [r for r in ok if r["priority"] == 10 and r["event"] == "update"]
copies = [r for r in ok if r["reason"].startswith("priority-5 copy")]
originals = {(r["event"], r["sentAt"]) for r in ok if r["priority"] == 10}
alone = [r for r in copies if (r["event"], r["sentAt"]) not in originals]
state = ok[-1]["payload"]["aps"]["content-state"]
print(f"{sys.argv[2]} {sys.argv[3]}: requests {len(rows)}, delivered {len(ok)}, priority-10 updates {len(p10)}, "
      f"copies {len(copies)}, copies alone {len(alone)}, last {ok[-1]['event']} {state['homeScore']}-{state['awayScore']}")
PY
    rm -rf "$work"
  done
done
