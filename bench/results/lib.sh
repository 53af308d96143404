# shellcheck shell=bash
# Functions the device-call scripts under bench/results/ share (source it:
# `. bench/results/lib.sh`), so that each script says only what its call
# measures. Session 38 and earlier scripts repeat these lines themselves.

# The card, the driver and the time, at the top of a call's output.
# Sets t0, from which the functions below print elapsed seconds.
call_header() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  date -u
  t0=$(date +%s)
}

# elapsed: seconds since call_header.
elapsed() { echo "$(( $(date +%s) - t0 ))s"; }

# Builds tilec-run-case (no MLIR needed) into build-gpu/ unless it is there.
build_run_case() {
  [ -x build-gpu/bin/tilec-run-case ] || {
    cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
      cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
  }
}

# Builds tilec-run-case and tilec-bench (the backward's timings) into
# build-gpu/.
build_tools() {
  build_run_case
  cmake --build build-gpu --target tilec-bench > /dev/null 2>&1
}

# run_cases DIR OUTDIR: the cases in DIR on all programs and on 3 (a
# persistent kernel's many tiles each), each launched twice; outputs in
# OUTDIR/cases-NAME.txt and cases3-NAME.txt, the counts and failures printed.
run_cases() {
  local dir=$1 out=$2 name
  name=$(basename "$dir")
  timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in="$dir" > "$out/cases-$name.txt" 2>&1
  echo "cases $name rc $?"
  TILEC_PERSISTENT_PROGRAMS=3 timeout 90 build-gpu/bin/tilec-run-case --repeatable \
    --cases-in="$dir" > "$out/cases3-$name.txt" 2>&1
  echo "cases $name on 3 programs rc $?"
  grep -h "cases:" "$out/cases-$name.txt" "$out/cases3-$name.txt"
  grep -hE "FAIL|rror" "$out/cases-$name.txt" "$out/cases3-$name.txt" | head -20
}

# sanitize TOOL CASEDIR OUTDIR: compute-sanitizer's TOOL (memcheck,
# racecheck, synccheck) on the cases in CASEDIR, its summary printed.
sanitize() {
  local tool=$1 dir=$2 out=$3
  timeout 60 compute-sanitizer --tool "$tool" --print-limit 5 build-gpu/bin/tilec-run-case \
    --cases-in="$dir" > "$out/$tool.txt" 2>&1
  echo "$tool rc $?"
  grep -E "SUMMARY" "$out/$tool.txt" | head -3
}

# compare_fwd NAME SECONDS DIMS DIRS: bench/compare.py on the dense and
# causal forwards of DIRS (NAME=DIR,...) at 1k, 4k and 16k, two alternating
# runs; raw outputs in $OUT/r/NAME, the table printed.
compare_fwd() {
  timeout "$2" python3 bench/compare.py --dirs "$4" --variants dense,causal --dims "$3" \
    --seqlens 1024,4096,16384 --reps 2 --out "$OUT/r/$1" > "$OUT/r/$1.txt" 2>&1
  echo "$1 rc $? $(elapsed)"
  cat "$OUT/r/$1.txt"
}

# compare_bwd NAME SECONDS DIRS: the same for the backward sets of DIRS
# (bench/compile-bwd.sh's), timed by build-gpu's tilec-bench.
compare_bwd() {
  timeout "$2" python3 bench/compare.py --pass bwd --dirs "$3" --seqlens 1024,4096,16384 \
    --reps 2 --out "$OUT/r/$1" > "$OUT/r/$1.txt" 2>&1
  echo "$1 rc $? $(elapsed)"
  cat "$OUT/r/$1.txt"
}

# peers PASS DIMS SECONDS NAME: ../shared/tools/peer_sdpa.py (carried as
# $PEER) at 1k, 4k and 16k, after bench/peer_warm.py's 1.5 s of warm-up
# (from session 47 on); json in $OUT/r/NAME.json, the table printed.
peers() {
  timeout "$3" python3 bench/peer_warm.py "$PEER" --pass "$1" --dims "$2" --seqlens 1024,4096,16384 \
    --json "$OUT/r/$4.json" > "$OUT/r/$4.txt" 2>&1
  echo "$4 rc $? $(elapsed)"
  grep -v "^#" "$OUT/r/$4.txt"
}
