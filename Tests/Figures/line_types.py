#!/usr/bin/env python3
"""How many named types one live line crosses on `serve`'s path: a dynamic count, from two runs of
a debug build under `valgrind --tool=callgrind`. Standard library only (and valgrind, `swift
demangle`). Tests/Figures/line_types.sh builds the binary and makes the stream; run alone:

    python3 Tests/Figures/line_types.py <debug scorefeed> <stream.jsonl> [--lines N] [--preload shim.so]
        [--keep DIR] [--label TEXT] [--at-once] [--functions]

The stream is `scorefeed stream <one game>`: a header line, then one event line per action. The
header and its first N events, then the header and its first 2N, are fed to `serve --clock feed
--out /dev/null` as a live feed is: one line at a time, the next written only once the line before
was read and the process is idle (every thread blocked: the reader in `read` on standard input, no
thread running or waiting for valgrind's lock), so each line is a batch of its own, as a live line
arrives (`--at-once`: the whole input written at once, so it is read as one backlog batch). The
functions whose call count grows from the first run to the second are the per-line functions.
Each one's symbol is demangled (`swift demangle --tree-only`) and taken to the named types (struct,
class, actor, enum, protocol; nested types by their full name, e.g. `GameService.Taken`) of
ScoreFeed, ScoreFeedModel and the scorefeed executable that it belongs to:

- code: a method, initializer, accessor, closure, async partial function, `deinit`, a protocol
  witness (the conforming type and the protocol), a default value, of the type or of an extension
  of it;
- copied only: the type is only in value operations (value witnesses, outlined copy / destroy /
  consume / retain / release / enum-tag functions, metadata and witness-table accessors,
  reabstraction thunks), anywhere in the type operated on (`[(Int, GameService.Taken)]` counts
  `GameService.Taken`), never in code of its own.

A type counts when any added line crosses it: `calls/line` (calls added per added line) tells a
type every line crosses (1 or more) from one only some kinds of event cross (a timeout's 0.04).
Actors are told from classes by their conformance to `Actor` (`nm` of the binary). Code of the
modules that is not any type's (free functions; extensions of the standard library's types) is
counted on a line of its own, not among the types.

What it cannot see: code the compiler put inline (at -Onone only transparent functions, and
stored property reads within the module, which are field accesses, not calls); a value copied as
plain bytes (a trivial struct or enum copied in the code that holds it: no call); code run by
the runtime on a type's behalf without a function of the type's own (a trivial type's value
witnesses are the runtime's). Async functions count each partial function (entered by tail call,
which callgrind counts as a call) as a function of their type.
"""
import argparse
import collections
import fcntl
import os
import re
import struct
import subprocess
import sys
import tempfile
import termios
import time

MODULES = ("ScoreFeed", "ScoreFeedModel", "scorefeed")
NOMINAL = {"Structure": "struct", "Class": "class", "Enum": "enum", "Protocol": "protocol",
           "OtherNominalType": "type", "TypeAlias": "typealias"}
BOUND = {"BoundGenericStructure", "BoundGenericClass", "BoundGenericEnum", "BoundGenericOtherNominalType"}
# Global children that only mark the entity that follows (an async partial function, a merged or
# specialized copy of a function, a thunk that dispatches to it).
MARKERS = {"AsyncAwaitResumePartialFunction", "AsyncSuspendResumePartialFunction", "MergedFunction",
           "Number", "SpecializationPassID", "GenericSpecialization", "GenericSpecializationNotReAbstracted",
           "GenericSpecializationInResilienceDomain", "GenericPartialSpecialization",
           "FunctionSignatureSpecialization", "DispatchThunk", "VTableThunk", "Suffix", "ObjCAttribute",
           "NonObjCAttribute", "DynamicAttribute", "DirectMethodReferenceAttribute", "AsyncFunctionPointer",
           "BackDeploymentThunk", "BackDeploymentFallback", "HasSymbolQuery", "DistributedThunk",
           "DistributedAccessor", "AccessibleFunctionRecord", "CoroFunctionPointer", "DefaultOverride"}
# Global children that wrap the entity they are for.
WRAPPERS = {"PartialApplyForwarder", "PartialApplyObjCForwarder", "CurryThunk", "ProtocolSelfConformanceWitness"}


# ---- the two runs ---------------------------------------------------------------------------

def unread(fd):
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def idle(pid):
    """Every thread of `pid` blocked in a system call, one in `read` on standard input, none running
    or in `read` on another descriptor (a thread waiting for valgrind's lock reads its pipe)."""
    reading = False
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as f:
                call = f.read().split()
        except OSError:
            continue
        if not call or call[0] in ("running", "-1"):
            return False
        if call[0] == "0":  # read
            if int(call[1], 16) != 0:
                return False
            reading = True
    return reading


def run(binary, lines, out, preload, at_once):
    """`serve --clock feed --out /dev/null` under callgrind, fed `lines`; returns seconds taken."""
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")  # the same hash tables every run
    if preload:
        env["LD_PRELOAD"] = preload
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               binary, "serve", "--clock", "feed", "--out", "/dev/null"]
    start = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
    pipe = process.stdin.fileno()

    def settle():
        # Three looks 2 ms apart that find the line read and the process idle.
        seen = 0
        while seen < 3:
            time.sleep(0.002)
            if process.poll() is not None:
                raise SystemExit(f"serve ended early: {process.stderr.read().decode(errors='replace')[-2000:]}")
            seen = seen + 1 if unread(pipe) == 0 and idle(process.pid) else 0

    if at_once:
        process.stdin.write(b"".join(lines))
    else:
        for line in lines:
            settle()
            os.write(pipe, line)
        settle()
    process.stdin.close()
    errors = process.stderr.read().decode(errors="replace")
    if process.wait() != 0:
        raise SystemExit(f"valgrind serve exited {process.returncode}:\n{errors[-3000:]}")
    return time.monotonic() - start, errors


def parse(path):
    """Calls made to each function (callgrind's `calls=` under `cfn=`), recursion levels merged."""
    names, calls, total = {}, collections.Counter(), 0
    callee = None

    def name(spec):
        m = re.match(r"\((\d+)\)(?: (.*))?$", spec)
        if not m:
            return re.sub(r"'\d+$", "", spec)
        if m.group(2) is not None:
            names[m.group(1)] = re.sub(r"'\d+$", "", m.group(2))
        return names[m.group(1)]

    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                name(line[3:].rstrip("\n"))
            elif line.startswith("cfn="):
                callee = name(line[4:].rstrip("\n"))
            elif line.startswith("calls="):
                calls[callee] += int(line[6:].split()[0])
            elif line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    return calls, total


# ---- demangling, and symbols to types --------------------------------------------------------

class Node:
    __slots__ = ("kind", "text", "children")

    def __init__(self, kind, text):
        self.kind, self.text, self.children = kind, text, []


def demangle(symbols):
    """Each symbol's node tree, from `swift demangle --tree-only`."""
    out = subprocess.run(["swift", "demangle", "--tree-only"], input="\n".join(symbols) + "\n",
                         capture_output=True, text=True, check=True).stdout
    trees, stack, symbol = {}, [], None
    for line in out.splitlines():
        if line.startswith("Demangling for "):
            symbol, stack = line[len("Demangling for "):], []
            continue
        m = re.match(r"( *)kind=(\w+)(?:, text=\"(.*)\")?", line)
        if not m or symbol is None:
            continue
        depth, node = len(m.group(1)) // 2, Node(m.group(2), m.group(3))
        del stack[depth:]
        if stack:
            stack[-1].children.append(node)
        else:
            trees[symbol] = node
        stack.append(node)
    return trees


def nominal_of_bound(node):
    """The nominal node of a (bound generic) type node."""
    while node.kind == "Type" and node.children:
        node = node.children[0]
    if node.kind in BOUND and node.children:
        return nominal_of_bound(node.children[0])
    return node if node.kind in NOMINAL else None


def qualified(node):
    """(module, "Outer.Inner", kind) of a nominal node."""
    parts, module, kind = [], None, NOMINAL[node.kind]
    while node is not None:
        if node.kind in NOMINAL:
            ident = node.children[1] if len(node.children) > 1 else None
            if ident is not None and ident.kind in ("PrivateDeclName", "LocalDeclName"):
                ident = ident.children[-1]
            parts.append(ident.text if ident is not None and ident.text else "?")
            node = node.children[0] if node.children else None
        elif node.kind == "Module":
            module = node.text
            break
        elif node.kind == "Extension":
            node = nominal_of_bound(node.children[1]) if len(node.children) > 1 else None
            if node is None:
                break
        elif node.kind in BOUND or node.kind == "Type":
            node = nominal_of_bound(node)
        elif node.children:  # a local type: named in the entity that declares it
            node = node.children[0]
        else:
            break
    return module, ".".join(reversed(parts)), kind


def mentioned(node, found):
    """Every nominal type named anywhere in `node` (generic arguments too, not the contexts a
    nested type is named in)."""
    if node.kind in NOMINAL:
        found.add(qualified(node))
        return
    if node.kind in BOUND:
        for child in node.children[1:]:
            mentioned(child, found)
        if node.children:
            mentioned(node.children[0], found)
        return
    for child in node.children:
        mentioned(child, found)


def owner(entity):
    """("type", the nominal type an entity's code belongs to (its innermost named context), the
    module of the extension it is in or None) or ("free", the module of a free function)."""
    node = entity
    while node.children:
        context = node.children[0]
        if context.kind in NOMINAL:
            return ("type", qualified(context), None)
        if context.kind in BOUND or context.kind == "Type":
            nominal = nominal_of_bound(context)
            return ("type", qualified(nominal), None) if nominal else ("none", None, None)
        if context.kind == "Extension":
            nominal = nominal_of_bound(context.children[1]) if len(context.children) > 1 else None
            return ("type", qualified(nominal), context.children[0].text) if nominal else ("none", None, None)
        if context.kind == "Module":
            return ("free", context.text, None)
        node = context
    return ("none", None, None)


def value_operation(kind):
    return (kind.startswith(("Outlined", "ValueWitness", "TypeMetadata", "FullTypeMetadata", "Metaclass",
                             "LazyProtocolWitnessTable", "ProtocolWitnessTable", "GenericProtocolWitnessTable",
                             "AssociatedType", "BaseWitnessTable", "DefaultAssociatedType", "NominalTypeDescriptor",
                             "ProtocolConformanceDescriptor", "CanonicalSpecializedGenericTypeMetadata",
                             "CanonicalPrespecializedGenericTypeCachingOnceToken", "NoncanonicalSpecializedGenericTypeMetadata",
                             "MetadataInstantiationCache", "ReflectionMetadata", "ObjCMetadataUpdateFunction",
                             "ObjCResilientClassStub", "ClassMetadataBaseOffset", "MethodDescriptor",
                             "PropertyDescriptor", "ProtocolDescriptor", "ProtocolRequirementsBaseDescriptor"))
            or kind.startswith("Reabstraction") or kind in ("KeyPathEqualsThunkHelper", "KeyPathHashThunkHelper"))


def classify(tree):
    """[(how, (module, name, kind))]: how is "code" or a value operation's kind; free functions as
    ("free", (module, None, None)); code in an extension (of module M) of another module's type as
    ("extension in M", type)."""
    result = []

    def entity(node):
        if node.kind in WRAPPERS:
            for child in node.children:
                entity(child)
            return
        if node.kind in MARKERS:
            return
        if value_operation(node.kind):
            found = set()
            mentioned(node, found)
            how = "thunk" if node.kind.startswith("Reabstraction") else re.sub(r"([a-z])([A-Z])", r"\1 \2", node.kind).lower()
            result.extend((how, t) for t in found)
            return
        if node.kind == "ProtocolWitness":
            conformance = node.children[0] if node.children else None
            if conformance is not None and conformance.kind == "ProtocolConformance":
                for part in conformance.children[:2]:
                    nominal = nominal_of_bound(part)
                    if nominal is not None:
                        result.append(("code", qualified(nominal)))
            return
        what, who, extension = owner(node)
        if what == "type" and extension is not None and extension != who[0]:
            result.append((f"extension in {extension}", who))
        elif what == "type":
            result.append(("code", who))
        elif what == "free":
            result.append(("free", (who, None, None)))

    for child in tree.children:
        entity(child)
    return result


def actors(binary):
    """The types of `binary` that conform to Swift.Actor (a symbol names an actor as a class)."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    symbols = [line.split()[-1] for line in out.splitlines() if line.endswith("ScAAAMc")]
    found = set()
    for tree in demangle(symbols).values():
        mentioned(tree, found)
    return {(module, name) for module, name, kind in found if kind == "class"}


# ---- the figure ----------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("stream")
    parser.add_argument("--lines", type=int, default=150, help="N: events in the shorter run (the longer has 2N)")
    parser.add_argument("--preload", help="a library to LD_PRELOAD into serve (line_types.sh's sigsuspend shim)")
    parser.add_argument("--keep", help="keep the callgrind files in this directory")
    parser.add_argument("--label", help="what is measured, for the heading")
    parser.add_argument("--at-once", action="store_true", help="write each input at once (one backlog batch)")
    parser.add_argument("--functions", action="store_true", help="under each type, the functions that made it count")
    args = parser.parse_args()

    with open(args.stream, "rb") as f:
        stream = f.read().splitlines(keepends=True)
    header, events = stream[:1], stream[1:]
    n = args.lines
    if len(events) < 2 * n:
        raise SystemExit(f"{args.stream} has {len(events)} events, fewer than 2N = {2 * n}")
    work = args.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    runs = []
    for count in (n, 2 * n):
        out = os.path.join(work, f"callgrind-{count}.out")
        seconds, errors = run(args.binary, header + events[:count], out, args.preload, args.at_once)
        calls, total = parse(out)
        runs.append((count, calls, total, seconds, errors))
        if not args.keep:
            os.remove(out)
    if not args.keep:
        os.rmdir(work)

    (n1, short, total1, secs1, _), (n2, long, total2, secs2, summary) = runs
    added = n2 - n1
    grown = {f: long[f] - short[f] for f in long if long[f] > short[f]}
    swift = [f for f in grown if f.startswith("$s")]
    trees = demangle(swift)

    code = collections.defaultdict(lambda: collections.Counter())   # type -> {function: calls added}
    copied = collections.defaultdict(lambda: collections.Counter())  # type -> {how: calls added}
    operations = collections.defaultdict(set)  # type -> value-operation symbols
    free = collections.Counter()
    foreign = collections.defaultdict(set)  # (extension module, type) -> functions
    for symbol in swift:
        tree = trees.get(symbol)
        if tree is None:
            continue
        for how, (module, name, kind) in classify(tree):
            if how.startswith("extension in ") and how[13:] in MODULES:
                foreign[(how[13:], f"{module}.{name}")].add(symbol)
                continue
            if module not in MODULES:
                continue
            if how == "free":
                free[module] += 1
            elif how == "code":
                code[(module, name, kind)][symbol] += grown[symbol]
            else:
                copied[(module, name, kind)][how] += grown[symbol]
                operations[(module, name, kind)].add(symbol)

    batches = [grown[f] for f in swift if re.search(r"GameService.*handle5batch.*YaF$", f)]
    print(f"# Named types one live line crosses on `serve --clock feed --out /dev/null`"
          + (f": {args.label}" if args.label else ""))
    print(f"binary: {args.binary}")
    print(f"input: {os.path.basename(args.stream)}, the header and its first {n1} events, then its first {n2}; "
          + ("each written at once" if args.at_once else "one line at a time, each read as a batch of its own"))
    print(f"instructions: {total1:,} and {total2:,} ({(total2 - total1) / added:,.0f} per added line); "
          f"{secs1:.1f} s and {secs2:.1f} s under callgrind")
    if batches:
        print(f"batches handed to GameService.handle(batch:source:): {max(batches)} more for {added} more lines")
    print(f"functions whose calls grow: {len(grown)} ({len(swift)} Swift), of them in these modules' types: "
          f"{sum(len(v) for v in code.values())}; free functions of these modules: {sum(free.values())}")
    for (module, name), functions in sorted(foreign.items()):
        print(f"{module}'s extension of {name} (not counted): {len(functions)} function(s)")
    for line in summary.strip().splitlines():
        if line.startswith(("game ", "serve:")):
            print(f"serve (the {n2}-event run) said: {line}")
    print()

    acting = actors(args.binary)
    both = {(module, name, "actor" if (module, name) in acting else kind)
            for module, name, kind in set(code) | set(copied)}
    code = {(m, n, "actor" if (m, n) in acting else k): v for (m, n, k), v in code.items()}
    copied = {(m, n, "actor" if (m, n) in acting else k): v for (m, n, k), v in copied.items()}
    operations = {(m, n, "actor" if (m, n) in acting else k): v for (m, n, k), v in operations.items()}
    readable = {}
    if args.functions:
        listed = sorted({f for v in code.values() for f in v} | {f for v in operations.values() for f in v})
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(listed) + "\n",
                             capture_output=True, text=True, check=True).stdout.splitlines()
        readable = dict(zip(listed, out))
        for symbol in listed:  # --simplified leaves out which part of an async function it is
            part = re.search(r"T([QY])(\d+)_$", symbol)
            if part:
                readable[symbol] += f" ({'await' if part.group(1) == 'Q' else 'suspend'} resume part {part.group(2)})"

    def functions_of(t):
        symbols = set(code.get(t, {})) | operations.get(t, set())
        for symbol in sorted(symbols, key=lambda f: (-grown[f], readable[f])):
            print(f"    {grown[symbol] / added:8.2f}  {readable[symbol][:160]}")

    by_module = collections.defaultdict(list)
    for t in both:
        by_module[t[0]].append(t)
    counts = []
    for module in MODULES:
        types = sorted(by_module.get(module, []), key=lambda t: t[1])
        ran = [t for t in types if t in code]
        only = [t for t in types if t not in code]
        counts.append(f"{module} {len(types)} ({len(ran)} with code, {len(only)} copied only)")
        print(f"## {module}: {len(types)} types, {len(ran)} whose code runs, {len(only)} only copied or destroyed")
        print()
        if ran:
            print(f"{'type':44} {'kind':9} {'fns':>4} {'calls/line':>10}  also")
        for t in ran:
            functions = code[t]
            rate = sum(functions.values()) / added
            also = ", ".join(sorted(copied[t])) if t in copied else ""
            print(f"{t[1]:44} {t[2]:9} {len(functions):4} {rate:10.2f}  {also}")
            if args.functions:
                functions_of(t)
        if only:
            print()
            print(f"{'only copied or destroyed':44} {'kind':9} {'':4} {'calls/line':>10}  how")
        for t in only:
            hows = copied[t]
            rate = sum(hows.values()) / added
            print(f"{t[1]:44} {t[2]:9} {'':4} {rate:10.2f}  {', '.join(sorted(hows))}")
            if args.functions:
                functions_of(t)
        print()
    stages = stages_of(args.binary, [t for t in both if t[0] in ("ScoreFeed", "ScoreFeedModel")])
    if stages:
        print("by stage (the folder of Sources/ that defines the type, or its outer type): "
              + ", ".join(f"{stage} {len(names)}" for stage, names in sorted(stages.items(), key=lambda kv: (-len(kv[1]), kv[0]))))
        for stage, names in sorted(stages.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"  {stage}: {', '.join(sorted(names))}")
        print()
    total = len(both)
    mains = len([t for t in both if t[0] in ("ScoreFeed", "ScoreFeedModel")])
    print(f"TOTAL: {mains} named types of ScoreFeed and ScoreFeedModel per live line "
          f"({total} with the scorefeed executable's); " + "; ".join(counts))
    print("calls/line: calls added, over all the type's functions (or its value operations), per added line.")


def stages_of(binary, types):
    """Each type by the stage of the pipeline that defines it: the folder under Sources/<module>/ of
    the file declaring its outermost type, in the checkout the debug binary was built in (nothing
    when the binary is not in a checkout's .build)."""
    path = os.path.realpath(binary)
    if "/.build/" not in path:
        return {}
    sources = os.path.join(path.split("/.build/")[0], "Sources")
    declared = {}
    pattern = re.compile(r"^(?:(?:public|internal|private|fileprivate|final|package|indirect)\s+)*"
                         r"(?:struct|enum|class|actor|protocol)\s+([A-Z]\w*)", re.M)
    for folder, _, files in os.walk(sources):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as handle:
                    for top in pattern.findall(handle.read()):
                        relative = os.path.relpath(folder, sources).split(os.sep)
                        declared.setdefault(top, relative[1] if len(relative) > 1 else relative[0])
    stages = collections.defaultdict(list)
    for module, name, _ in types:
        stages[declared.get(name.split(".")[0], "?")].append(name)
    return stages


if __name__ == "__main__":
    main()
