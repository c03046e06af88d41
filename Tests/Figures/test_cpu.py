#!/usr/bin/env python3
"""Where `swift test`'s CPU goes, by process: runs `swift test --skip-build [args]` (built
first) and samples /proc every 0.2 s, keeping each process's last CPU time (user + system) and
what it was (the test process, `scorefeed <command>`, `python <script>`, Chromium, docc, ...).
Processes that started before the run are left out. A process that lives less than a sample
apart can be missed, and a process's CPU after its last sample is lost, so the sum falls short
of the machine's (the kernel's own work is not any process's); the shares are what it is for.
Standard library only.

    python3 Tests/Figures/test_cpu.py [swift test arguments]      (e.g. --filter WireTests)
"""
import collections
import os
import subprocess
import sys
import threading
import time

HZ = os.sysconf("SC_CLK_TCK")


def boot_ticks_now():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) * HZ


def label(args):
    exe = os.path.basename(args[0])
    if exe.startswith("python"):
        script = next((os.path.basename(a) for a in args[1:] if a.endswith(".py")), None)
        return f"python {script}" if script else "python -c/-m (imports checked)"
    if exe == "scorefeed":
        return f"scorefeed {args[1] if len(args) > 1 else ''}"
    if exe.endswith(".xctest"):
        return "the test process (in-process tests)"
    if "chrom" in exe:
        return "chromium"
    return exe


def main():
    since = boot_ticks_now()
    seen = {}  # (pid, starttime) -> [label, ticks]
    busy_before = open("/proc/stat").readline().split()[1:]
    start = time.monotonic()
    run = subprocess.Popen(["swift", "test", "--skip-build", *sys.argv[1:]], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    out = []
    reader = threading.Thread(target=lambda: out.extend(line.decode(errors="replace") for line in run.stdout), daemon=True)
    reader.start()
    while run.poll() is None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    args = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            except OSError:
                continue
            started = int(fields[19])
            if started < since or not args:
                continue
            ticks = int(fields[11]) + int(fields[12])
            key = (pid, started)
            if key not in seen:
                seen[key] = [label(args), 0]
            seen[key][1] = max(seen[key][1], ticks)
        time.sleep(0.2)
    reader.join()
    wall = time.monotonic() - start
    busy_after = open("/proc/stat").readline().split()[1:]
    delta = [int(b) - int(a) for a, b in zip(busy_before, busy_after)]
    idle = delta[3] + delta[4]
    machine = (sum(delta[:8]) - idle) / HZ
    totals, counts = collections.Counter(), collections.Counter()
    for name, ticks in seen.values():
        totals[name] += ticks / HZ
        counts[name] += 1
    summary = next((line.strip() for line in reversed(out) if "Test run with" in line), "no summary line")
    print(f"# swift test --skip-build {' '.join(sys.argv[1:])}: {summary}")
    print(f"wall {wall:.1f} s on {os.cpu_count()} cores; the machine busy {machine:.1f} CPU-s "
          f"({100 * machine / (wall * os.cpu_count()):.0f} %), of it {sum(totals.values()):.1f} s seen in processes")
    names = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
    print("the machine's CPU-s by kind: " + ", ".join(f"{n} {d / HZ:.1f}" for n, d in zip(names, delta[:8]) if n not in ("idle",)))
    for name, secs in totals.most_common():
        if secs >= 0.5:
            print(f"{secs:8.1f} s {100 * secs / machine:5.1f} %  {counts[name]:4d} process(es)  {name}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
