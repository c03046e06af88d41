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
  local shared="$root/../shared/nba-pbp" real=()
  if [ -d "$shared" ]; then
    "$binary" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
    streams+=(real)
    real=("$work/real.jsonl")
  fi
  for seed in 1 2 3; do
    python3 "$here/hostile_lines.py" "$seed" "$work/generated.jsonl" "${real[@]}" > "$work/hostile$seed.jsonl"
    streams+=("hostile$seed")
  done
}
