#!/usr/bin/env bash
# Issue 39's count of the named types one live line crosses on `serve`'s path: a debug build
# (-Onone: struct inits, getters and methods stay functions of their own) runs
# `serve --clock feed --out /dev/null` under valgrind's callgrind on a real game's stream, the
# header and its first N events and then its first 2N, fed one line at a time as a live feed
# comes; the functions called more in the second run are the per-line ones, and
# Tests/Figures/line_types.py takes each to the ScoreFeed / ScoreFeedModel types it is code of, or
# only copies, destroys or looks up the metadata of (its docstring has the method and its limits).
# A revision is built in ../wt-<short hash> beside the checkout, kept for the next run (a debug
# build takes a few minutes; an unchanged one is checked in seconds); a directory is a checkout
# built as it is; a file is the debug binary itself, which must be built unoptimized. Builds set
# SCOREFEED_ONONE=1: since 0792703 debug builds compile the package's code with -O otherwise,
# which inlines what this counts (so a checkout's next plain `swift build` rebuilds it with -O).
# Needs valgrind, ../shared/nba-pbp (or a game file given) and a C compiler.
# usage: Tests/Figures/line_types.sh <rev | checkout | debug binary> [N] [game file] [line_types.py options]
#   default N 150, the first playbyplay_*.json of ../shared/nba-pbp ("" for either: the default).
#   Options: --functions (under each type, the functions that made it count), --at-once (each input
#   written at once: read as one backlog batch, not line by line). About 10 s once built.
#   e.g. Tests/Figures/line_types.sh 7499c2d > Tests/Figures/line-types-7499c2d.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 <rev | checkout | debug binary> [N] [game file] [--functions] [--at-once]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed (apt-get install valgrind)"; exit 0; }
what=$1
n=${2:-150}
game=${3:-}
options=("${@:4}")
if [ -z "$game" ]; then
  shared="$root/../shared/nba-pbp"
  [ -d "$shared" ] || { echo "skipped: the real games are absent ($shared)"; exit 0; }
  game=$(ls "$shared"/playbyplay_*.json | head -1)
fi
if [ -f "$what" ] && [ -x "$what" ]; then
  bin=$what label=$what
elif [ -d "$what" ]; then
  tree=$(cd "$what" && pwd)
  (cd "$tree" && SCOREFEED_ONONE=1 swift build --product scorefeed >&2)
  bin="$tree/.build/debug/scorefeed"
  label="$tree at $(git -C "$tree" rev-parse --short HEAD)$(git -C "$tree" diff --quiet HEAD -- Sources Package.swift || echo ' with changes')"
else
  rev=$(git -C "$root" rev-parse --short "$what^{commit}")
  tree=$(cd "$root/.." && pwd)/wt-$rev
  if [ ! -d "$tree" ]; then
    git -C "$root" worktree add -q --detach "$tree" "$rev" >&2
  elif [ "$(git -C "$tree" rev-parse --short HEAD)" != "$rev" ]; then
    echo "$tree is at $(git -C "$tree" rev-parse --short HEAD), not $rev" >&2; exit 1
  fi
  (cd "$tree" && SCOREFEED_ONONE=1 swift build --product scorefeed >&2)
  bin="$tree/.build/debug/scorefeed" label="revision $rev ($tree)"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind stops on libdispatch's sigsuspend without the shim (streams.sh says why).
. "$here/streams.sh"
sigsuspend_shim "$work"
"$bin" stream "$game" --out "$work/game.jsonl" 2>/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; game $(basename "$game")"
python3 "$here/line_types.py" "$bin" "$work/game.jsonl" --lines "$n" --preload "$work/sigsuspend.so" \
  --label "$label" "${options[@]}"
