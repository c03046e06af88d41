#!/usr/bin/env bash
# Sweeps the simulator over many seeds of days that draw the real games in ../shared/nba-pbp
# (beside generated ones), and prints each seed's verdict and the first lines of any day that broke
# (with its replay command). The default run uses generated games only; the real games' tidiness
# gaps (inserted and deleted actions, missing times) and timings find what it does not.
# usage: Tests/Figures/real_sweeps.sh [scorefeed binary] [first seed] [last seed] [days] [simulate options...]
#   default: this checkout's release build, seeds 3 to 40, 20 days each (6 day-runs a day: two
#   modes, three platform sets), one thread per seed run so that two sweeps can share two cores.
#   e.g. Tests/Figures/real_sweeps.sh .build/release/scorefeed 41 60 20 --interval 60
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
first=${2:-3}
last=${3:-40}
days=${4:-20}
options=("${@:5}")
games="$root/../shared/nba-pbp"
[ -d "$games" ] || { echo "skipped: the real games are absent ($games)"; exit 0; }
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null) || { echo "the release build failed" >&2; exit 1; }
  bin="$root/.build/release/scorefeed"
fi
broke=0
for seed in $(seq "$first" "$last"); do
  out=$("$bin" simulate --days "$days" --seed "$seed" --games "$games" --threads 1 "${options[@]}" 2>&1)
  verdict=$(printf '%s\n' "$out" | sed -n 's/^days: \([0-9]*\) (\([0-9]*\) broke.*/\2 of \1/p')
  digest=$(printf '%s\n' "$out" | sed -n 's/.*records digest: //p')
  echo "seed $seed: $verdict day-runs broke, digest $digest"
  case "$verdict" in 0\ of*) ;; *) broke=$((broke + 1)); printf '%s\n' "$out" | grep -E '^day |^  ' | head -6 | sed 's/^/    /' ;; esac
done
echo "seeds that broke: $broke of $((last - first + 1)) (--days $days ${options[*]})"
[ "$broke" -eq 0 ]
