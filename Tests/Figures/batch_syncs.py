"""How long the batches' group commits wait for the disk: reads `strace -f -tt -T -e
trace=fdatasync,fsync` of a durable `serve` and prints, over the batches that synced more than one
journal, how many there were and how many journals they synced, the sum of their `fdatasync`
calls' times, and the sum of each batch's span from its first call's start to its last one's end
(what the batch's pushes wait; about the calls' sum when they come one after another).

    python3 batch_syncs.py <strace output>"""
import re
import sys


def seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


calls = []  # (start, end, duration) of each fdatasync, in order of start
fsyncs = []  # starts of the fsync calls
pending = {}  # pid -> start of an unfinished fdatasync
for line in open(sys.argv[1]):
    match = re.match(r"(\d+)\s+(\d+:\d+:\d+\.\d+) (.*)", line)
    if not match:
        continue
    pid, stamp, rest = match.group(1), seconds(match.group(2)), match.group(3)
    duration = re.search(r"<(\d+\.\d+)>\s*$", rest)
    if rest.startswith("fdatasync(") and "unfinished" in rest:
        pending[pid] = stamp
    elif rest.startswith("<... fdatasync resumed>") and duration:
        start = pending.pop(pid)
        calls.append((start, stamp, float(duration.group(1))))
    elif rest.startswith("fdatasync(") and duration:
        calls.append((stamp, stamp + float(duration.group(1)), float(duration.group(1))))
    elif rest.startswith("fsync("):
        fsyncs.append(stamp)
calls.sort()
# A batch's journals: the fdatasync calls before the next fsync (its directory's).
groups, group = [], []
for call in calls:
    if group and any(group[-1][0] < f < call[0] for f in fsyncs):
        groups.append(group)
        group = []
    group.append(call)
if group:
    groups.append(group)
several = [g for g in groups if len(g) > 1]
calls_total = sum(d for g in several for _, _, d in g)
waited = sum(max(end for _, end, _ in g) - g[0][0] for g in several)
print(f"{len(several)} batches of several journals ({sum(len(g) for g in several)} journals): "
      f"the calls {calls_total * 1000:.1f} ms together, the batches waited {waited * 1000:.1f} ms")
