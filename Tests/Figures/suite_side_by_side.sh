#!/usr/bin/env bash
# The whole `swift test` of two revisions, run alternately in one sitting on this machine, each
# built first in a worktree of its own: the test run's seconds (as Swift Testing prints them), and
# the wall and CPU seconds (user + sys, the processes the tests spawn included). Before each run, a
# host index: `scorefeed simulate --days 1 --threads 1` by the revision's debug build (-O), so a
# run on a slow moment of the host can be told from a slower revision.
# Run beside ../shared with SCOREFEED_VENV set (and chromium, promtool installed) to run every test.
# usage: Tests/Figures/suite_side_by_side.sh <rev> <rev> [runs]   (default 2 runs each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 <rev> <rev> [runs]" >&2; exit 2; }
runs=${3:-2}
# Beside the checkout, so each worktree finds ../shared as the checkout does.
work=$(mktemp -d "$root/../suite-sbs-XXXXXX")
trap 'for w in "$work"/wt-*; do [ -d "$w" ] && { git -C "$root" worktree remove --force "$w" >/dev/null 2>&1 || true; }; done; rm -rf "$work"' EXIT
[ -n "${SCOREFEED_VENV:-}" ] || echo "SCOREFEED_VENV is not set: the wire tests will skip in the worktrees (no .build/venv there)" >&2
trees=()
for rev in "$1" "$2"; do
  tree="$work/wt-$(git -C "$root" rev-parse --short "$rev")"
  git -C "$root" worktree add -q --detach "$tree" "$rev"
  (cd "$tree" && swift build --build-tests >/dev/null 2>&1) || { echo "$rev: the tests do not build" >&2; exit 1; }
  trees+=("$tree")
done
# The worktrees sit one level deeper than the checkout: ../shared is found through a link.
[ -d "$root/../shared" ] && ln -sfn "$(cd "$root/../shared" && pwd)" "$work/shared"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for run in $(seq 1 "$runs"); do
  for tree in "${trees[@]}"; do
    name=$(basename "$tree" | sed 's/^wt-//')
    index=$({ cd "$tree" && .build/debug/scorefeed simulate --days 1 --threads 1 2>&1 || true; } | tail -1 | sed 's/^time: //')
    log=$(mktemp)
    (cd "$tree" && /usr/bin/time -f "%e %U %S" -o "$log.time" swift test --skip-build >"$log" 2>&1) || true
    read -r wall user sys < <(tail -1 "$log.time" 2>/dev/null || echo "0 0 0") || true
    summary=$(grep -E "Test run with" "$log" | tail -1 | sed -E 's/.*(Test run with .*)/\1/' || true)
    [ -n "$summary" ] || summary="no test run summary (the run crashed?)"
    printf "%s run %s: %s; %.1f s wall, %.1f s CPU; host index %s\n" "$name" "$run" "$summary" "$wall" "$(echo "$user + $sys" | bc)" "$index"
    rm -f "$log" "$log.time"
  done
done
