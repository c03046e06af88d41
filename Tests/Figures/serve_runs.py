"""`serve --clock feed --out /dev/null` run on a stream of lines and measured, one run at a time:
the wall clock and the run's own resource usage (wait4). Shared by the figure scripts that time
`serve` (live_vs_parse.sh, durable_kernel.sh, the experiments under experiments/), which import
`alternate`; as a command, it prints a table of modes for the experiments.

    python3 serve_runs.py <stream> <scorefeed binary> <R> <mode> [mode ...]

A mode is `name|durable|VAR=value,VAR=value|binary`: durable is 1 for a fresh `--state-dir` beside
the stream, the variables are set in the run's environment, and the binary (when given) replaces
the one named first. Each mode's medians are printed: the wall clock (and its ratio to the first
mode's), the CPU time and the waits (voluntary context switches)."""
import os
import shutil
import statistics
import subprocess
import sys
import time


def run(program, stream, state=None, env=None):
    """One run of `program serve` on `stream` (with a fresh `--state-dir` at `state` when given):
    its wall clock in seconds and its resource usage. Fails unless it exits 0."""
    if state:
        shutil.rmtree(state, ignore_errors=True)
    args = [program, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if state else [])
    with open(stream, "rb") as lines:
        start = time.perf_counter()
        child = subprocess.Popen(args, stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    assert status == 0, f"{' '.join(args)}: exit status {status}"
    return wall, usage


def alternate(rounds, modes):
    """Runs each mode of `modes` (name → keyword arguments of `run`) once per round, in turn, so
    the host's drift falls on all alike; returns each mode's (wall, usage) runs by name."""
    runs = {name: [] for name in modes}
    for _ in range(rounds):
        for name, mode in modes.items():
            runs[name].append(run(**mode))
    return runs


def main():
    stream, binary, rounds, specs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    state = os.path.join(os.path.dirname(os.path.abspath(stream)), "state")
    modes = {}
    for spec in specs:
        name, durable, variables, program = (spec.split("|") + ["", "", ""])[:4]
        modes[name] = dict(program=program or binary, stream=stream, state=state if durable == "1" else None,
                           env=dict(v.split("=", 1) for v in variables.split(",") if v))
    runs = alternate(rounds, modes)
    print(f"load average: {' '.join(open('/proc/loadavg').read().split()[:3])}; medians of {rounds} alternating runs")
    base = statistics.median(wall for wall, _ in runs[next(iter(modes))]) * 1000
    for name, each in runs.items():
        wall = statistics.median(w for w, _ in each) * 1000
        cpu = statistics.median(u.ru_utime + u.ru_stime for _, u in each) * 1000
        waits = statistics.median(u.ru_nvcsw for _, u in each)
        print(f"  {name:<34} wall {wall:6.1f} ms ({wall / base:.2f}×)  CPU {cpu:6.1f} ms  waits {waits:5.0f}")


if __name__ == "__main__":
    main()
