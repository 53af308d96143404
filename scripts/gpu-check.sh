#!/usr/bin/env bash
# Runs on the GPU machine (no LLVM there): builds the GPU-side parts without
# MLIR, runs every case in gpu-cases/ on the GPU against its reference, and
# runs compute-sanitizer memcheck on the small cases. Logs go to $OUT (or out/).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out}
mkdir -p "$out"
cd "$root"
{
  echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build-gpu
} >"$out/gpu-build.log" 2>&1 || { cat "$out/gpu-build.log"; exit 1; }

runner=build-gpu/bin/tilec-run-case
"$runner" --cases-in=gpu-cases 2>&1 | tee "$out/gpu-cases.log"
status=${PIPESTATUS[0]}

# The tilegpu GEMM tile (TMA + wgmma from the tilegpu dialect; its PTX and
# shared-memory size are written into gpu-cases/tilegpu/ on the CPU machine).
# Log: $out/tilegpu-gemm-tile.log; a failure fails this script.
tilegpu=build-gpu/bin/tilegpu-gemm-tile
tilegpu_ptx=gpu-cases/tilegpu/gemm_tile.ptx tilegpu_smem=gpu-cases/tilegpu/gemm_tile.smem
if [ ! -f "$tilegpu_ptx" ]; then
  echo "SKIP tilegpu gemm tile: no $tilegpu_ptx" | tee "$out/tilegpu-gemm-tile.log"
elif [ ! -x "$tilegpu" ]; then
  echo "FAIL tilegpu gemm tile: $tilegpu was not built (cuda.h not found?)" | tee "$out/tilegpu-gemm-tile.log"
  status=1
else
  "$tilegpu" --dump "$tilegpu_ptx" "@$tilegpu_smem" >"$out/tilegpu-gemm-tile.log" 2>&1
  tilegpu_status=$?
  echo "exit $tilegpu_status" >>"$out/tilegpu-gemm-tile.log"
  grep -E "^tilegpu|^SKIP|^  \(|tilegpu-gemm-tile:" "$out/tilegpu-gemm-tile.log"
  if [ "$tilegpu_status" -ne 0 ] && [ "$tilegpu_status" -ne 77 ]; then
    cat "$out/tilegpu-gemm-tile.log"
    status=1
  fi
fi

# The same for attention's two dots on a tile (S = A*B^T, P = bf16(S), P*B).
pv_ptx=gpu-cases/tilegpu/pv_tile.ptx pv_smem=gpu-cases/tilegpu/pv_tile.smem
if [ -f "$pv_ptx" ] && [ -x "$tilegpu" ]; then
  "$tilegpu" --pv --dump "$pv_ptx" "@$pv_smem" >"$out/tilegpu-pv-tile.log" 2>&1
  pv_status=$?
  echo "exit $pv_status" >>"$out/tilegpu-pv-tile.log"
  grep -E "^tilegpu|^SKIP" "$out/tilegpu-pv-tile.log"
  if [ "$pv_status" -ne 0 ] && [ "$pv_status" -ne 77 ]; then
    cat "$out/tilegpu-pv-tile.log"
    status=1
  fi
fi

sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
: >"$out/memcheck.log"
for c in vector_add_3000 matmul_ragged row_softmax fwd_ragged fwd_causal_empty_rows fwd_sliding_window_ragged fwd_alibi_square fwd_d128_f16 stages3_causal general_fwd_ragged aligned_matmul_ragged_k one_key_block a_in_shared_causal_d64_w4 \
  sm90a_fwd_ragged sm90a_fwd_causal_empty_rows sm90a_fwd_d128_f16 sm90a_aligned_causal_d128 sm90a_stages3_fwd_d128 sm90a_aligned_matmul_ragged_k sm90a_one_key_block; do
  [ -d "gpu-cases/$c" ] || continue
  echo "== memcheck $c" >>"$out/memcheck.log"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$runner" "gpu-cases/$c" >>"$out/memcheck.log" 2>&1
  echo "exit $?" >>"$out/memcheck.log"
done
if [ -f "$tilegpu_ptx" ] && [ -x "$tilegpu" ]; then
  echo "== memcheck tilegpu gemm_tile" >>"$out/memcheck.log"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$tilegpu" "$tilegpu_ptx" "@$tilegpu_smem" >>"$out/memcheck.log" 2>&1
  echo "exit $?" >>"$out/memcheck.log"
fi
if [ -f "$pv_ptx" ] && [ -x "$tilegpu" ]; then
  echo "== memcheck tilegpu pv_tile" >>"$out/memcheck.log"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$tilegpu" --pv "$pv_ptx" "@$pv_smem" >>"$out/memcheck.log" 2>&1
  echo "exit $?" >>"$out/memcheck.log"
fi
grep -E "^== |ERROR SUMMARY|^exit" "$out/memcheck.log"
exit "$status"
