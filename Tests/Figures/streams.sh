# Sourced by the figures scripts that run `serve` on many inputs or under valgrind: `make_streams <binary>` writes, in
# "$work", 120 generated games as one stream (generated.jsonl), the real games of ../shared as
# one (real.jsonl, when that folder is there) and three seeded streams of hostile lines made from
# them (hostile1..3.jsonl, Tests/Figures/hostile_lines.py), and sets `streams` to their names.
# Needs $root (the checkout), $here (Tests/Figures) and $work.
make_streams() {
  local binary=$1
  generated_stream "$binary"
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

# `generated_stream <binary>` writes 120 generated games (seeds 1 to 120) as one stream,
# "$work/generated.jsonl".
generated_stream() {
  for i in $(seq 1 120); do "$1" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
  "$1" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
}

# `real_stream <binary>` writes the real games of ../shared as one stream, "$work/real.jsonl" (the
# 20 files: each game's play-by-play, stats and ind-vs-mem feeds); fails when the folder is absent.
real_stream() {
  local shared="$root/../shared/nba-pbp"
  [ -d "$shared" ] || return 1
  "$1" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
}

# `sigsuspend_shim <dir>` builds <dir>/sigsuspend.so, for LD_PRELOAD under valgrind: valgrind 3.19
# writes the mask given to sigsuspend in place (to keep its own signal out), and Swift's async main
# parks the main thread in dispatch_main, whose sigsuspend passes a const mask in read-only memory:
# valgrind dies with SIGSEGV. The shim hands the kernel a copy. Needs a C compiler (cc or clang).
sigsuspend_shim() {
  cat >"$1/sigsuspend.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
C
  "$(command -v cc || command -v clang)" -shared -fPIC -O1 -o "$1/sigsuspend.so" "$1/sigsuspend.c"
}
