#!/usr/bin/env bash
# Issue 31 item 3's figures: every record of the real games in ../shared/nba-pbp and of
# Fixtures/edge/long-names.json, token mode with --start (limit 4096) and broadcast (5120), measured
# by Tests/Figures/size_guard.py in each serialization the size guard covers. With two binaries,
# also how many lines differ between them.
#   Tests/Figures/size-guard.sh [AFTER-BINARY [BEFORE-BINARY]]
set -euo pipefail
cd "$(dirname "$0")/../.."
after=${1:-.build/debug/scorefeed}
before=${2:-}
shared=../shared/nba-pbp
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
files=(Fixtures/edge/long-names.json)
if [ -d "$shared" ]; then files+=("$shared"/playbyplay_*.json); else echo "($shared is absent: the fixture only)"; fi
for mode in token broadcast; do
  if [ "$mode" = token ]; then flags=(--start --bundle-id com.example.app); limit=4096
  else flags=(--mode broadcast --channel-id dGVzdC1jaGFubmVs --bundle-id com.example.app); limit=5120; fi
  echo "== $mode mode (${flags[*]})"
  for file in "${files[@]}"; do
    name=$(basename "$file" .json)
    "$after" replay --jsonl "${flags[@]}" "$file" > "$out/$name.after" 2>/dev/null
    if [ -n "$before" ]; then
      "$before" replay --jsonl "${flags[@]}" "$file" > "$out/$name.before" 2>/dev/null
      python3 Tests/Figures/size_guard.py "$limit" "$out/$name.before" "$out/$name.after" | sed "s/\.before/ (before)/; s/\.after/ (after)/"
    else
      python3 Tests/Figures/size_guard.py "$limit" "$out/$name.after"
    fi
  done
done
