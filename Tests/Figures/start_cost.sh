#!/usr/bin/env bash
# What starting a process costs a Swift binary, by what it links: a `print` alone, with
# Foundation, and with FoundationNetworking too (libcurl and its ~30 libraries, which `poll` and
# `--webhook` need), and `scorefeed serve` reading nothing. Median wall time of N runs of each.
# usage: Tests/Figures/start_cost.sh [scorefeed binary] [runs]   (default: a release build, 30 runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
runs=${2:-30}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'print(1)\n' >"$work/swift.swift"
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0)\n' >"$work/foundation.swift"
printf 'import Foundation\nimport FoundationNetworking\nprint(Date().timeIntervalSince1970 > 0)\nif CommandLine.arguments.count > 5 { _ = URLSession.shared }\n' >"$work/networking.swift"
for name in swift foundation networking; do swiftc -O "$work/$name.swift" -o "$work/$name" 2>/dev/null; done
python3 - "$runs" "$work/swift" "$work/foundation" "$work/networking" "$bin" <<'PY'
import subprocess, sys, time, os
runs, programs = int(sys.argv[1]), sys.argv[2:]
for program in programs:
    args = [program] if not program.endswith("scorefeed") else [program, "serve", "--clock", "feed", "--out", "/dev/null"]
    times = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.monotonic() - start)
    libraries = subprocess.run(["ldd", program], capture_output=True, text=True).stdout.count("\n")
    name = " ".join(os.path.basename(a) for a in args)
    print(f"{name}: median {sorted(times)[runs // 2] * 1000:.1f} ms over {runs} runs, {libraries} libraries (ldd)")
PY
