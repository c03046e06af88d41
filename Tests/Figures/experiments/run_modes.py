"""Runs `serve --clock feed --out /dev/null` on the real games as one stream in several modes, in
turn, R rounds, and prints each mode's medians: the wall clock (and its ratio to the first mode),
the CPU time and the waits (voluntary context switches), each run's own from wait4. A mode is
`name|durable|VAR=value,VAR=value|binary`: durable is 1 for a fresh `--state-dir`, the variables
are set in the run's environment, and the binary (when given) replaces the one named first. For
the experiments beside it.
usage: python3 run_modes.py <work dir holding real.jsonl> <scorefeed binary> <R> <mode> [mode ...]"""
import os
import shutil
import statistics
import subprocess
import sys
import time

work, binary, runs, specs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
modes = []
for spec in specs:
    name, durable, variables, own = (spec.split("|") + ["", "", ""])[:4]
    modes.append((name, durable == "1", dict(v.split("=", 1) for v in variables.split(",") if v), own or binary))
rows = {name: [] for name, _, _, _ in modes}
state = os.path.join(work, "state")
for _ in range(runs):
    for name, durable, variables, program in modes:
        shutil.rmtree(state, ignore_errors=True)
        args = [program, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if durable else [])
        with open(os.path.join(work, "real.jsonl"), "rb") as stream:
            start = time.perf_counter()
            child = subprocess.Popen(args, stdin=stream, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env={**os.environ, **variables})
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
        assert status == 0, f"{name}: exit status {status}"
        rows[name].append((wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_nvcsw))
print(f"load average: {' '.join(open('/proc/loadavg').read().split()[:3])}; medians of {runs} alternating runs")
base = statistics.median(r[0] for r in rows[modes[0][0]])
for name in rows:
    wall, cpu, waits = (statistics.median(r[i] for r in rows[name]) for i in range(3))
    print(f"  {name:<34} wall {wall:6.1f} ms ({wall / base:.2f}×)  CPU {cpu:6.1f} ms  waits {waits:5.0f}")
