#!/usr/bin/env python3
"""Where a durable `serve --clock feed --state-dir` run spends its wall time, read from the system
calls that mark its phases (strace with a seccomp filter, so only the traced calls cost a stop):
the input read to its end, the batches' group commits (`fdatasync` of each game's journal), the
snapshots (a temporary file `fsync`ed, renamed, its directory `fsync`ed), and the exit. Each
phase's figure is the wall time its calls took, and the count of them. strace slows the traced
calls, so the figures are for comparing builds and phases, not absolute. Standard library only.

    python3 Tests/Figures/durable_phases.py <scorefeed> <stream.jsonl> [runs]   (default 3; best run by total)
"""
import os, re, shutil, subprocess, sys, tempfile

binary, stream = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
if shutil.which("strace") is None:
    print("skipped: strace is not installed (apt-get install strace)")
    sys.exit(0)
# `pid time name(args) = result <seconds>`; a call another thread interrupted is split into
# `name(args <unfinished ...>` and `<... name resumed>) = result <seconds>`.
call = re.compile(r"^\d+\s+(\d+\.\d+) (?:<\.\.\. (\w+) resumed>|(\w+)\((\d*))")
took_at_end = re.compile(r"<(\d+\.\d+)>$")
# The calls each phase is made of.
phase_of = {"fdatasync": "journal syncs (fdatasync)", "fsync": "snapshot and directory syncs (fsync)", "rename": "renames"}

def one():
    work = tempfile.mkdtemp()
    try:
        trace = os.path.join(work, "trace")
        with open(stream, "rb") as lines:
            subprocess.run(["strace", "-f", "--seccomp-bpf", "-ttt", "-T", "-o", trace, "-e",
                            "trace=execve,read,fdatasync,fsync,rename,exit_group",
                            binary, "serve", "--clock", "feed", "--state-dir", os.path.join(work, "state"), "--out", "/dev/null"],
                           stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        start = end = input_end = None
        phases = {phase: [0, 0.0] for phase in phase_of.values()}
        for text in open(trace):
            match = call.match(text.strip())
            if not match:
                continue
            at = float(match.group(1))
            name = match.group(2) or match.group(3)
            took_match = took_at_end.search(text.strip())
            took = float(took_match.group(1)) if took_match else None
            if name == "execve" and start is None:
                start = at
            end = at
            if name == "read" and match.group(4) == "0" and re.search(r"\) = 0 <", text):
                input_end = at
            if took is None:
                continue
            key = phase_of.get(name)
            if key:
                phases[key][0] += 1
                phases[key][1] += took
        return end - start, (input_end - start) if input_end else None, phases
    finally:
        shutil.rmtree(work, ignore_errors=True)

results = sorted((one() for _ in range(runs)), key=lambda r: r[0])
total, input_end, phases = results[0]
print(f"{os.path.basename(binary)} on {os.path.basename(stream)}: best of {runs} under strace, {total * 1000:.1f} ms from exec to exit")
if input_end is not None:
    print(f"  input read to its end at {input_end * 1000:.1f} ms")
for name, (count, seconds) in phases.items():
    print(f"  {name:38} {count:5d} calls, {seconds * 1000:7.1f} ms ({100 * seconds / total:4.1f} % of the run)")
