#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer target of tests/fuzz in turn for SECONDS each (default 120), one job at a
# time, and prints each one's executions, speed and findings.
#
#   tests/fuzz/run_all.sh [seconds] [build dir, default build/fuzz]
#
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>, read only) and writes
# new inputs into a scratch corpus ($FUZZ_WORK, default a fresh folder under ${TMPDIR:-/tmp}),
# never into the repository. Crash, timeout and leak inputs go to $FUZZ_WORK/<target>/artifacts;
# the log of each run is $FUZZ_WORK/<target>/log. FUZZ_TARGETS="libsvm csv" runs just those. The
# exit status is 1 when any target found something.
set -u

seconds=${1:-120}
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=${2:-$source_dir/build/fuzz}
work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/cplab-fuzz.XXXXXX")}
targets=${FUZZ_TARGETS:-"libsvm csv gzip linear_model kernel_model precomputed linear_solvers sequences uai chain_model png netpbm npy array_files typed_function snapshot session trace"}

echo "fuzzing each target for ${seconds}s; scratch corpus and findings under $work"
status=0
for target in $targets; do
    binary=$build/tests/fuzz/fuzz_$target
    if [ ! -x "$binary" ]; then
        echo "fuzz_$target: not built ($binary); build with tests/fuzz/README.md"
        status=1
        continue
    fi
    dir=$work/$target
    mkdir -p "$dir/corpus" "$dir/artifacts"
    # -timeout: an input that runs longer is a hang; -rss_limit_mb: so is a blow-up of memory.
    # The solvers get 30 s: their QP loops run about 60x slower under the instrumentation than
    # in a release build (findings/README.md).
    timeout=10
    [ "$target" = linear_solvers ] && timeout=30
    # libhdf5 asks malloc for impossible sizes on some corrupt files and reports the failure
    # (release builds refuse such a file in milliseconds): for fuzz_array_files a single
    # allocation is no finding, memory actually used (-rss_limit_mb) still is.
    extra=""
    [ "$target" = array_files ] && extra="-malloc_limit_mb=1000000"
    "$binary" "$dir/corpus" "$here/corpus/$target" \
        -dict="$here/text_formats.dict" -max_len=4096 -timeout=$timeout -rss_limit_mb=2048 \
        -max_total_time="$seconds" -print_final_stats=1 $extra \
        -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1
    code=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
    # After a crash libFuzzer may print no final stats: take its last status line instead.
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$dir/log" | tail -n 1 | tr -d '#')
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -n 1)
    coverage=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -n 1)
    findings=$(find "$dir/artifacts" -type f | wc -l)
    echo "fuzz_$target: ${runs:-?} executions, ${speed:-?}/s, ${coverage:-cov: ?}," \
         "corpus $(find "$dir/corpus" -type f | wc -l) files, $findings finding(s), exit $code"
    if [ "$findings" -gt 0 ] || [ "$code" -ne 0 ]; then
        status=1
        find "$dir/artifacts" -type f | sed 's/^/    /'
        grep -m 1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|FUZZ FINDING' \
            "$dir/log" | sed 's/^/    /'
    fi
done
exit $status
