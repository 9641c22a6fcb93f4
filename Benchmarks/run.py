#!/usr/bin/env python3
"""Side-by-side benchmark: kvo-run against GNUstep Base's KVO in compiled Objective-C.

Builds nothing: `make bench` builds kvo-run (`swift build -c release`) and the
GNUstep peers (into .build/bench/) and then runs this script. Each workload of
Benchmarks/scenarios/ is run as `kvo-run FILE --quiet --stats` and compared with
its peer Benchmarks/peers/gnustep/NAME.m, alternately (A B A B ...), and the
medians are reported as a Markdown table on standard output; progress goes to
standard error. Both sides report how many notifications they received (kvo-run
on its --stats line, a peer as one integer line) and any difference is flagged.

Every workload is also run with the iteration count of the phase it is named
for set to 0 (same set-up, no phase), alternating with the whole runs
(A B A0 B0 A B A0 B0 ...); the phase's time is median(whole) - median(set-up)
on each side, and the table shows that phase-matched ratio beside the
whole-process one. Neither side times itself: the scenario language has no
clock.

The last section measures compiled Swift programs (SPEC §11.0) in a private
cache: the first runtime build, a new 50-line program, a cached program's
start-up against a scenario's, and B1 compiled beside the interpreted B1 and
GNUstep's (`swift_section`; Benchmarks/README.md).

    python3 Benchmarks/run.py                 # full run (tens of minutes)
    python3 Benchmarks/run.py --quick         # fewer pairs, smaller N
    python3 Benchmarks/run.py --only B1,B5    # some workloads only
    python3 Benchmarks/run.py --quick --only swift-build,swift-new,swift-startup,B1swift
    python3 Benchmarks/run.py --bin .build-bench/release/kvo-run

Python 3 standard library only.
"""

import argparse
import math
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "Benchmarks" / "scenarios"
STATS_RE = re.compile(r"^kvo-run: (\d+) notifications", re.M)
PARAM_RE = r"^let {name} = [0-9_]+$"

def shortest(x):
    """A Double as kvo-run prints it: shortest round-trip form, no ".0" when
    integral (Python's repr is the same shortest form, for moderate values)."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def b5s_color(p):
    """The color B5s ends with, computed as B5s.kvo and B5s.m compute it."""
    l = (p["n"] - 1) % 101 if p["n"] > 0 else 50
    red = (l + 16) * 0.75
    green, blue = red + 10 / 4, red - (-10) / 4
    return f"rgb({shortest(red / 100)}, {shortest(green / 100)}, {shortest(blue / 100)})"


# Each workload: name, what it measures, scenario, peer (default: the name),
# parameters (full, quick), peer argv from the parameters, expected
# notification count from the parameters. `phase` names the parameter that
# counts the iterations of the phase the workload is named for (`phase_what`):
# the harness also runs both sides with it set to 0 (the same set-up, no
# phase) and reports phase = median(full) - median(set-up). `per_notification`:
# also report the phase's nanoseconds per notification. `target`: the
# phase-matched goal, a minimum ratio GNUstep / kvo-run and for B2 a maximum
# of ns per notification. `sample`: the final line both sides print before
# their count (B5s: the color), and what it must be.
WORKLOADS = [
    dict(name="B1", what="1M sets of one property, one observer [.new, .old]",
         scenario="B1.kvo", full=dict(n=1_000_000), quick=dict(n=100_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the sets", per_notification=True,
         target=dict(ratio=20)),
    dict(name="B2", what="10k observers on one key, 100 sets (1M notifications)",
         scenario="B2.kvo", full=dict(observers=10_000, sets=100),
         quick=dict(observers=1_000, sets=100),
         argv=lambda p: [p["observers"], p["sets"]],
         expected=lambda p: p["observers"] * p["sets"],
         phase="sets", phase_what="the sets (observers registered in the set-up)",
         per_notification=True, target=dict(ratio=4, ns=25)),
    dict(name="B3", what="add then remove N observers on one key, same order",
         scenario="B3.kvo", full=dict(n=100_000, rounds=1), quick=dict(n=10_000, rounds=1),
         argv=lambda p: [p["n"], p["rounds"]], expected=lambda p: 0,
         phase="rounds", phase_what="the adds and removes (observer objects created in the set-up)"),
    dict(name="B4", what='key path "account.balance": swap account + set balance',
         scenario="B4.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: 2 * p["n"],
         phase="n", phase_what="the swaps and sets", target=dict(ratio=20)),
    dict(name="B5", what="objc.io LabColor: l, a, b -> red, green, blue -> color (Double)",
         scenario="B5.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the sets of lComponent"),
    dict(name="B5s", what='objc.io LabColor with a String color "rgb(r, g, b)"',
         scenario="B5s.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the sets of lComponent", target=dict(ratio=12),
         sample=b5s_color),
    dict(name="B5chain", what="simplest chain lComponent -> redComponent -> color (no target)",
         scenario="B5chain.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the sets of lComponent"),
    dict(name="B6", what='mutableArrayValue(forKey: "items").add(x), one observer; '
         "GNUstep Box with indexed accessors",
         scenario="B6.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the proxy adds", target=dict(ratio=15)),
    dict(name="B6ivar", what="B6 against a GNUstep Box with only the ivar (no accessors)",
         scenario="B6.kvo", full=dict(n=100_000), quick=dict(n=10_000),
         argv=lambda p: [p["n"]], expected=lambda p: p["n"],
         phase="n", phase_what="the proxy adds", target=dict(ratio=5)),
    dict(name="B7", what="many keys: one object observed for n keys, each set once",
         scenario="B7.kvo", full=dict(n=25_000, rounds=1), quick=dict(n=2_500, rounds=1),
         argv=lambda p: [p["n"], p["rounds"]], expected=lambda p: p["n"] * p["rounds"],
         phase="rounds", phase_what="the sets (the n keys observed in the set-up)",
         per_notification=True),
]
# B3 scaling: N values; the largest is the B3 workload itself (reused).
SCALING = dict(full=[1_000, 10_000, 100_000], quick=[100, 1_000, 10_000])
# Fixed-size scenario files kept for running by hand; used when N matches.
SCALING_FILES = {1_000: "B3_1k.kvo", 10_000: "B3_10k.kvo", 100_000: "B3.kvo"}
# The compiled Swift route (SPEC §11.0): first runtime build, a new program,
# a cached program's start-up, and B1 compiled (see swift_section).
# The compiled route's workloads, each beside its scenario twin (when the
# scenario language has one) and its GNUstep peer.
COMPILED = [
    dict(row="B1swift", name="B1", swift="B1.swift", kvo="B1.kvo", peer="B1", phase="n",
         full=dict(n=1_000_000), quick=dict(n=100_000), unit="set", count=lambda p: p["n"], target=30,
         what=lambda p: f"{p['n']:,} sets, one observer [.new, .old]",
         about="`Benchmarks/scenarios/B1.swift`: an `@objc dynamic var balance: Int`, one "
               "`observe(\\.balance, options: [.new, .old])` token whose handler counts."),
    dict(row="B2swift", name="B2", swift="B2.swift", kvo="B2.kvo", peer="B2", phase="sets",
         full=dict(observers=10_000, sets=100), quick=dict(observers=10_000, sets=10),
         per=10_000, unit="notification", count=lambda p: p["observers"] * p["sets"],
         what=lambda p: f"{p['observers']:,} observers, {p['sets']} sets",
         about="`Benchmarks/scenarios/B2.swift`: 10,000 `Watcher`s added with "
               "`addObserver(_:forKeyPath:options:context:)` ([.new, .old]), each counting in its "
               "`observeValue(forKeyPath:of:change:context:)` override."),
    dict(row="B4swift", name="B4", swift="B4.swift", kvo="B4.kvo", peer="B4", phase="n",
         full=dict(n=100_000), quick=dict(n=10_000), per=2, unit="notification",
         count=lambda p: 2 * p["n"],
         what=lambda p: f"{p['n']:,} swaps of person.account and sets of its balance",
         about="`Benchmarks/scenarios/B4.swift`: a `Person` observed on `\"account.balance\"` with "
               "`addObserver`, its `@objc dynamic var account: Account?` swapped and the current "
               "account's balance set."),
    dict(row="OQswift", name="OQ", swift="OQ.swift", kvo=None, peer="OQ", phase="n",
         full=dict(n=10_000), quick=dict(n=2_000), unit="operation", count=lambda p: p["n"],
         what=lambda p: f"{p['n']:,} operations on an OperationQueue of 4, each observed on isFinished",
         about="`Benchmarks/scenarios/OQ.swift` and `OQ.m`: an `Operation` subclass whose `main` does "
               "nothing, each observed on `isFinished` ([.new]; Swift: an `observe` token, "
               "GNUstep: `addObserver`), added at once with `addOperations(_:waitUntilFinished: "
               "true)` to a queue with `maxConcurrentOperationCount = 4`."),
]
SWIFT_EXTRAS = ["swift-build", "swift-new", "swift-startup"] + [w["row"] for w in COMPILED]
EXTRAS = ["startup", "rss", "text", "scaling", "serve"] + SWIFT_EXTRAS


# Every goal a row of this run has (issue 43), as (row, goal, measured,
# met: True, False or None when the row did not measure it), printed first.
GOALS = []


def goal(row, wanted_text, measured, met):
    GOALS.append((row, wanted_text, measured, met))


def goals_section():
    if not GOALS:
        return []
    lines = ["## Goals", "", "| row | goal | this run | met |", "|---|---|---|---|"]
    for row, wanted_text, measured, met in GOALS:
        lines.append(f"| {row} | {wanted_text} | {measured} | "
                     f"{'–' if met is None else ('✓' if met else '✗')} |")
    return lines + ["", "Each goal is measured in this run, side by side; the sections below "
                        "give the details.", ""]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


class Outcome:
    """One run: wall and CPU seconds, or why there are none."""

    def __init__(self, seconds=None, count=None, status="ok", detail="", rss_kb=None, cpu=None,
                 sample=None):
        self.seconds, self.count, self.status = seconds, count, status
        self.detail, self.rss_kb, self.cpu = detail, rss_kb, cpu
        self.sample = sample  # the line printed before the count, if any


def children_cpu():
    """User + system CPU seconds of all reaped children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Finished(NamedTuple):
    """One finished (or timed-out) child process. Callers read fields by name,
    so a new field does not break them (a positional tuple growing from four to
    five values once crashed the peak-RSS probe mid-run)."""
    status: Optional[int]  # exit status; None when the run timed out
    out: str
    err: str
    seconds: float         # wall time
    cpu: Optional[float]   # user + system time; None when the run timed out


def run_process(cmd, timeout, stdout=subprocess.PIPE, env=None):
    """Runs cmd in its own process group; kills the group on timeout.
    Runs are sequential, so the growth of the children's CPU
    time is this run's: user + system time of the process, which the host's
    scheduling (a VM's stolen time) does not inflate as it does wall time."""
    cpu_before = children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen([str(c) for c in cmd], stdout=stdout,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        return Finished(None, "", "", time.perf_counter() - start, None)
    elapsed = time.perf_counter() - start
    cpu = children_cpu() - cpu_before
    out = out.decode("utf-8", "replace") if out is not None else ""
    return Finished(proc.returncode, out, err.decode("utf-8", "replace"), elapsed, cpu)


def tail(text, lines=5):
    return " | ".join(text.strip().splitlines()[-lines:])


def run_kvo(binary, scenario, timeout, quiet=True, stdout=subprocess.PIPE):
    cmd = [binary, scenario, "--stats"] + (["--quiet"] if quiet else [])
    run = run_process(cmd, timeout, stdout)
    if run.status is None:
        return Outcome(status="timeout")
    match = STATS_RE.search(run.err)
    if run.status != 0 or not match:
        return Outcome(status="error", detail=f"exit {run.status}: {tail(run.err + run.out)}")
    # Under --quiet a scenario's standard output is only what it prints itself.
    printed = run.out.strip().splitlines()
    return Outcome(run.seconds, int(match.group(1)), cpu=run.cpu,
                   sample=printed[-1] if printed else None)


def run_peer(binary, argv, timeout, stdout=subprocess.PIPE):
    if not os.access(binary, os.X_OK):
        return Outcome(status=NO_PEER)
    run = run_process([binary] + list(argv), timeout, stdout)
    if run.status is None:
        return Outcome(status="timeout")
    lines = run.out.strip().splitlines()
    if run.status != 0 or not lines or not lines[-1].strip().isdigit():
        return Outcome(status="error", detail=f"exit {run.status}: {tail(run.err + run.out)}")
    return Outcome(run.seconds, int(lines[-1]), cpu=run.cpu,
                   sample=lines[-2] if len(lines) > 1 else None)


# The status of a peer that was not built (no GNUstep on this machine).
NO_PEER = "no peer"


class Series:
    """Repeated runs of one side of a comparison."""

    def __init__(self, label):
        self.label, self.runs, self.dead = label, [], None

    def add(self, outcome):
        if outcome.status != "ok":
            self.dead = outcome  # no more runs of this side: report why
            if outcome.detail:
                log(f"    {self.label}: {outcome.status}: {outcome.detail}")
        else:
            self.runs.append(outcome)

    @property
    def median(self):
        return statistics.median(r.seconds for r in self.runs) if self.runs else None

    @property
    def cpu_median(self):
        return statistics.median(r.cpu for r in self.runs) if self.runs else None

    @property
    def counts(self):
        return sorted({r.count for r in self.runs})

    @property
    def samples(self):
        return sorted({r.sample for r in self.runs if r.sample is not None})

    def time_text(self, timeout):
        if self.dead is not None and self.dead.status == "timeout":
            return f"timeout (>{timeout:g} s)"
        if self.dead is not None and not self.runs:
            return self.dead.status
        if self.median is None:
            return "–"
        text = fmt_seconds(self.median)
        if self.dead is not None:
            text += f" ({self.dead.status} later)"
        return text

    def count_text(self):
        counts = self.counts
        if not counts:
            return "–"
        return " / ".join(f"{c:,}" for c in counts)


def fmt_seconds(s):
    if s is None:
        return "–"
    return f"{s:.3f}" if s >= 0.1 else f"{s:.4f}"


def ratio_text(kvo, peer, timeout):
    """GNUstep / kvo-run: > 1 means kvo-run is faster."""
    k, g = kvo.median, peer.median
    k_to = kvo.dead is not None and kvo.dead.status == "timeout" and not kvo.runs
    g_to = peer.dead is not None and peer.dead.status == "timeout" and not peer.runs
    if k is not None and g is not None:
        return f"{g / k:.2f}"
    if k_to and g is not None:
        return f"< {g / timeout:.3f}"
    if g_to and k is not None:
        return f"> {timeout / k:.2f}"
    return "–"


def cpu_ratio_text(kvo, peer):
    """The same ratio on CPU time (user + system)."""
    k, g = kvo.cpu_median, peer.cpu_median
    return f"{g / k:.2f}" if k and g is not None else "–"


def alternate(pairs, run_a, run_b, a, b, label):
    """A B A B ...: at least `pairs` runs of each side, unless a side died."""
    alternate_all(pairs, [(a, run_a), (b, run_b)], label)


def alternate_all(pairs, sides, label):
    """A B C D A B C D ...: `pairs` rounds, one run of each live side per round."""
    for i in range(pairs):
        for series, run in sides:
            if series.dead is None:
                outcome = run()
                series.add(outcome)
                shown = (f"{fmt_seconds(outcome.seconds)} s, CPU {fmt_seconds(outcome.cpu)} s"
                         if outcome.status == "ok" else outcome.status)
                log(f"  {label} {series.label} run {i + 1}/{pairs}: {shown}")


def materialize(scenario, params, defaults, tmpdir):
    """The scenario file itself, or a copy with its `let NAME = N` lines changed
    (a `.kvo` or a `.swift` file; the copy keeps the suffix)."""
    path = SCENARIOS / scenario
    if params == defaults:
        return path
    text = path.read_text()
    for name, value in params.items():
        text, hits = re.subn(PARAM_RE.format(name=name), f"let {name} = {value}",
                             text, count=1, flags=re.M)
        if hits != 1:
            raise SystemExit(f"{path}: no line `let {name} = …` to set")
    suffix = "_".join(f"{k}{v}" for k, v in sorted(params.items()))
    out = Path(tmpdir) / f"{path.stem}_{suffix}{path.suffix}"
    out.write_text(text)
    return out


def read_defaults(scenario, names):
    text = (SCENARIOS / scenario).read_text()
    found = {}
    for name in names:
        m = re.search(PARAM_RE.format(name=name).replace("[0-9_]+", "([0-9_]+)"), text, re.M)
        if not m:
            raise SystemExit(f"{SCENARIOS / scenario}: no line `let {name} = …`")
        found[name] = int(m.group(1).replace("_", ""))
    return found


def check_text(kvo, peer, expected):
    problems = []
    for series in (kvo, peer):
        if len(series.counts) > 1:
            problems.append(f"{series.label} counts vary between runs")
    kc, gc = kvo.counts, peer.counts
    if kc and gc and kc != gc:
        problems.append(f"MISMATCH kvo-run {kc[0]:,} ≠ GNUstep {gc[0]:,}")
    for series, counts in ((kvo, kc), (peer, gc)):
        if counts and counts[0] != expected:
            problems.append(f"{series.label} ≠ expected {expected:,}")
    if kc and not gc and peer.dead is not None and peer.dead.status == NO_PEER and not problems:
        return f"ok (kvo-run only: {NO_PEER})"
    if not (kc and gc) and not problems:
        return f"unchecked (expected {expected:,})"
    return "; ".join(problems) if problems else "ok"


def compare(name, kvo_scenario, peer_bin, peer_argv, expected, args):
    kvo, peer = Series("kvo-run"), Series("GNUstep")
    alternate(args.pairs,
              lambda: run_kvo(args.bin, kvo_scenario, args.timeout),
              lambda: run_peer(peer_bin, peer_argv, args.timeout),
              kvo, peer, name)
    return kvo, peer, check_text(kvo, peer, expected)


class Phased(NamedTuple):
    """A workload run whole and with its phase count set to 0 (set-up only)."""
    kvo: Series
    peer: Series
    kvo_setup: Series
    peer_setup: Series
    check: str


def compare_phased(name, scenarios, peer_bin, argvs, expected, samples, args):
    """Four series in rounds: kvo-run whole, GNUstep whole, kvo-run set-up,
    GNUstep set-up. scenarios, argvs, expected, samples: (whole, set-up) pairs;
    a sample is the line both sides must print before their count, or None."""
    kvo, peer = Series("kvo-run"), Series("GNUstep")
    kvo0, peer0 = Series("kvo-run set-up"), Series("GNUstep set-up")
    alternate_all(args.pairs, [
        (kvo, lambda: run_kvo(args.bin, scenarios[0], args.timeout)),
        (peer, lambda: run_peer(peer_bin, argvs[0], args.timeout)),
        (kvo0, lambda: run_kvo(args.bin, scenarios[1], args.timeout)),
        (peer0, lambda: run_peer(peer_bin, argvs[1], args.timeout)),
    ], name)
    problems = []
    for label, pair, exp, sample in (("whole", (kvo, peer), expected[0], samples[0]),
                                     ("set-up", (kvo0, peer0), expected[1], samples[1])):
        text = check_text(*pair, exp)
        if text != "ok":
            problems.append(f"{label}: {text}")
        if sample is not None:
            for series in pair:
                got = series.samples
                if series.runs and got != [sample]:
                    shown = " / ".join(repr(s) for s in got) or "nothing"
                    problems.append(f"{series.label} printed {shown}, expected {sample!r}")
    check = "; ".join(problems) if problems else "ok"
    if not problems and samples[0] is not None:
        check += f" (both print `{samples[0]}`)"
    return Phased(kvo, peer, kvo0, peer0, check)


def phase_seconds(full, setup, cpu=False):
    """median(whole) - median(set-up), or None when either side has no runs."""
    a = full.cpu_median if cpu else full.median
    b = setup.cpu_median if cpu else setup.median
    return None if a is None or b is None else a - b


def phase_text(seconds):
    if seconds is None:
        return "–"
    if seconds <= 0:
        return "≤ 0 (noise)"
    return fmt_seconds(seconds)


def phase_ratio(k, g):
    """GNUstep phase / kvo-run phase, when both are positive."""
    return g / k if k is not None and g is not None and k > 0 and g > 0 else None


def target_text(target, ratio, kvo_ns):
    if not target:
        return "–"
    parts, met = [f"≥ {target['ratio']:g}×"], [None if ratio is None else ratio >= target["ratio"]]
    if "ns" in target:
        parts.append(f"≤ {target['ns']:g} ns/notification")
        met.append(None if kvo_ns is None else kvo_ns <= target["ns"])
    mark = "" if None in met else (" ✓" if all(met) else " ✗")
    return ", ".join(parts) + mark


def max_rss_kb(cmd, timeout):
    """Peak RSS of one run of cmd, in KiB: /usr/bin/time -v when present, else
    getrusage(RUSAGE_CHILDREN) read in a fresh Python process that runs only cmd."""
    if not os.access(cmd[0], os.X_OK):
        return Outcome(status=NO_PEER)
    gnu_time = "/usr/bin/time"
    if os.access(gnu_time, os.X_OK):
        run = run_process([gnu_time, "-v"] + cmd, timeout, stdout=subprocess.DEVNULL)
        if run.status is None:
            return Outcome(status="timeout")
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.err)
        if run.status != 0 or not m:
            return Outcome(status="error", detail=f"exit {run.status}: {tail(run.err)}")
        return Outcome(run.seconds, rss_kb=int(m.group(1)))
    probe = ("import resource, subprocess, sys\n"
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
             " file=sys.stderr)\nsys.exit(r.returncode)\n")
    run = run_process([sys.executable, "-c", probe] + cmd, timeout,
                      stdout=subprocess.DEVNULL)
    if run.status is None:
        return Outcome(status="timeout")
    lines = run.err.strip().splitlines()
    if run.status != 0 or not lines or not lines[-1].isdigit():
        return Outcome(status="error", detail=f"exit {run.status}: {tail(run.err)}")
    return Outcome(run.seconds, rss_kb=int(lines[-1]))  # ru_maxrss is in KiB on Linux


def run_swift(binary, program, timeout, env, quiet=True, stdout=subprocess.PIPE, command=()):
    """One run of a Swift program through kvo-run (SPEC §11.0): `kvo-run
    [command] FILE [--quiet]` with the private cache of `env`. A program
    prints its own count as its last line (a compiled program has no --stats
    line), like a peer; a program that prints no number has count None."""
    cmd = [binary] + list(command) + [program] + (["--quiet"] if quiet else [])
    run = run_process(cmd, timeout, stdout, env=env)
    if run.status is None:
        return Outcome(status="timeout")
    if run.status != 0:
        return Outcome(status="error", detail=f"exit {run.status}: {tail(run.err + run.out)}")
    lines = run.out.strip().splitlines()
    count = int(lines[-1]) if lines and lines[-1].strip().isdigit() else None
    return Outcome(run.seconds, count, cpu=run.cpu)


class SwiftRoute:
    """What the compiled rows share: kvo-run's cache in a private
    XDG_CACHE_HOME (the runtime, the programs and swiftc's own module cache),
    and a snapshot of the runtime's sources (KVO_RUNTIME_SOURCES), so that
    neither the user's cache nor an edit during the run is measured."""

    def __init__(self, tmpdir):
        self.tmpdir = Path(tmpdir)
        self.sources = self.tmpdir / "runtime-sources"
        for module in ("KVOCore", "KVOOutput", "KVOFoundation", "RewriterProtocol", "RewriterHelper"):
            shutil.copytree(ROOT / "Sources" / module, self.sources / module)
        self.cold_builds = 0
        self.cache = self.fresh_cache()

    def fresh_cache(self):
        """An empty cache directory: the next run builds the runtime."""
        self.cold_builds += 1
        path = self.tmpdir / f"swift-cache-{self.cold_builds}"
        path.mkdir()
        return path

    def env(self, cache=None):
        return dict(os.environ, XDG_CACHE_HOME=str(cache or self.cache),
                    KVO_RUNTIME_SOURCES=str(self.sources))


def ms_text(series, timeout):
    if series.median is None:
        return series.time_text(timeout)
    return f"{series.median * 1000:.1f} ms (CPU {series.cpu_median * 1000:.1f} ms)"


def swift_section(args, mode, tmpdir, wanted):
    """The compiled Swift route (SPEC §11.0, issue 28): (a) the first
    runtime build in an empty cache, (b) a new 50-line program, (c) a cached
    program's start-up beside a 10-line scenario's, (d) B1 compiled beside the
    interpreted B1 and GNUstep's. Returns the report's lines."""
    report = ["## Compiled Swift programs (SPEC §11.0)", ""]
    swiftc = os.environ.get("KVO_SWIFTC") or shutil.which("swiftc")
    if not swiftc:
        return report + ["Not measured: no `swiftc` on PATH (or `KVO_SWIFTC`).", ""]
    route = SwiftRoute(tmpdir)
    startup_swift = SCENARIOS / "startup.swift"
    rows = []

    # (a) First runtime build: `kvo-run check startup.swift` in an empty
    # cache builds the runtime (KVOCore and KVOFoundation, -O -wmo), swiftc's
    # module cache, then compiles the 16-line program. Each run a new cache.
    if wanted("swift-build"):
        runs = 1 if args.quick else 3
        log(f"Swift: first runtime build (empty cache), {runs} run(s)")
        cold = Series("cold")
        for i in range(runs):
            if i > 0:
                route.cache = route.fresh_cache()
            outcome = run_swift(args.bin, startup_swift, args.timeout, route.env(),
                                quiet=False, command=["check"])
            cold.add(outcome)
            log(f"  first build run {i + 1}/{runs}: "
                f"{fmt_seconds(outcome.seconds) if outcome.status == 'ok' else outcome.status} s")
            if cold.dead:
                break
        rows.append(f"| (a) first runtime build: `kvo-run check startup.swift`, empty cache "
                    f"(median of {len(cold.runs)}) | {cold.time_text(args.timeout)} | "
                    f"{fmt_seconds(cold.cpu_median)} | – | – |")
    else:
        # The other rows need a built runtime: built once here, unmeasured.
        log("Swift: building the runtime into the private cache (unmeasured)")
        warm = run_swift(args.bin, startup_swift, args.timeout, route.env(),
                         quiet=False, command=["check"])
        if warm.status != "ok":
            return report + [f"Not measured: the runtime did not build: {warm.detail}", ""]

    # (b) A new 50-line program: each run changes `let run = …`, so that the
    # program is new to the cache: rewrite, compile, link and run, whole process.
    if wanted("swift-new"):
        runs = 3 if args.quick else 7
        log(f"Swift: a new 50-line program, {runs} runs")
        new = Series("new program")
        defaults = read_defaults("new50.swift", ["run"])
        for i in range(runs):
            program = materialize("new50.swift", dict(run=1000 + i), defaults, tmpdir)
            outcome = run_swift(args.bin, program, args.timeout, route.env(), quiet=False)
            new.add(outcome)
            log(f"  new program run {i + 1}/{runs}: "
                f"{fmt_seconds(outcome.seconds) if outcome.status == 'ok' else outcome.status} s")
        met = "" if new.median is None else (" ✓" if new.median < 1 else " ✗")
        rows.append(f"| (b) a new 50-line program (`new50.swift`): rewrite, compile, run "
                    f"(median of {len(new.runs)}) | {new.time_text(args.timeout)} | "
                    f"{fmt_seconds(new.cpu_median)} | – | < 1 s{met} |")

    # (c) A cached program's start-up against a scenario's: startup.swift
    # (compiled once, unmeasured) and startup.kvo alternately.
    if wanted("swift-startup"):
        runs = 10 if args.quick else 20
        log(f"Swift: cached program start-up, {runs} runs each of startup.swift and startup.kvo")
        run_swift(args.bin, startup_swift, args.timeout, route.env(), quiet=False)
        compiled, scenario = Series("startup.swift"), Series("startup.kvo")
        for _ in range(runs):
            for series, run in (
                    (compiled, lambda: run_swift(args.bin, startup_swift, args.timeout, route.env(),
                                                 quiet=False, stdout=subprocess.DEVNULL)),
                    (scenario, lambda: run_kvo(args.bin, SCENARIOS / "startup.kvo", args.timeout,
                                               quiet=False, stdout=subprocess.DEVNULL))):
                if series.dead is None:
                    series.add(run())
        ratio = (compiled.median / scenario.median
                 if compiled.median is not None and scenario.median else None)
        cpu_ratio = (compiled.cpu_median / scenario.cpu_median
                     if compiled.cpu_median is not None and scenario.cpu_median else None)
        met = "" if ratio is None else (" ✓" if ratio <= 1.5 else " ✗")
        goal("(c) a cached Swift program's start-up", "≤ 1.5× the scenario's",
             "–" if ratio is None else f"{ratio:.2f}×", None if ratio is None else ratio <= 1.5)
        rows.append(f"| (c) start-up of a cached program (`startup.swift`) against the "
                    f"10-line scenario (`startup.kvo`), median of {runs} each | "
                    f"{ms_text(compiled, args.timeout)} | scenario {ms_text(scenario, args.timeout)} | "
                    f"{'–' if ratio is None else f'{ratio:.2f}×'}"
                    f"{'' if cpu_ratio is None else f' (CPU {cpu_ratio:.2f}×)'} | ≤ 1.5×{met} |")

    if rows:
        report += ["| row | wall | CPU (s) / reference | ratio | goal |",
                   "|---|---:|---:|---:|---|"] + rows + [""]
        report += ["Each row runs kvo-run (the snapshot binary) with its cache in a private "
                   "`XDG_CACHE_HOME` (the runtime, the compiled programs and swiftc's module "
                   "cache), and the runtime's sources from a snapshot "
                   "(`KVO_RUNTIME_SOURCES`). (a) starts from an empty cache every run; "
                   "(b) changes the program's `let run = …` line every run, so it is new "
                   "to the cache; (c) compiles `startup.swift` once before timing. "
                   "Wall-clock times and the CPU time (user + system) of kvo-run and "
                   "every process it starts (swiftc, the linker, the program).", ""]

    # (d) The compiled route beside the scenario language and GNUstep, phase-
    # matched: B1 (an @objc dynamic property, one observe token [.new, .old]),
    # B2 and B4 (classic addObserver with an observeValue override) and OQ
    # (an OperationQueue of 4 running 10,000 operations, each observed on
    # isFinished; no scenario twin: the scenario language has no queues).
    for workload in COMPILED:
        if not wanted(workload["row"]):
            continue
        phase_name = workload["phase"]
        params = dict(workload["quick"] if args.quick else workload["full"])
        setup = dict(params, **{phase_name: 0})
        names = list(params)
        swift_defaults = read_defaults(workload["swift"], names)
        swift_files = (materialize(workload["swift"], params, swift_defaults, tmpdir),
                       materialize(workload["swift"], setup, swift_defaults, tmpdir))
        kvo_files = None
        if workload.get("kvo"):
            kvo_defaults = read_defaults(workload["kvo"], names)
            kvo_files = (materialize(workload["kvo"], params, kvo_defaults, tmpdir),
                         materialize(workload["kvo"], setup, kvo_defaults, tmpdir))
        log(f"{workload['row']}: {workload['name']} compiled"
            f"{', interpreted' if kvo_files else ''} and GNUstep ({params}; set-up runs with "
            f"{phase_name}=0); compiling the programs first")
        for program in swift_files:
            run_swift(args.bin, program, args.timeout, route.env())
        peer = args.peers / workload["peer"]
        peer_args = ([params[k] for k in names], [setup[k] for k in names])
        sides = {
            "compiled Swift": (Series("compiled"), Series("compiled set-up"),
                               lambda f: run_swift(args.bin, swift_files[f], args.timeout, route.env())),
        }
        if kvo_files:
            sides["scenario language"] = (Series("interpreted"), Series("interpreted set-up"),
                                          lambda f: run_kvo(args.bin, kvo_files[f], args.timeout))
        sides["GNUstep"] = (Series("GNUstep"), Series("GNUstep set-up"),
                            lambda f: run_peer(peer, peer_args[f], args.timeout))
        order = []
        for whole, zero, run in sides.values():
            order.append((whole, lambda run=run: run(0)))
        for whole, zero, run in sides.values():
            order.append((zero, lambda run=run: run(1)))
        alternate_all(args.pairs, order, workload["row"])
        g_phase = phase_seconds(*sides["GNUstep"][:2])
        g_cpu = phase_seconds(*sides["GNUstep"][:2], cpu=True)
        units = params[phase_name] * workload.get("per", 1)
        lines, ratios = [], {}
        for label, (whole, zero, _) in sides.items():
            phase = phase_seconds(whole, zero)
            cpu = phase_seconds(whole, zero, cpu=True)
            ns = phase / units * 1e9 if phase is not None and phase > 0 else None
            ratio = phase_ratio(phase, g_phase)
            ratios[label] = ratio
            cpu_ratio = phase_ratio(cpu, g_cpu)
            problems = []
            for series, exp in ((whole, workload["count"](params)), (zero, 0)):
                if series.runs and series.counts != [exp]:
                    problems.append(f"{series.label} counted {series.count_text()}, expected {exp:,}")
            lines.append(f"| {label} | {whole.time_text(args.timeout)} | {zero.time_text(args.timeout)} | "
                         f"{phase_text(phase)} | {'–' if ns is None else f'{ns:,.0f}'} | "
                         f"{'–' if ratio is None else f'{ratio:.2f}'} | "
                         f"{'–' if cpu_ratio is None else f'{cpu_ratio:.2f}'} | "
                         f"{'; '.join(problems) or 'ok'} |")
        compiled, interpreted = ratios.get("compiled Swift"), ratios.get("scenario language")
        measured = ("–" if compiled is None else f"{compiled:.2f}× GNUstep") + (
            "" if interpreted is None else f"; the scenario language {interpreted:.2f}×")
        if workload.get("target"):
            met = None
            if compiled is not None and interpreted is not None:
                met = compiled >= workload["target"] and compiled > interpreted
            goal(f"{workload['name']} compiled ({workload['row']})",
                 f"≥ {workload['target']:g}× GNUstep and faster than the scenario language", measured, met)
        else:
            verdict = "" if compiled is None else (" (wins)" if compiled >= 1 else " (loses)")
            goal(f"{workload['name']} compiled ({workload['row']})",
                 "reported: where it wins or loses against GNUstep", measured + verdict, None)
        report += [f"### ({workload['row']}) {workload['name']} compiled: {workload['what'](params)}", "",
                   f"| {workload['name']} as | whole (s) | set-up, {phase_name} = 0 (s) | phase (s) | "
                   f"ns per {workload['unit']} | GNUstep / this (phase) | same on CPU | check |",
                   "|---|---:|---:|---:|---:|---:|---:|---|"] + lines + [""]
        report += [workload["about"] + f" Each round runs the sides whole, then with {phase_name} = 0 "
                   f"({args.pairs} rounds, medians); phase = median(whole) − median(set-up), as in "
                   "the table above. Above 1, that side is faster than GNUstep's compiled KVO; "
                   "every program is compiled once before timing and run as `kvo-run FILE.swift "
                   "--quiet` (it prints its own count, as a peer does).", ""]
    return report


def environment(args):
    def cmd_out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    rev = cmd_out(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"])
    dirty = cmd_out(["git", "-C", str(ROOT), "status", "--porcelain", "--", "Sources"])
    binary = Path(args.bin)
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(binary.stat().st_mtime))
    gnustep = cmd_out(["dpkg-query", "-W", "-f", "${Version}", "libgnustep-base-dev"])
    gcc = cmd_out(["gcc", "-dumpfullversion"])
    return [
        f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}; mode: "
        f"{'quick' if args.quick else 'full'}; {args.pairs} rounds per workload "
        f"(kvo-run, GNUstep, kvo-run set-up, GNUstep set-up), medians; "
        f"timeout {args.timeout:g} s per run",
        f"- machine: {cpu or 'unknown CPU'}, {os.cpu_count()} CPUs, "
        f"Linux {os.uname().release}",
        f"- kvo-run: {binary} (built {built}), git {rev or '?'}"
        f"{' + uncommitted changes in Sources/' if dirty else ''}",
        f"- GNUstep Base {gnustep or '?'} (Debian), gcc {gcc or '?'} -O2, "
        f"peers in {args.peers}",
    ]


def tutorial_first_step():
    """The first ```kvo block of docs/tutorial.md: the scenario the load check posts."""
    text = (ROOT / "docs" / "tutorial.md").read_text()
    m = re.search(r"^```kvo\n(.*?)^```", text, re.M | re.S)
    return m.group(1) if m else ""


def process_memory_kb(pid):
    """VmRSS and VmHWM (peak) of a running process, in KiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0])
    return fields.get("VmRSS"), fields.get("VmHWM")


def serve_section(args, tmpdir):
    """`kvo-run serve` under load (issue 44): requests per second for the
    tutorial's first scenario with 8 clients in parallel (wrk, keep-alive), and
    the server's memory after at least 10,000 requests. No GNUstep peer: the
    numbers stand alone, beside the others."""
    title = ["## kvo-run serve: the tutorial's first scenario, 8 clients", ""]
    wrk = shutil.which("wrk")
    if not wrk:
        return title + ["wrk is not installed (`apt-get install wrk`, or `make bench-setup`): not measured.", ""]
    import json
    body = json.dumps({"source": tutorial_first_step(), "line": 6})
    script = Path(tmpdir) / "run.lua"
    script.write_text('wrk.method = "POST"\n'
                      f"wrk.body = {json.dumps(body)}\n"
                      'wrk.headers["Content-Type"] = "application/json"\n')
    env = dict(os.environ, HOME=tmpdir, XDG_CACHE_HOME=str(Path(tmpdir) / "cache"))
    server = subprocess.Popen([args.bin, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, text=True, start_new_session=True)
    try:
        first = server.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        if not m:
            return title + [f"kvo-run serve did not start: {first!r}", ""]
        url = f"http://127.0.0.1:{m.group(1)}/run"
        rss_start, _ = process_memory_kb(server.pid)
        seconds = 3 if args.quick else 10
        wanted_requests = 1_000 if args.quick else 10_000
        total, rounds, rows = 0, 0, []
        log(f"kvo-run serve: wrk -c 8 -d {seconds}s until {wanted_requests:,} requests")
        while total < wanted_requests and rounds < 20:
            run = subprocess.run([wrk, "-t", "2", "-c", "8", "-d", f"{seconds}s", "--latency",
                                  "-s", str(script), url], capture_output=True, text=True,
                                 timeout=seconds + 60)
            rounds += 1
            done = re.search(r"(\d+) requests in", run.stdout)
            rate = re.search(r"Requests/sec:\s+([\d.]+)", run.stdout)
            p50 = re.search(r"^\s+50%\s+(\S+)", run.stdout, re.M)
            p99 = re.search(r"^\s+99%\s+(\S+)", run.stdout, re.M)
            bad = re.search(r"Non-2xx or 3xx responses: (\d+)", run.stdout)
            errors = re.search(r"Socket errors: (.*)", run.stdout)
            if not done or not rate:
                return title + [f"wrk failed: {tail(run.stdout + run.stderr)}", ""]
            total += int(done.group(1))
            rows.append(f"| {rounds} | {int(done.group(1)):,} | {float(rate.group(1)):.0f} | "
                        f"{p50.group(1) if p50 else '–'} | {p99.group(1) if p99 else '–'} | "
                        f"{bad.group(1) if bad else 0} | {errors.group(1) if errors else 'none'} |")
        rss, peak = process_memory_kb(server.pid)
        alive = server.poll() is None
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    return title + [
        "| round | requests | requests/s | p50 | p99 | non-2xx | socket errors |",
        "|---:|---:|---:|---:|---:|---:|---|"] + rows + [
        "", f"`wrk -t 2 -c 8 -d {seconds}s` POSTing the tutorial's first scenario to `/run` "
        "(each answer: the run's output, every statement's `--explain` steps, the graph at "
        "line 6 rendered by Graphviz's `dot`, the sequence diagram), rounds until "
        f"{wanted_requests:,} requests. The server's RSS: {rss_start / 1024:.1f} MiB at start, "
        f"{rss / 1024:.1f} MiB after {total:,} requests (peak {peak / 1024:.1f} MiB); "
        f"{'still serving' if alive else 'NOT RUNNING at the end'}.", ""]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(ROOT / ".build/release/kvo-run"),
                        help="kvo-run binary (default .build/release/kvo-run)")
    parser.add_argument("--peers", default=str(ROOT / ".build/bench"),
                        help="directory of the built GNUstep peers (default .build/bench)")
    parser.add_argument("--quick", action="store_true",
                        help="development run: 3 pairs, N / 10")
    parser.add_argument("--pairs", type=int, help="rounds per workload, each one run "
                        "of both sides whole and set-up only (default 7, 3 with --quick)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per run before it is reported as timeout (300)")
    parser.add_argument("--only", help="comma-separated subset of: "
                        + ",".join([w["name"] for w in WORKLOADS] + EXTRAS))
    parser.add_argument("--output", help="also write the Markdown report to this file")
    args = parser.parse_args()
    if args.pairs is None:
        args.pairs = 3 if args.quick else 7
    args.bin = os.path.abspath(args.bin)
    args.peers = Path(os.path.abspath(args.peers))
    selected = set(args.only.split(",")) if args.only else None
    known = {w["name"] for w in WORKLOADS} | set(EXTRAS)
    if selected and not selected <= known:
        parser.error(f"--only: unknown {', '.join(sorted(selected - known))}")

    def wanted(name):
        return selected is None or name in selected

    if not os.access(args.bin, os.X_OK):
        raise SystemExit(f"kvo-run not found at {args.bin}: run `make bench` "
                         "or `swift build -c release`, or pass --bin")
    peer_names = ([w.get("peer", w["name"]) for w in WORKLOADS if wanted(w["name"])]
                  + (["B3"] if wanted("scaling") else [])
                  + (["startup"] if wanted("startup") or wanted("rss") else [])
                  + (["mem_1m"] if wanted("rss") else [])
                  + [w["peer"] for w in COMPILED if wanted(w["row"])])
    missing = [n for n in peer_names if not os.access(args.peers / n, os.X_OK)]
    if missing:
        # kvo-run's own times are still worth a table (GNUstep may not be
        # installed): the GNUstep columns say "no peer".
        log(f"GNUstep peers missing in {args.peers}: {', '.join(missing)} "
            "(`make bench` builds them): kvo-run's side only for those")

    mode = "quick" if args.quick else "full"
    environment_lines = environment(args)
    report = ["# kvo-run vs GNUstep Base KVO", ""] + environment_lines + [""]
    tmpdir = tempfile.mkdtemp(prefix="kvo-bench-")
    b3_result = None
    try:
        # Run a snapshot of the binary, so that a rebuild during the run (the
        # engine is work in progress) cannot mix two versions in one table.
        snapshot = Path(tmpdir) / "kvo-run"
        shutil.copy2(args.bin, snapshot)
        args.bin = str(snapshot)
        # ---- workloads ---------------------------------------------------
        rows, details, notes = [], [], []
        for w in WORKLOADS:
            if not wanted(w["name"]):
                continue
            params = w[mode]
            setup_params = dict(params, **{w["phase"]: 0})
            defaults = read_defaults(w["scenario"], params.keys())
            scenarios = (materialize(w["scenario"], params, defaults, tmpdir),
                         materialize(w["scenario"], setup_params, defaults, tmpdir))
            expected = (w["expected"](params), w["expected"](setup_params))
            sample = w.get("sample")
            samples = (sample(params), sample(setup_params)) if sample else (None, None)
            log(f"{w['name']}: {w['what']} ({', '.join(f'{k}={v:,}' for k, v in params.items())}; "
                f"set-up runs with {w['phase']}=0)")
            r = compare_phased(w["name"], scenarios, args.peers / w.get("peer", w["name"]),
                               (w["argv"](params), w["argv"](setup_params)),
                               expected, samples, args)
            if w["name"] == "B3":
                b3_result = (params["n"], r.kvo, r.peer)
            k_phase, g_phase = phase_seconds(r.kvo, r.kvo_setup), phase_seconds(r.peer, r.peer_setup)
            ratio = phase_ratio(k_phase, g_phase)
            cpu_ratio = phase_ratio(phase_seconds(r.kvo, r.kvo_setup, cpu=True),
                                    phase_seconds(r.peer, r.peer_setup, cpu=True))
            notified = expected[0] - expected[1]
            k_ns = g_ns = None
            if w.get("per_notification") and notified > 0:
                if k_phase is not None and k_phase > 0:
                    k_ns = k_phase / notified * 1e9
                if g_phase is not None and g_phase > 0:
                    g_ns = g_phase / notified * 1e9
            size = ", ".join(f"{k}={v:,}" for k, v in params.items())
            rows.append(f"| {w['name']} ({size}) | {r.kvo.time_text(args.timeout)} | "
                        f"{r.peer.time_text(args.timeout)} | "
                        f"{ratio_text(r.kvo, r.peer, args.timeout)} | "
                        f"{phase_text(k_phase)} | {phase_text(g_phase)} | "
                        f"{'–' if ratio is None else f'{ratio:.2f}'} | "
                        f"{target_text(w.get('target'), ratio, k_ns)} |")
            ns_text = ("–" if not w.get("per_notification") else
                       f"{'–' if k_ns is None else f'{k_ns:,.0f}'} / "
                       f"{'–' if g_ns is None else f'{g_ns:,.0f}'}")
            details.append(f"| {w['name']} | {w['phase']} = 0: no {w['phase_what'].removeprefix('the ')} | "
                           f"{r.kvo_setup.time_text(args.timeout)} | "
                           f"{r.peer_setup.time_text(args.timeout)} | "
                           f"{cpu_ratio_text(r.kvo, r.peer)} | "
                           f"{'–' if cpu_ratio is None else f'{cpu_ratio:.2f}'} | {ns_text} | "
                           f"{r.kvo.count_text()} | {r.peer.count_text()} | {r.check} |")
            notes.append(f"- **{w['name']}**: {w['what']}; phase: {w['phase_what']}.")
            if w.get("target"):
                target = w["target"]
                goal(f"{w['name']} (scenario language)", f"≥ {target['ratio']:g}× GNUstep (phase)",
                     "–" if ratio is None else f"{ratio:.2f}×",
                     None if ratio is None else ratio >= target["ratio"])
        if rows:
            report += ["## Workloads", "",
                       "| workload | kvo-run whole (s) | GNUstep whole (s) | whole ratio | "
                       "kvo-run phase (s) | GNUstep phase (s) | phase ratio | target (phase) |",
                       "|---|---:|---:|---:|---:|---:|---:|---|"] + rows + [""]
            report += ["Ratios are GNUstep / kvo-run: above 1 kvo-run is faster. *Whole* is "
                       "the wall-clock time of the whole process (start-up and set-up "
                       "included), kvo-run with `--quiet --stats`. *Phase* is the time of "
                       "the phase the workload is named for: the median of the whole runs "
                       "minus the median of set-up runs, the same program with the phase's "
                       "iteration count set to 0, alternated with the whole runs. A phase "
                       "shorter than the noise of the two medians can come out ≤ 0.", ""]
            report += ["| workload | set-up runs | kvo-run set-up (s) | GNUstep set-up (s) | "
                       "CPU ratio whole | CPU ratio phase | ns/notification in the phase "
                       "(kvo-run / GNUstep) | notifications kvo-run | notifications GNUstep "
                       "| check |",
                       "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"] + details + [""]
            report += ["CPU ratios use the medians of the same runs' user + system time "
                       "(getrusage of the child), which the host's scheduling does not "
                       "inflate. Notifications are the whole runs' (the set-up runs must "
                       "report 0); `check` covers both.", ""] + notes + [""]

        # ---- start-up ----------------------------------------------------
        if wanted("startup"):
            runs = 10 if args.quick else 20
            log(f"start-up: {runs} runs each of startup.kvo and its peer")
            kvo, peer = Series("kvo-run"), Series("GNUstep")
            scenario = SCENARIOS / "startup.kvo"
            for i in range(runs):
                for series, run in (
                        (kvo, lambda: run_kvo(args.bin, scenario, args.timeout,
                                              quiet=False, stdout=subprocess.DEVNULL)),
                        (peer, lambda: run_peer(args.peers / "startup", [], args.timeout,
                                                stdout=subprocess.PIPE))):
                    if series.dead is None:
                        series.add(run())
            def ms(s):
                return f"{s.median * 1000:.1f} ms" if s.median is not None else s.time_text(args.timeout)
            goal("start-up of an empty scenario", "≤ 3 ms (a quiet machine)", ms(kvo),
                 None if kvo.median is None else kvo.median <= 0.003)
            report += ["## Start-up", "",
                       f"A 10-line scenario (`Benchmarks/scenarios/startup.kvo`: one "
                       f"observer, two changes, output to /dev/null), median of {runs} "
                       f"runs: **kvo-run {ms(kvo)}**, GNUstep peer "
                       f"(`startup.m`, same story) {ms(peer)}. "
                       f"Notifications: kvo-run {kvo.count_text()}, "
                       f"GNUstep {peer.count_text()}.", ""]

        # ---- peak RSS ----------------------------------------------------
        if wanted("rss"):
            runs = 1 if args.quick else 3
            log(f"peak RSS: 1M objects with 3 properties, {runs} run(s) each")
            cmds = {
                "kvo-run": ([args.bin, SCENARIOS / "mem_1m.kvo", "--quiet"],
                            [args.bin, SCENARIOS / "startup.kvo", "--quiet"]),
                "GNUstep": ([args.peers / "mem_1m"], [args.peers / "startup"]),
            }
            lines, peaks = [], {}
            for label, (cmd, base_cmd) in cmds.items():
                big = [max_rss_kb([str(c) for c in cmd], args.timeout) for _ in range(runs)]
                base = max_rss_kb([str(c) for c in base_cmd], args.timeout)
                ok = [o.rss_kb for o in big if o.status == "ok"]
                if not ok or base.status != "ok":
                    bad = next((o for o in big + [base] if o.status != "ok"), None)
                    lines.append(f"| {label} | {bad.status if bad else '–'} | | | |")
                    continue
                peak = statistics.median(ok)
                peaks[label] = peak
                per_obj = (peak - base.rss_kb) * 1024 / 1_000_000
                secs = statistics.median(o.seconds for o in big if o.status == "ok")
                lines.append(f"| {label} | {peak / 1024:.1f} | {base.rss_kb / 1024:.1f} | "
                             f"{per_obj:.0f} | {fmt_seconds(secs)} |")
            if len(peaks) == 2:
                goal("1M objects × 3 properties, peak RSS", "kvo-run ≤ GNUstep",
                     f"{peaks['kvo-run'] / 1024:.1f} MiB against {peaks['GNUstep'] / 1024:.1f} MiB",
                     peaks["kvo-run"] <= peaks["GNUstep"])
            else:
                goal("1M objects × 3 properties, peak RSS", "kvo-run ≤ GNUstep", "a run failed", None)
            how = ("/usr/bin/time -v" if os.access("/usr/bin/time", os.X_OK)
                   else "getrusage(RUSAGE_CHILDREN).ru_maxrss")
            report += ["## Peak RSS: 1,000,000 objects with 3 properties", "",
                       "| | peak RSS (MiB) | start-up RSS (MiB) | bytes/object "
                       "| wall (s) |", "|---|---:|---:|---:|---:|"] + lines + [
                       "", f"Measured with {how}; bytes/object = (peak − start-up "
                       "scenario's peak) / 1M. `mem_1m.kvo` keeps the objects in a "
                       "`var ps = []` array; `mem_1m.m` in an NSMutableArray.", ""]

        # ---- text output -------------------------------------------------
        if wanted("text"):
            n = 100_000 if args.quick else 1_000_000
            runs = 1 if args.quick else 3
            log(f"text output: {n:,} notification lines to a file, {runs} run(s)")
            defaults = read_defaults("B1.kvo", ["n"])
            scenario = materialize("B1.kvo", dict(n=n), defaults, tmpdir)
            out_path = Path(tmpdir) / "text.out"
            series, quiet = Series("text"), Series("quiet")
            for _ in range(runs):
                with open(out_path, "wb") as f:
                    outcome = run_kvo(args.bin, scenario, args.timeout, quiet=False,
                                      stdout=f)
                series.add(outcome)
                if outcome.status == "ok":
                    size = out_path.stat().st_size
                    with open(out_path, "rb") as f:
                        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
                    outcome.detail = (size, lines)
                quiet.add(run_kvo(args.bin, scenario, args.timeout))
                if series.dead or quiet.dead:
                    break
            out_path.unlink(missing_ok=True)
            if series.median is not None:
                size, lines = series.runs[-1].detail
                t = series.median
                extra = ""
                if quiet.median is not None:
                    extra = (f"; the same run with `--quiet` takes {fmt_seconds(quiet.median)} s, "
                             f"so printing costs {(t - quiet.median) / n * 1e6:.2f} µs per line")
                check = "" if lines == n else f" **(expected {n:,} lines, got {lines:,})**"
                report += ["## Text output throughput", "",
                           f"B1 with n = {n:,} without `--quiet`, standard output to a "
                           f"file: {lines:,} lines{check}, {size / 1e6:.1f} MB in "
                           f"{fmt_seconds(t)} s (median of {len(series.runs)}) = "
                           f"**{lines / t:,.0f} lines/s**, {size / 1e6 / t:.1f} MB/s{extra}. "
                           "(kvo-run only: GNUstep has no notification trace.)", ""]
            else:
                report += ["## Text output throughput", "",
                           f"kvo-run: {series.time_text(args.timeout)}", ""]

        # ---- B3 scaling --------------------------------------------------
        if wanted("scaling"):
            sizes = SCALING[mode]
            results = {}
            for n in sizes:
                if b3_result is not None and b3_result[0] == n:
                    results[n] = b3_result[1:]
                    continue
                file = SCALING_FILES.get(n)
                if file and read_defaults(file, ["n"])["n"] == n:
                    scenario = SCENARIOS / file
                else:
                    scenario = materialize("B3.kvo", dict(n=n),
                                           read_defaults("B3.kvo", ["n"]), tmpdir)
                log(f"B3 scaling: N={n:,}")
                kvo, peer, _ = compare(f"B3[N={n}]", scenario, args.peers / "B3",
                                       [n], 0, args)
                results[n] = (kvo, peer)
            rows = []
            prev = None
            for n in sizes:
                kvo, peer = results[n]
                def growth(side, cpu=False):
                    if prev is None:
                        return "–"
                    def of(series):
                        return series.cpu_median if cpu else series.median
                    a, b = of(results[prev][side]), of(results[n][side])
                    if a is None or b is None:
                        return "–"
                    g = b / a
                    return f"×{g:.1f} (N^{math.log(g, n / prev):.2f})"
                rows.append(f"| {n:,} | {kvo.time_text(args.timeout)} | "
                            f"{growth(0)} | {fmt_seconds(kvo.cpu_median)} | "
                            f"{growth(0, cpu=True)} | {peer.time_text(args.timeout)} | {growth(1)} |")
                prev = n
            report += ["## B3 scaling: add then remove N observers", "",
                       "| N | kvo-run median (s) | kvo-run growth | kvo-run CPU (s) "
                       "| kvo-run CPU growth | GNUstep median (s) | GNUstep growth |",
                       "|---:|---:|---:|---:|---:|---:|---:|"] + rows + [
                       "", "Growth is the time ratio to the previous N (×10 is linear, "
                       "×100 quadratic; the exponent is log base 10 of it). Whole-process "
                       "times: at small N start-up dominates and flattens the growth.", ""]
        # ---- kvo-run serve under load -----------------------------------
        if wanted("serve"):
            report += serve_section(args, tmpdir)

        # ---- the compiled Swift route ----------------------------------
        if any(wanted(name) for name in SWIFT_EXTRAS):
            report += swift_section(args, mode, tmpdir, wanted)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    # The goals first, after the machine and the binary (the environment lines).
    head = len(["# kvo-run vs GNUstep Base KVO", ""] + environment_lines) + 1
    report[head:head] = goals_section()
    text = "\n".join(report)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
