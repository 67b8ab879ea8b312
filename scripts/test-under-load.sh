#!/usr/bin/env bash
# `npm test` on a clean clone while other work holds cores: the proof that the suite passes on a
# machine half as fast. Clones the committed HEAD into a temporary folder, starts Debian's
# stress-ng on one CPU (STRESS_CPUS to change), runs CI's script there under /usr/bin/time -v, stops
# stress-ng, and prints each step's time, the wall and CPU figures, and the exit code.
#
#   bash scripts/test-under-load.sh            # beside stress-ng --cpu 1
#   STRESS_CPUS=0 bash scripts/test-under-load.sh   # alone, for the quiet figure
#
# The log is kept in the printed folder. stress-ng: `apt-get install -y stress-ng`.
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
cpus=${STRESS_CPUS:-1}
work=$(mktemp -d /tmp/site-under-load.XXXXXX)
git clone -q "$repo" "$work/site"
# CI lays shared/ beside the clone; the suite reads nothing there, but keep the layout.
[ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
commit=$(git -C "$work/site" rev-parse --short HEAD)
stress_pid=
if [ "$cpus" -gt 0 ]; then
  command -v stress-ng >/dev/null || { echo "stress-ng is not installed: apt-get install -y stress-ng" >&2; exit 2; }
  stress-ng --cpu "$cpus" --timeout 7200s --quiet &
  stress_pid=$!
fi
trap '[ -n "$stress_pid" ] && kill "$stress_pid" 2>/dev/null; true' EXIT
echo "npm test at $commit in $work/site, beside stress-ng --cpu $cpus; log: $work/run.log"
set +e
(cd "$work/site" && CI=true /usr/bin/time -v -o "$work/time.txt" bash .ci/run) > "$work/run.log" 2>&1
code=$?
set -e
[ -n "$stress_pid" ] && kill "$stress_pid" 2>/dev/null
stress_pid=
sed 's/\x1b\[[0-9;]*m//g' "$work/run.log" | grep -E '^npm test:|^[0-9]+ passed, [0-9]+ failed|^hang guards' || true
grep -E 'Elapsed|User time|System time|Maximum resident' "$work/time.txt" | sed 's/^\s*/  /'
echo "exit code $code (log: $work/run.log)"
exit "$code"
