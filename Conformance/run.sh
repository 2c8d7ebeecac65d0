#!/usr/bin/env bash
# The randomized differential check: N random pipelines from SEED, each run on Streams and on OpenCombine on
# virtual time, their event logs compared; every mismatch shrunk to a minimal pipeline and printed. Known,
# deliberate differences are tagged (listed with their reasons in Conformance/README.md and the root README).
#
#   Conformance/run.sh                  # 2,000 cases from a fresh random seed (printed, to replay)
#   Conformance/run.sh 20000 42         # 20,000 cases from seed 42
#   Conformance/run.sh --case 42 1234   # replay one case: the pipeline, both logs, the shrunk pipeline
#   Conformance/run.sh --upstream 2000 1    # also compare what each pipeline does to its source
#   Conformance/run.sh --show-tagged 2000 1 # also print one shrunk example of each known difference
#   Conformance/run.sh --all 2000 1         # print every untagged mismatch, not only the first 30
#
# Prints "M of N agree" and exits 0 only when every untagged case agrees. Needs only the Swift toolchain;
# OpenCombine 0.14.0 is fetched by SwiftPM. No stdin is read.
set -euo pipefail
cd "$(dirname "$0")"

# The interpreter is written once: the OpenCombine target's copies are symlinks to the Streams target's files.
for shared in Interpreter EventLog Tap; do
    if [[ ! -L Sources/ConformanceOpenCombine/$shared.swift ]]; then
        echo "run.sh: Sources/ConformanceOpenCombine/$shared.swift must link to ConformanceStreams's; the libraries would not run the same pipelines" >&2
        exit 1
    fi
done
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

# Options (--upstream, --show-tagged, --all) go to the binary as they are; the rest is N SEED or --case SEED INDEX.
options=()
positional=()
for argument in "$@"; do
    case "$argument" in
        --upstream | --show-tagged | --all) options+=("$argument") ;;
        *) positional+=("$argument") ;;
    esac
done
if [[ "${positional[0]:-}" == "--case" ]]; then
    exec "$bin/conformance" "${options[@]}" "${positional[@]}" </dev/null
fi
count="${positional[0]:-2000}"
seed="${positional[1]:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "== $count cases from seed $seed (replay one with: Conformance/run.sh ${options[*]:+${options[*]} }--case $seed INDEX)" >&2
exec "$bin/conformance" "${options[@]}" "$count" "$seed" </dev/null
