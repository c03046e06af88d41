#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address) and runs each for a bounded
# time from a seed corpus made of the fixtures (and ../shared/nba-pbp when it is there).
#
#   Tests/Fuzz/run.sh [seconds-per-target] [target ...]
#
# Targets: feed (format detection), fixture, livedata, statsv2, v3 (each decoder alone),
# streamline (serve's input), fold (decode + validate + fold + coalesce + render), differential
# (the byte reader against JSONDecoder on serve lines and fixture files: any difference crashes),
# state (a game's snapshot and journal read back and replayed as a restart does: max_len 65536,
# as a snapshot is about 17 KB), memo (a poller's copies read after one another with its memo
# against each read alone: any difference traps; seeded from the real games' first actions).
# Findings (crashes) land in .build/fuzz/<target>/findings; FUZZ_MAX_LEN sets -max_len (4096).
# Tests/Fuzz/corpus/<target>/ holds committed inputs (a minimized corpus of small inputs and
# past findings); they seed the target, and JSONScannerDifferentialTests runs them as tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(feed fixture livedata statsv2 v3 streamline fold differential state memo)
out="$root/.build/fuzz"
lib="$out/lib"

# One library module with the model and the engine sources (the engine's `import ScoreFeedModel`
# is dropped: both are one module here), compiled once with the sanitizers; every target's
# entry file imports it.
model_sources=$(find "$root/Sources/ScoreFeedModel" -name '*.swift' | sort)
engine_sources=$(find "$root/Sources/ScoreFeed" -name '*.swift' | sort)
rm -rf "$out/src" && mkdir -p "$out/src"
for f in $engine_sources; do
  sed 's/^import ScoreFeedModel$//' "$f" > "$out/src/$(echo "${f#$root/Sources/}" | tr '/' '_')"
done

flags=(-sanitize=fuzzer,address -parse-as-library -O -g)
if [ ! -f "$lib/libScoreFeedFuzz.a" ] || [ -n "$(find "$root/Sources" -newer "$lib/libScoreFeedFuzz.a" -name '*.swift' | head -1)" ]; then
  echo "building the library…" >&2
  rm -rf "$lib" && mkdir -p "$lib"
  swiftc "${flags[@]}" -enable-testing -module-name ScoreFeedFuzz -emit-library -static \
    -emit-module -emit-module-path "$lib/ScoreFeedFuzz.swiftmodule" \
    $model_sources "$out"/src/*.swift -o "$lib/libScoreFeedFuzz.a" 2>&1 | grep -v "ld.gold: warning" || true
  [ -f "$lib/libScoreFeedFuzz.a" ] || { echo "building the library failed" >&2; exit 1; }
fi
for target in "${targets[@]}"; do
  case "$target" in
    feed) entry=FuzzFeed.swift ;;
    fixture) entry=FuzzFixture.swift ;;
    streamline) entry=FuzzStreamLine.swift ;;
    fold) entry=FuzzFold.swift ;;
    livedata) entry=FuzzLiveData.swift ;;
    statsv2) entry=FuzzStatsV2.swift ;;
    v3) entry=FuzzV3.swift ;;
    differential) entry=FuzzDifferential.swift ;;
    state) entry=FuzzState.swift ;;
    memo) entry=FuzzMemo.swift ;;
    *) echo "unknown target $target" >&2; exit 64 ;;
  esac
  binary="$out/fuzz-$target"
  if [ ! -x "$binary" ] || [ "$lib/libScoreFeedFuzz.a" -nt "$binary" ] || [ "$root/Tests/Fuzz/$entry" -nt "$binary" ]; then
    echo "building $target…" >&2
    { echo "@testable import ScoreFeedFuzz"; cat "$root/Tests/Fuzz/$entry"; } > "$out/entry-$target.swift"
    swiftc "${flags[@]}" -I "$lib" -L "$lib" -lScoreFeedFuzz "$out/entry-$target.swift" -o "$binary" 2>&1 | grep -v "ld.gold: warning" || true
    [ -x "$binary" ] || { echo "building $target failed" >&2; exit 1; }
  fi
  corpus="$out/$target/corpus"
  mkdir -p "$corpus" "$out/$target/findings"
  # Seeds: every fixture, each fixture event as a stream line, the committed corpus
  # (Tests/Fuzz/corpus/<target>, which the differential test also reads), and the real games
  # if present.
  find "$root/Fixtures" -name '*.json' -exec cp {} "$corpus/" \;
  if [ -d "$root/Tests/Fuzz/corpus/$target" ]; then cp "$root/Tests/Fuzz/corpus/$target"/* "$corpus/"; fi
  if [ -d "$root/../shared/nba-pbp" ]; then
    for f in "$root"/../shared/nba-pbp/*.json; do head -c 200000 "$f" > "$corpus/real-$(basename "$f")"; done
  fi
  if [ "$target" = streamline ] || [ "$target" = differential ]; then
    python3 - "$root/Fixtures/one-point.json" "$corpus" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/header.jsonl", "w").write(json.dumps(d["game"]) + "\n")
for i, e in enumerate(d["events"][:40]):
    e["game"] = d["game"]["gameId"]
    open(f"{sys.argv[2]}/event-{i}.jsonl", "w").write(json.dumps(e) + "\n")
PY
  fi
  if [ "$target" = memo ] && [ -d "$root/../shared/nba-pbp" ]; then
    # Copies of the real games' first actions, 0x00 between them: growing, shrinking (a stale
    # edge's), one action edited, one without its time, one inserted out of order.
    python3 - "$root/../shared/nba-pbp" "$corpus" <<'PY'
import copy, glob, json, os, sys
drop = {"qualifiers", "personIdsFilter", "xLegacy", "yLegacy", "x", "y", "side", "area", "areaDetail", "officialId"}
for path in sorted(glob.glob(sys.argv[1] + "/playbyplay_*.json"))[:4]:
    doc = json.load(open(path))
    if "game" not in doc or "actions" not in doc.get("game", {}):
        continue
    actions = [{k: v for k, v in a.items() if k not in drop} for a in doc["game"]["actions"][:30]]
    def text(items, minute):
        return json.dumps({"meta": {"version": 1, "time": f"2025-01-01 20:{minute:02d}:00.000"},
                           "game": {"gameId": doc["game"].get("gameId"), "actions": items}}, separators=(",", ":")).encode()
    edited = copy.deepcopy(actions[:24]); edited[18]["subType"] = "edited"
    untimed = copy.deepcopy(actions[:24]); untimed[10].pop("timeActual", None)
    inserted = copy.deepcopy(actions[:22]); extra = copy.deepcopy(actions[5]); extra["actionNumber"] = 90000; extra["orderNumber"] = 1; inserted.append(extra)
    seeds = {"grows": [text(actions[:20], 1), text(actions[:24], 2)], "shrinks": [text(actions[:24], 2), text(actions[:20], 1)],
             "edited": [text(actions[:20], 1), text(edited, 2)], "untimed": [text(actions[:20], 1), text(untimed, 2)],
             "inserted": [text(actions[:20], 1), text(inserted, 2), text(actions[:26], 3)]}
    name = os.path.basename(path)[:-5]
    for kind, copies in seeds.items():
        open(f"{sys.argv[2]}/{name}-{kind}", "wb").write(b"\0".join(copies))
PY
  fi
  echo "fuzzing $target for ${seconds}s…" >&2
  (cd "$out/$target/findings" && "$binary" -use_value_profile=1 -max_total_time="$seconds" -max_len=${FUZZ_MAX_LEN:-$([ "$target" = state ] || [ "$target" = memo ] && echo 65536 || echo 4096)} -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 "$corpus" 2>&1 | tee "$out/$target/last-run.log" | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|crash-" || true)
done
