#!/usr/bin/env bash
# The randomized differential check: N random pipelines from SEED, each run on Streams and on OpenCombine on
# virtual time, their event logs compared; every mismatch shrunk to a minimal pipeline and printed. Known,
# deliberate differences are tagged (listed with their reasons in Conformance/README.md and the root README).
#
#   Conformance/run.sh                  # 2,000 cases from a fresh random seed (printed, to replay)
#   Conformance/run.sh 20000 42         # 20,000 cases from seed 42
#   Conformance/run.sh --case 42 1234   # replay one case: the pipeline, both logs, the shrunk pipeline
#
# Prints "M of N agree" and exits 0 only when every untagged case agrees. Needs only the Swift toolchain;
# OpenCombine 0.14.0 is fetched by SwiftPM. No stdin is read.
set -euo pipefail
cd "$(dirname "$0")"

if [[ ! -L Sources/ConformanceOpenCombine/Interpreter.swift ]]; then
    echo "run.sh: Sources/ConformanceOpenCombine/Interpreter.swift must link to ConformanceStreams's; the libraries would not run the same pipelines" >&2
    exit 1
fi
echo "== swift build -c release (Conformance/.build)" >&2
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build -c release --scratch-path .build >"$log" 2>&1; then
    cat "$log" >&2
    echo "run.sh: the release build failed" >&2
    exit 1
fi
if grep -q "warning:" "$log"; then
    grep "warning:" "$log" >&2
    echo "run.sh: the build printed warnings" >&2
    exit 1
fi
bin="$(swift build -c release --scratch-path .build --show-bin-path)"

if [[ "${1:-}" == "--case" ]]; then
    exec "$bin/conformance" "$@" </dev/null
fi
count="${1:-2000}"
seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "== $count cases from seed $seed (replay one with: Conformance/run.sh --case $seed INDEX)" >&2
exec "$bin/conformance" "$count" "$seed" </dev/null
