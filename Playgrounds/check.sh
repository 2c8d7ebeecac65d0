#!/usr/bin/env bash
# Builds every playground, runs each one and checks that it exits 0 and prints its key lines.
# Usage: Playgrounds/check.sh   (from anywhere; CI runs it)
set -euo pipefail
cd "$(dirname "$0")/.."

# name|a line the run must contain (one check per entry; a playground may have several)
checks=(
  "demand|received 2 → that was 2, requesting 2 more"
  "demand|finished after 7 values, requested in batches of 2"
  "subjects-and-share|upstream subscribed (once)"
  "subjects-and-share|log writes €2.50"
  "debounce-vs-throttle|debounce            -------c-----------g|"
  "debounce-vs-throttle|throttle latest     -a--c------d--f--g--|"
  "retry-backoff|t = 0.3 seconds: attempt 3 → succeeds"
  "switch-to-latest|cancelled the search for \"s\""
  "switch-to-latest|shown: [\"results for \\\"swift\\\"\"]"
  "async-interop|hello, Streams"
  "marbles|Marble diagrams match"
  "marbles|Subscriptions match"
  "product-search|t = 0.8 s: loading \"audi\"…"
  "product-search|5 of 5 results (last page)"
  "fetch-counter|  count 2, last answer HTTP 200"
  "fetch-counter|starts from the file:
  count 2"
  "fetch-counter|reset:
  count 0"
)

swift build
bin=$(swift build --show-bin-path)
declare -A output
status=0
for entry in "${checks[@]}"; do
  name=${entry%%|*}
  expected=${entry#*|}
  if [[ -z "${output[$name]+set}" ]]; then
    if ! output[$name]=$(timeout 20 "$bin/$name" 2>&1); then
      echo "FAIL $name exited non-zero:" >&2
      echo "${output[$name]}" >&2
      status=1
      continue
    fi
  fi
  if [[ "${output[$name]}" == *"$expected"* ]]; then
    echo "ok   $name: $expected"
  else
    echo "FAIL $name does not print: $expected" >&2
    echo "${output[$name]}" >&2
    status=1
  fi
done
exit $status
