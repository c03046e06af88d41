#!/usr/bin/env bash
# Issue 30's figures: what whatever arrives at one moment costs on the live paths (system clock),
# per game and the max over games, on every playbyplay_*.json in ../shared/nba-pbp, in token and
# broadcast mode: a. poll joining games held at 25, 50, 75 % of their span; b. poll through a
# 503 outage from 40 to 70 %, then held; c. serve handed each game's lines up to 25, 50, 75 % at
# once; d. failover of serve to a fresh state dir (and with no state dir) after kill -9: apns-ids
# naming another body, timestamps going back. See join.py's doc and Tests/Figures/README.md.
# usage: Tests/Figures/join.sh [scorefeed binary] [a] [b] [c] [d]     (about 8 minutes for all)
#   default binary: a release build of this checkout; default scenarios: all four.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
shift || true
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
[ -x "$bin" ] || { echo "join.sh: $bin is not an executable scorefeed" >&2; exit 64; }
S="$root/../shared/nba-pbp"
[ -d "$S" ] || { echo "skipped: $S is absent (the real games live beside the project)"; exit 0; }
ls "$S"/playbyplay_*.json >/dev/null 2>&1 || { echo "skipped: no playbyplay_*.json in $S"; exit 0; }
command -v python3 >/dev/null || { echo "skipped: python3 is not on the PATH"; exit 0; }
echo "binary: $bin ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?') checked out); load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
exec python3 "$here/join.py" "$bin" "$S" "$@"
