"""Where a command's CPU goes, by kind of process: the suite's, to see what a change of the tests' browser saves.

    python tests/benchmarks/bench_suite_cpu.py -- .venv/bin/python -m pytest

Runs the command and reads /proc every quarter second meanwhile: each process's CPU time (user and system) since
this script started, grouped by kind (Chromium's processes by `--type`, pytest's workers, the servers the tests
start, Playwright's driver). A process that lives less than a quarter second may be missed, and one's last quarter
second; the machine's own busy time (/proc/stat) is printed beside the sum, so the part not accounted for shows.
Linux only. Run it on a quiet machine: every process on it is counted.
"""

import argparse
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.bench_tabs import busy_seconds  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")
# pytest-xdist starts each worker as `python -c "import sys;exec(eval(sys.stdin.readline()))"` (execnet's popen).
KINDS = (("exec(eval(sys.stdin", "pytest's workers"), ("pytest", "pytest's own process"),
         ("panel serve", "servers the tests start"), ("app serve", "servers the tests start"),
         ("jupyter", "JupyterLab and its kernels"), ("ipykernel", "JupyterLab and its kernels"),
         ("nginx", "nginx"), ("node", "node (Playwright's driver, the twins' tests)"), ("pip", "pip"))


def kind_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", errors="replace") as f:
            command = f.read().replace("\0", " ")
    except OSError:
        return "?"
    program = os.path.basename(command.split(" ", 1)[0])
    if "chrom" in program or "headless-shell" in program:
        found = re.search(r"--type=([a-z-]+)", command)
        return f"Chromium: {found.group(1) if found else 'browser'}"
    return next((kind for key, kind in KINDS if key in command), "other")


def cpu_times():
    """{(pid, start time): CPU seconds} of every process now."""
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[pid, fields[19]] = (int(fields[11]) + int(fields[12])) / HZ
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, after --")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to run after --")
    before, kinds, seen = cpu_times(), {}, {}
    busy, start = busy_seconds(), time.monotonic()
    run = subprocess.Popen(command)
    while True:
        for key, seconds in cpu_times().items():
            if key not in kinds:
                kinds[key] = kind_of(key[0])
            seen[key] = seconds - before.get(key, 0)
        if run.poll() is not None:
            break
        time.sleep(0.25)
    busy, wall = busy_seconds() - busy, time.monotonic() - start
    by_kind = Counter()
    for key, seconds in seen.items():
        by_kind[kinds[key]] += seconds
    print(f"{' '.join(command)}: exit {run.returncode}, {wall:.0f} s; the machine busy {busy:.0f} CPU-seconds "
          f"({busy / wall:.2f} cores), {sum(by_kind.values()):.0f} of them accounted for")
    for kind, seconds in by_kind.most_common():
        if seconds >= 0.5:
            print(f"  {seconds:7.1f}  {kind}")
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
