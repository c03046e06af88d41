#!/usr/bin/env bash
# Lines of Swift, Python, shell and Markdown per folder (Sources/ScoreFeed/<stage>, the other
# targets, the test folders) at a revision and in the working tree, side by side, and the longest
# source file in each.
# usage: Tests/Refactor/lines_per_folder.sh <before rev>
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
before=${1:?usage: lines_per_folder.sh <before rev>}
folder() {
  case "$1" in
    Sources/ScoreFeed/*/*) echo "$1" | cut -d/ -f1-3 ;;
    Sources/*/*) echo "$1" | cut -d/ -f1-2 ;;
    Tests/ScoreFeedTests/*) echo Tests/ScoreFeedTests ;;
    Tests/*/*) echo "$1" | cut -d/ -f1-2 ;;
    *) echo "$1" ;;
  esac
}
count() {  # rev or "" (the working tree) → "folder lines" per file
  local rev=$1
  local files
  if [ -z "$rev" ]; then files=$(git ls-files; git ls-files --others --exclude-standard); else files=$(git ls-tree -r --name-only "$rev"); fi
  echo "$files" | grep -E '^(Sources|Tests)/.*\.(swift|py|sh|md)$|^README\.md$' | sort -u | while read -r f; do
    if [ -z "$rev" ]; then [ -f "$f" ] || continue; n=$(wc -l <"$f"); else n=$(git show "$rev:$f" | wc -l); fi
    echo "$(folder "$f") $n $f"
  done
}
count "$before" >/tmp/lpf.before.$$
count "" >/tmp/lpf.after.$$
trap 'rm -f /tmp/lpf.before.$$ /tmp/lpf.after.$$' EXIT
printf '%-34s %8s %8s\n' folder "$before" now
awk 'FNR==NR {b[$1]+=$2; k[$1]=1; next} {a[$1]+=$2; k[$1]=1} END {for (f in k) printf "%-34s %8s %8s\n", f, (f in b ? b[f] : "—"), (f in a ? a[f] : "—")}' \
  /tmp/lpf.before.$$ /tmp/lpf.after.$$ | sort
echo
echo "longest source files now:"
grep '^Sources' /tmp/lpf.after.$$ | grep '\.swift$' | sort -k2 -n -r | head -5 | awk '{printf "  %5d %s\n", $2, $3}'
