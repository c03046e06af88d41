# Sourced by the scripts that run `serve` on many inputs: `make_streams <binary>` writes, in
# "$work", 120 generated games as one stream (generated.jsonl), the real games of ../shared as
# one (real.jsonl, when that folder is there) and three seeded streams of hostile lines made from
# them (hostile1..3.jsonl, Tests/Figures/hostile_lines.py), and sets `streams` to their names.
# Needs $root (the checkout), $here (Tests/Figures) and $work.
make_streams() {
  local binary=$1
  for i in $(seq 1 120); do "$binary" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
  "$binary" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
  streams=(generated)
  local real=()
  if real_stream "$binary"; then
    streams+=(real)
    real=("$work/real.jsonl")
  fi
  for seed in 1 2 3; do
    python3 "$here/hostile_lines.py" "$seed" "$work/generated.jsonl" "${real[@]}" > "$work/hostile$seed.jsonl"
    streams+=("hostile$seed")
  done
}

# `real_stream <binary>` writes the real games of ../shared as one stream, "$work/real.jsonl" (the
# 20 files: each game's play-by-play, stats and ind-vs-mem feeds); fails when the folder is absent.
real_stream() {
  local shared="$root/../shared/nba-pbp"
  [ -d "$shared" ] || return 1
  "$1" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
}
