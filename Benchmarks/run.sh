#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs Streams, OpenCombine and the plain-Swift baseline
# alternately, then prints a table of medians, min–max and ratios (see the root README, "Performance").
#
#   Benchmarks/run.sh                 # 5 runs of every scenario
#   RUNS=3 Benchmarks/run.sh chain    # 3 runs of the named scenarios only
#   SVG=Benchmarks/scaling.svg Benchmarks/run.sh   # also draw the scaling curves (depth, fan-out, live
#                                                  # subscriptions) into that file
#
# Needs only the Swift toolchain; OpenCombine 0.14.0 is fetched by SwiftPM. No stdin is read.
set -euo pipefail
# SVG is relative to where the script was started from.
if [[ -n "${SVG:-}" && "$SVG" != /* ]]; then SVG="$PWD/$SVG"; fi
cd "$(dirname "$0")"
runs="${RUNS:-5}"

# The scenarios are written once: bench-opencombine/Scenarios.swift is a symlink to bench-streams's file.
if [[ ! -L Sources/bench-opencombine/Scenarios.swift ]]; then
    echo "run.sh: Sources/bench-opencombine/Scenarios.swift must link to bench-streams's; the libraries would not run the same scenarios" >&2
    exit 1
fi
echo "== swift build -c release (Benchmarks/.build)" >&2
log="$(mktemp)"
results="$(mktemp)"
trap 'rm -f "$log" "$results"' EXIT
if ! swift build -c release --scratch-path .build >"$log" 2>&1; then
    cat "$log" >&2
    echo "run.sh: the release build failed" >&2
    exit 1
fi
grep -E "warning:" "$log" >&2 || true
bin="$(swift build -c release --scratch-path .build --show-bin-path)"

libraries=(streams opencombine baseline)
for ((run = 1; run <= runs; run++)); do
    # Rotate the order every run, so no library always runs first (or right after another).
    for ((i = 0; i < ${#libraries[@]}; i++)); do
        library="${libraries[$(((i + run) % ${#libraries[@]}))]}"
        echo "== run $run/$runs: $library" >&2
        "$bin/bench-$library" "$@" </dev/null | tee -a "$results" >&2
    done
done

if [[ -n "${SVG:-}" ]]; then
    "$bin/bench-report" --svg "$SVG" <"$results"
else
    "$bin/bench-report" <"$results"
fi
