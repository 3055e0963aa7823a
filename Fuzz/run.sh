#!/usr/bin/env bash
# Fuzz/run.sh SECONDS [TARGET...] — builds every libFuzzer target with AddressSanitizer and runs
# each for SECONDS on a scratch copy of its checked-in seed corpus. A crash or failed invariant
# leaves its input in Fuzz/artifacts/ and makes the script exit 1. Prints one summary line a
# target: executions, corpus size, crashes.
# FUZZ_RUNS=N (CI's smoke): exactly N executions a target from seed 1 instead of a time budget,
# so the same code always explores the same inputs and CI cannot fail by luck.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
all=(FuzzConfiguration FuzzPins FuzzKillSwitch FuzzCertificates FuzzHostPatterns FuzzSanitizer FuzzReportStore FuzzAuditLog FuzzSPKI)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
configuration=${FUZZ_CONFIGURATION:-release}
export SWIFT_BACKTRACE=enable=no  # the runtime backtracer fights ASan for the crash
export LSAN_OPTIONS="suppressions=$PWD/../.ci/lsan.supp"  # leaks inside the toolchain's Foundation only
flags=(-c "$configuration" --scratch-path .build -Xswiftc -sanitize=fuzzer,address -Xswiftc -g -Xswiftc -use-ld=lld)
swift build "${flags[@]}" >&2
bin=$(swift build "${flags[@]}" --show-bin-path)
mkdir -p artifacts work
failed=0
for target in "${targets[@]}"; do
  rm -rf "work/$target" && mkdir -p "work/$target"
  log="work/$target.log"
  if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS" -seed=1); else budget=(-max_total_time="$seconds"); fi
  if ! "$bin/$target" "${budget[@]}" -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
      -artifact_prefix="artifacts/$target-" "work/$target" "Corpus/$target" >"$log" 2>&1; then
    failed=1
    echo "FUZZ $target: CRASH — see $log and artifacts/" >&2
    tail -30 "$log" >&2
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  corpus=$(ls "work/$target" | wc -l)
  echo "FUZZ $target: $runs executions, $corpus new corpus entries"
done
exit $failed
