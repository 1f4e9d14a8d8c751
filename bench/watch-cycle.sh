#!/usr/bin/env bash
# watch-cycle.sh BUILD_DIR [PRS] [CYCLES] [RUNS] [FORGE]: the PR daemon's cost (docs/watch.md,
# docs/performance.md).
#
# Starts tests/tools/fake_forge.py on 127.0.0.1 (port chosen by the OS) as FORGE (default gitea:
# plain HTTP; github: HTTPS with a throw-away certificate for localhost made with openssl, reached
# as an Enterprise host through GH_HOST, GH_ENTERPRISE_TOKEN and SSL_CERT_FILE) holding PRS open
# PRs (default 100) and lets `review watch --once --json` record them (the baseline cycle). Then:
#  1. RUNS (default 11) one-shot `--once` cycles over the unchanged PRs, each at a later time so
#     every PR is due: the first one's requests, 304s and hints, and the median CPU time (user +
#     system) of the whole process (start, git, libcurl load, the cycle);
#  2. one daemon (`review watch --json`, no --once) running CYCLES cycles (default 1000) in one
#     process: the test build's fixed clock moves by the daemon's 30 s sleeps without sleeping,
#     so the cycles run back to back. After cycles 1, 10, 100, 120 and CYCLES it reads the
#     process's resident set (VmRSS) and, per cycle, its CPU time (/proc/PID/stat), then stops it.
#     Every PR is polled in each of the first 120 cycles (an hour); after that the schedule asks
#     idle PRs every 5 min, so later cycles poll a tenth of them.
# CPU times include the git processes the watcher runs. Uses BUILD_DIR/gentle-ai-test (the fixed
# clock is a test hook).
set -euo pipefail
build=$(cd "${1:?usage: watch-cycle.sh BUILD_DIR [PRS] [CYCLES] [RUNS] [FORGE]}" && pwd)
prs=${2:-100}
cycles=${3:-1000}
runs=${4:-11}
forge=${5:-gitea}
[[ "$forge" == gitea || "$forge" == github ]] || { echo "FORGE is gitea or github" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/gentle-ai-test
work=$(mktemp -d /tmp/gentle-ai-watch-bench-XXXXXX)
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C GITEA_TOKEN=bench

python3 - "$prs" >"$work/world.json" <<'PY'
import json, sys
n = int(sys.argv[1])
pulls = {f"acme/webapp#{i}": {"number": i, "state": "open", "draft": False, "mergeable": True,
         "head": {"sha": "a" * 40, "ref": f"topic-{i}"}, "updated_at": "2026-12-01T09:00:00Z"}
         for i in range(1, n + 1)}
print(json.dumps({"pulls": pulls}))
PY
tls=()
if [[ "$forge" == github ]]; then
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
    -subj /CN=localhost -addext subjectAltName=DNS:localhost 2>/dev/null
  tls=(--cert "$work/cert.pem" --key "$work/key.pem")
fi
coproc FORGE { exec python3 "$root/tests/tools/fake_forge.py" --kind "$forge" --world "$work/world.json" --log "$work/requests.log" "${tls[@]}"; }
pid=$FORGE_PID
read -r port <&"${FORGE[0]}"

git init -q "$work/repo"
if [[ "$forge" == github ]]; then
  git -C "$work/repo" remote add origin "https://github.com/acme/webapp.git"
  export GH_HOST="localhost:$port" GH_ENTERPRISE_TOKEN=bench SSL_CERT_FILE="$work/cert.pem" \
    GH_CONFIG_DIR="$work/gh-config"
else
  git -C "$work/repo" remote add origin "http://127.0.0.1:$port/acme/webapp.git"
  git -C "$work/repo" config gentle-ai.giteaHost "127.0.0.1:$port"
fi
args=()
for ((i = 1; i <= prs; i++)); do args+=(--pr "$forge:acme/webapp#$i"); done

at() { date -u -d "@$((1796000000 + $1))" +%Y-%m-%dT%H:%M:%SZ; }
GENTLE_FIXED_TIME=$(at 0) "$bin" review watch --once --json --cwd "$work/repo" "${args[@]}" >/dev/null
# One-shot cycles: each process's CPU time from wait4 (microseconds; its reaped children, the git
# it runs, included), every PR due (the clock 30 s on per run).
python3 - "$bin" "$work/repo" "$runs" "$(at 30)" "${args[@]}" <<'PY'
import datetime, json, os, statistics, subprocess, sys
binary, repo, runs, start, prs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
t0 = datetime.datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ")
cpu, first = [], None
for r in range(runs):
    at = (t0 + datetime.timedelta(seconds=30 * r)).strftime("%Y-%m-%dT%H:%M:%SZ")
    proc = subprocess.Popen([binary, "review", "watch", "--once", "--json", "--cwd", repo] + prs,
                            stdout=subprocess.PIPE, env=dict(os.environ, GENTLE_FIXED_TIME=at))
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
    first = first or json.loads(out)
print(f"one-shot cycle over {len(prs) // 2} unchanged PRs: {first['requests']} requests, "
      f"{first['not_modified']} answered 304, {len(first['hints'])} hints; process CPU median "
      f"{statistics.median(cpu):.1f} ms of {len(cpu)} runs (min {min(cpu):.1f}, "
      f"max {max(cpu):.1f})")
PY

# The daemon: one process, CYCLES cycles, starting where the one-shot runs left the clock.
python3 - "$bin" "$work/repo" "$cycles" "$(at $((30 * (runs + 2))))" "${args[@]}" <<'PY'
import json, os, statistics, subprocess, sys
binary, repo, cycles, start, prs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
env = dict(os.environ, GENTLE_FIXED_TIME=start)
proc = subprocess.Popen([binary, "review", "watch", "--json", "--cwd", repo] + prs,
                        stdout=subprocess.PIPE, env=env, text=True)
tick = os.sysconf("SC_CLK_TCK")

def cpu_ticks():
    with open(f"/proc/{proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15])  # utime, stime, and those of its reaped git runs

def rss_kb():
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

samples, per_cycle, polled, requests, not_modified, errors = {}, [], 0, 0, 0, 0
last = None
for cycle in range(1, cycles + 1):
    line = proc.stdout.readline()
    if not line:
        sys.exit(f"the daemon stopped after {cycle - 1} cycles")
    now = cpu_ticks()
    if last is not None:
        per_cycle.append((now - last) * 1000 / tick)
    last = now
    report = json.loads(line)
    polled += report["polled"]
    requests += report["requests"]
    not_modified += report["not_modified"]
    errors += len(report["errors"])
    if cycle in (1, 10, 100, 120, cycles):
        samples[cycle] = rss_kb()
proc.kill()
proc.wait()
print(f"daemon, {cycles} cycles in one process: {polled} PR polls, {requests} requests "
      f"({not_modified} answered 304), {errors} errors; resident set " +
      ", ".join(f"cycle {c}: {kb} KB" for c, kb in sorted(samples.items())))
print(f"daemon CPU per cycle: mean {statistics.mean(per_cycle):.1f} ms over {len(per_cycle)} "
      f"cycles (clock ticks of {1000 / tick:.0f} ms); cycles 2-120 (all PRs polled): mean "
      f"{statistics.mean(per_cycle[:119]):.1f} ms")
PY
