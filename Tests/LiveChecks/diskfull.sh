#!/usr/bin/env bash
# Issue 23's disk-full check, by hand, on every game in a folder of real NBA files (default
# ../shared/nba-pbp): the games streamed into `serve --clock feed --state-dir` on a small tmpfs
# (300 KB unless SIZE says otherwise) that fills up.
#   1. serve exits 75 (not 0), and the summaries of the games whose checkpoints could not be
#      written name the checkpoint and "No space left on device", not the sink;
#   2. the tmpfs is enlarged and the same stream sent again on the same state dir: serve exits 0;
#   3. the union of what both runs wrote equals a clean run's records (nothing lost, nothing
#      changed); a record is written again at most once per game, byte for byte: the delivery in
#      flight when the disk could no longer record it (at-least-once, as after a crash).
# Needs root (mount); without it, says so and exits 0.
# Usage: Tests/LiveChecks/diskfull.sh [folder]        (builds the debug binary first)
set -uo pipefail
cd "$(dirname "$0")/../.."
folder="${1:-../shared/nba-pbp}"
size="${SIZE:-300k}"
[ -d "$folder" ] || { echo "no folder $folder (real NBA play-by-play)"; exit 0; }
swift build -q 2>&1 | grep -v "^$" || true
bin=$PWD/.build/debug/scorefeed
work=$(mktemp -d)
disk="$work/disk"
mkdir -p "$disk"
cleanup() { umount "$disk" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if ! mount -t tmpfs -o size="$size" tmpfs "$disk" 2>/dev/null; then
  echo "skipped: cannot mount a tmpfs here (needs root)"; exit 0
fi
games=()
for file in "$folder"/*.json; do
  case "$(basename "$file")" in boxscore_*|stats_summary_*) continue ;; esac
  games+=("$file")
done
$bin stream "${games[@]}" --out "$work/stream.jsonl" 2>/dev/null
echo "games: ${#games[@]}, stream lines: $(wc -l <"$work/stream.jsonl"), tmpfs: $size"

$bin serve --clock feed --state-dir "$work/clean-state" <"$work/stream.jsonl" >"$work/clean.jsonl" 2>"$work/clean.err"
clean_code=$?
$bin serve --clock feed --state-dir "$disk/state" <"$work/stream.jsonl" >"$work/full.jsonl" 2>"$work/full.err"
full_code=$?
named=$(grep -c "its checkpoint cannot be written (.*No space left on device" "$work/full.err")
withheld=$(grep "pushes withheld: its checkpoint" "$work/full.err" | sed -E 's/.*; ([0-9]+) pushes withheld.*/\1/' | paste -sd+ | bc)
blamed_sink=$(grep -c "the sink failed" "$work/full.err")
echo "clean run: exit $clean_code, $(wc -l <"$work/clean.jsonl") records"
echo "full disk: exit $full_code, $(wc -l <"$work/full.jsonl") records written, ${withheld:-0} withheld;" \
  "$named of ${#games[@]} summaries name the checkpoint (No space left on device), $blamed_sink blame the sink"
grep "pushes withheld" "$work/full.err" | head -1 | cut -c1-400

mount -o remount,size=64m "$disk"
$bin serve --clock feed --state-dir "$disk/state" <"$work/stream.jsonl" >"$work/again.jsonl" 2>"$work/again.err"
again_code=$?
sort -u "$work/full.jsonl" "$work/again.jsonl" >"$work/union"
sort -u "$work/clean.jsonl" >"$work/clean.sorted"
both=$(cat "$work/full.jsonl" "$work/again.jsonl" | wc -l)
twice=$((both - $(wc -l <"$work/union")))
same=no; cmp -s "$work/union" "$work/clean.sorted" && same=yes
echo "space freed, stream re-sent: exit $again_code, $(wc -l <"$work/again.jsonl") records;" \
  "union $(wc -l <"$work/union") records, equals the clean run: $same; written again (same bytes): $twice"
failures=0
[ "$clean_code" -eq 0 ] || { echo "FAIL: the clean run exited $clean_code"; failures=$((failures + 1)); }
[ "$full_code" -eq 75 ] || { echo "FAIL: the full-disk run exited $full_code, not 75"; failures=$((failures + 1)); }
[ "$named" -gt 0 ] || { echo "FAIL: no summary names the checkpoint"; failures=$((failures + 1)); }
[ "$blamed_sink" -eq 0 ] || { echo "FAIL: a summary blames the sink"; failures=$((failures + 1)); }
[ "$again_code" -eq 0 ] || { echo "FAIL: the run after freeing space exited $again_code"; failures=$((failures + 1)); }
[ "$same" = yes ] || { echo "FAIL: the union differs from the clean run"; failures=$((failures + 1)); }
[ "$twice" -le "${#games[@]}" ] || { echo "FAIL: $twice records written twice, more than one per game"; failures=$((failures + 1)); }
[ $failures -eq 0 ] && echo "diskfull: all checks passed" || echo "diskfull: $failures checks failed"
exit $failures
