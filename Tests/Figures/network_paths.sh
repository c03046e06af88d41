#!/usr/bin/env bash
# The two paths that go through FoundationNetworking (libcurl), run with two `scorefeed` binaries
# on the real games, for a build that links differently (session 93: --static-swift-stdlib):
# `poll --today` against Tests/Support/nba_live_server.py (token mode; then both platforms with a
# state dir), each binary's end payloads compared game by game; and `serve --webhook` with a state
# dir against Tests/Support/webhook_server.py answering 500, 503 with Retry-After, a dropped
# connection, a 1 GB body and a 10 s stall before its 200s: the requests made and the distinct
# pushes delivered.
# usage: Tests/Figures/network_paths.sh <binary> <other binary>   (needs ../shared/nba-pbp)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 <binary> <other binary>" >&2; exit 2; }
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$1" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
# `serve_on <script> args...` starts a test server, sets $server and $port.
serve_on() {
  python3 "$root/Tests/Support/$1" --port 0 "${@:2}" >"$work/server.out" 2>/dev/null &
  server=$!
  for _ in $(seq 100); do grep -q PORT "$work/server.out" && break; sleep 0.1; done
  port=$(awk '/PORT/ { print $2 }' "$work/server.out")
}
stop_server() { kill $server 2>/dev/null; wait $server 2>/dev/null; server=; }
for case in token both; do
  extra=()
  [ $case = both ] && extra=(--platform ios,android --state-dir "$work/state")
  for side in 1 2; do
    binary=${!side}
    rm -rf "$work/state"
    serve_on nba_live_server.py --speed 600
    base="http://127.0.0.1:$port/static/json/liveData"
    timeout 300 "$binary" poll --today --scoreboard-url "$base/scoreboard/todaysScoreboard_00.json" \
      --url-template "$base/playbyplay/playbyplay_{gameId}.json" --boxscore-template "$base/boxscore/boxscore_{gameId}.json" \
      --interval 1 --clock feed --timeout 5 "${extra[@]}" >"$work/poll$side.jsonl" 2>"$work/poll$side.err"
    status=$?
    stop_server
    echo "poll --today ($case) $binary: exit $status, $(wc -l <"$work/poll$side.jsonl") records; $(tail -1 "$work/poll$side.err")"
  done
  python3 - "$work/poll1.jsonl" "$work/poll2.jsonl" <<'PY'
import json, sys
def ends(path):
    return {(r["game"], r.get("platform", "ios")): json.dumps(r["payload"], sort_keys=True)
            for r in map(json.loads, open(path)) if r["event"] == "end"}
a, b = ends(sys.argv[1]), ends(sys.argv[2])
print(f"  {len(a)} ends by game and platform: " + ("the same end payloads" if a == b else f"DIFFERENT: {sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))}"))
PY
done
for side in 1 2; do
  binary=${!side}
  rm -rf "$work/state"
  serve_on webhook_server.py --log "$work/hook$side.log" --script 500,503:1,drop,huge,slow:10
  timeout 300 "$binary" serve --clock feed --webhook "http://127.0.0.1:$port/push" --state-dir "$work/state" <"$work/real.jsonl" >/dev/null 2>"$work/hook.err"
  status=$?
  stop_server
  delivered=$(python3 -c 'import json, sys; print(len({r["key"] for r in map(json.loads, open(sys.argv[1])) if r["action"] == "200"}))' "$work/hook$side.log")
  echo "serve --webhook $binary: exit $status, $(wc -l <"$work/hook$side.log") requests, $delivered pushes delivered"
done
