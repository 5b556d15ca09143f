#!/usr/bin/env bash
# Runs each fuzz target named on the command line for a set time with the fuzzer FUZZER
# (built by `make fuzz`), from the target's working corpus in .build-fuzz/corpus/<target>,
# seeded with the inputs kept in Tests/Fixtures/fuzz/<target>. Prints one line per target:
# executions, executions per second, corpus size and findings. A finding's input is left in
# .build-fuzz/findings/; copy it into Tests/Fixtures/fuzz/<target>/ with the fix, so that
# `make test` replays it. Exits 1 when any target found something.
#
# FUZZ_RUNS, when set, also stops each target after that many executions.
#
# usage: run-fuzzers.sh FUZZER SECONDS TARGET…
set -uo pipefail
fuzzer=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/.build-fuzz
mkdir -p "$work/findings" "$work/logs"
found=0
printf '%-16s %14s %10s %8s %s\n' target executions "exec/s" corpus findings
for target in "$@"; do
    corpus=$work/corpus/$target
    seeds=$root/Tests/Fixtures/fuzz/$target
    mkdir -p "$corpus"
    log=$work/logs/$target.log
    STRATA_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$root/Fuzz/lsan-suppressions.txt \
        "$fuzzer" "$corpus" "$seeds" \
        -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -print_final_stats=1 -timeout=20 -rss_limit_mb=4096 \
        -artifact_prefix="$work/findings/$target-" > "$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    files=$(find "$corpus" -type f | wc -l)
    if [ "$status" -eq 0 ]; then
        result=none
    else
        found=1
        result="exit $status: $(grep -m1 -E 'ERROR|Fatal error|SUMMARY|deadly signal' "$log" | cut -c1-160) (log: $log)"
    fi
    printf '%-16s %14s %10s %8s %s\n' "$target" "${executions:-0}" "${rate:-0}" "$files" "$result"
done
exit $found
