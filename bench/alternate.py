#!/usr/bin/env python3
"""alternate.py N CMD_A CMD_B [CMD_C ...]: whole-process timings of commands run alternately.

Each command runs once as a warm-up, then N times, one run of each command after the other, the
order reversed every other round, so that a change in the machine's load or frequency falls on
all of them alike (hyperfine runs all runs of one command, then all of the next). Prints, per
command, the median wall time and the median CPU time (user + system of the child, from
getrusage) in milliseconds, and both as ratios to the LAST command (the reference, e.g. git).
Commands are split like a shell would split them (shlex), run without a shell, with stdout and
stderr discarded. docs/performance.md, "Status on large trees".
"""
import resource
import shlex
import statistics
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 4 or not sys.argv[1].isdigit():
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    commands = [shlex.split(c) for c in sys.argv[2:]]
    wall = [[] for _ in commands]
    cpu = [[] for _ in commands]
    for command in commands:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    for r in range(rounds):
        order = range(len(commands)) if r % 2 == 0 else reversed(range(len(commands)))
        for k in order:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(commands[k], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            end = time.perf_counter()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall[k].append((end - start) * 1000)
            cpu[k].append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) *
                          1000)
    median_wall = [statistics.median(w) for w in wall]
    median_cpu = [statistics.median(c) for c in cpu]
    print("| command | wall ms | CPU ms | wall ratio | CPU ratio |")
    print("|---|---:|---:|---:|---:|")
    for k, text in enumerate(sys.argv[2:]):
        print(f"| `{text}` | {median_wall[k]:.1f} | {median_cpu[k]:.1f} | "
              f"{median_wall[k] / median_wall[-1]:.3f} | {median_cpu[k] / median_cpu[-1]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
