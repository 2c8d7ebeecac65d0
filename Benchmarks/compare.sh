#!/usr/bin/env bash
# A/B of two commits of the root package: builds bench-streams against each (same scenarios, those of this
# Benchmarks directory), runs them alternately and prints a table of medians with B ÷ A.
#
#   Benchmarks/compare.sh HEAD~1 HEAD                  # every scenario, 3 runs each
#   RUNS=5 Benchmarks/compare.sh main HEAD chain ten-stages
#
# Every scenario more than 10 % slower in B (median B ÷ A > 1.10; THRESHOLD=1.2 changes it) is marked ❌
# and the script exits 1; it also exits 1 when A and B observed different checksums. Each commit is
# checked out with `git worktree add --detach` in a temporary directory, removed on exit. No stdin is read.
set -euo pipefail

usage() {
    echo "usage: Benchmarks/compare.sh REV_A REV_B [scenario…]   (env: RUNS, default 3; THRESHOLD, default 1.10)" >&2
    exit 2
}
[[ $# -ge 2 ]] || usage
bench_dir="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$bench_dir" rev-parse --show-toplevel)"
runs="${RUNS:-3}"
threshold="${THRESHOLD:-1.10}"
rev_a="$1"
rev_b="$2"
shift 2
sha_a="$(git -C "$repo" rev-parse --verify --quiet "$rev_a^{commit}")" || { echo "compare.sh: no commit $rev_a" >&2; exit 2; }
sha_b="$(git -C "$repo" rev-parse --verify --quiet "$rev_b^{commit}")" || { echo "compare.sh: no commit $rev_b" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/streams-compare.XXXXXX")"
cleanup() {
    for side in a b; do
        if [[ -d "$tmp/$side/Streams" ]]; then
            git -C "$repo" worktree remove --force "$tmp/$side/Streams" >/dev/null 2>&1 || true
        fi
    done
    git -C "$repo" worktree prune || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The same benchmark sources for both sides: a copy of this directory (without its build products), so that
# edits made meanwhile do not leak into one side only.
mkdir -p "$tmp/bench"
tar -C "$bench_dir" --exclude=./.build --exclude=./.swiftpm -cf - . | tar -C "$tmp/bench" -xf -

declare -A bin
for side in a b; do
    sha="$sha_a"
    [[ "$side" == b ]] && sha="$sha_b"
    mkdir -p "$tmp/$side"
    # The directory is named Streams, the root package's name, so that its package identity stays "Streams".
    git -C "$repo" worktree add --detach --quiet "$tmp/$side/Streams" "$sha"
    echo "== $side: ${sha:0:10} — swift build -c release --product bench-streams" >&2
    log="$tmp/build-$side.log"
    # Package.swift takes the root package from STREAMS_PACKAGE_PATH; no manifest cache, as the manifest's
    # result depends on that variable.
    if ! STREAMS_PACKAGE_PATH="$tmp/$side/Streams" swift build -c release --package-path "$tmp/bench" \
        --scratch-path "$tmp/build-$side" --manifest-cache none --product bench-streams >"$log" 2>&1; then
        cat "$log" >&2
        echo "compare.sh: the release build of $side (${sha:0:10}) failed" >&2
        exit 1
    fi
    grep -E "warning:" "$log" >&2 || true
    bin[$side]="$(STREAMS_PACKAGE_PATH="$tmp/$side/Streams" swift build -c release --package-path "$tmp/bench" \
        --scratch-path "$tmp/build-$side" --manifest-cache none --show-bin-path)/bench-streams"
done

results="$tmp/results"
: >"$results"
for ((run = 1; run <= runs; run++)); do
    # Alternate which side runs first.
    order=(a b)
    ((run % 2 == 0)) && order=(b a)
    for side in "${order[@]}"; do
        echo "== run $run/$runs: $side" >&2
        out="$tmp/out"
        "${bin[$side]}" "$@" </dev/null >"$out"
        cat "$out" >&2
        awk -F'\t' -v side="$side" '$1 == "RESULT" { print side "\t" $3 "\t" $4 "\t" $5 "\t" $6 }' "$out" >>"$results"
    done
done

echo
echo "A = $rev_a (${sha_a:0:10}), B = $rev_b (${sha_b:0:10}); $runs runs each, alternating; medians (min–max)."
echo
awk -F'\t' -v threshold="$threshold" -v name_a="$rev_a" -v name_b="$rev_b" '
function fmt(v) { return v >= 100 ? sprintf("%d", v + 0.5) : sprintf("%.1f", v) }
function figures(key,    n, i, j, t, v, median) {
    n = count[key]
    for (i = 1; i <= n; i++) v[i] = values[key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    median = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    medians[key] = median
    return fmt(median) " (" fmt(v[1]) "–" fmt(v[n]) ")"
}
{
    side = $1; scenario = $2
    if (!(scenario in seen)) { seen[scenario] = 1; order[++scenarios] = scenario; unit[scenario] = $4 }
    key = side SUBSEP scenario
    values[key, ++count[key]] = $3
    if (scenario in checksum && checksum[scenario] != $5) mismatch[scenario] = 1
    checksum[scenario] = $5
}
END {
    if (scenarios == 0) { print "compare.sh: no results"; exit 1 }
    print "| Scenario | Unit | A: " name_a " | B: " name_b " | B ÷ A |"
    print "| --- | --- | ---: | ---: | --- |"
    failed = 0
    for (i = 1; i <= scenarios; i++) {
        s = order[i]
        a = figures("a" SUBSEP s); b = figures("b" SUBSEP s)
        ma = medians["a" SUBSEP s]; mb = medians["b" SUBSEP s]
        ratio = ma > 0 ? mb / ma : 0
        mark = ratio > threshold ? "❌" : "✅"
        if (ratio > threshold) failed = 1
        note = ""
        if (s in mismatch) { note = " ⚠️ checksums differ"; failed = 1 }
        printf "| %s | %s | %s | %s | %.2f %s%s |\n", s, unit[s], a, b, ratio, mark, note
    }
    print ""
    if (failed) print "❌: B is more than " sprintf("%.0f", (threshold - 1) * 100) " % slower than A (or A and B did different work)."
    exit failed
}' "$results"
