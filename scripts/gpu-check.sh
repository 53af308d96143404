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
status=0
# gpu-cases/ (the default lowering), and gpu-cases-tilegpu/ (the same cases
# through --lowering=tilegpu) where it was carried along; either may be
# absent (64 MiB per device call: one set per call).
# gpu-cases-bwd/ (the attention backward), gpu-cases-inputs/ and
# gpu-cases-headdims/ must also repeat bitwise.
for cases in gpu-cases gpu-cases-tilegpu gpu-cases-tma gpu-cases-ws gpu-cases-defaults gpu-cases-bwd gpu-cases-infer gpu-cases-inputs gpu-cases-persistent gpu-cases-headdims gpu-cases-counter; do
  [ -d "$cases" ] || continue
  repeat=$([ "$cases" = gpu-cases-bwd ] || [ "$cases" = gpu-cases-inputs ] || [ "$cases" = gpu-cases-headdims ] || [ "$cases" = gpu-cases-counter ] && echo --repeatable || true)
  "$runner" $repeat --cases-in="$cases" 2>&1 | tee "$out/$cases.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
# Persistent kernels again on 2 programs, each looping over many tiles
# (claiming many, with a tile counter: launched twice, the counter reset).
if [ -d gpu-cases-persistent ]; then
  TILEC_PERSISTENT_PROGRAMS=2 "$runner" --cases-in=gpu-cases-persistent 2>&1 | tee "$out/gpu-cases-persistent-2.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
if [ -d gpu-cases-counter ]; then
  TILEC_PERSISTENT_PROGRAMS=2 "$runner" --repeatable --cases-in=gpu-cases-counter 2>&1 | tee "$out/gpu-cases-counter-2.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# The kernels written in tilegpu ops (their PTX and shared-memory size are
# written into gpu-cases/tilegpu/ on the CPU machine), each checked by
# tilegpu-gemm-tile against its double-precision reference: gemm (C = A*B^T)
# and pv (attention's two dots, --pv). Logs: $out/tilegpu-NAME-tile.log; a
# failure fails this script.
tilegpu=build-gpu/bin/tilegpu-gemm-tile
tilegpu_tiles="gemm: pv:--pv"
run_tile() { # name [flags]
  local name=$1 flags=$2 ptx=gpu-cases/tilegpu/$1_tile.ptx log=$out/tilegpu-$1-tile.log
  if [ ! -f "$ptx" ]; then
    echo "SKIP tilegpu $name tile: no $ptx" | tee "$log"
    return
  fi
  if [ ! -x "$tilegpu" ]; then
    echo "FAIL tilegpu $name tile: $tilegpu was not built (cuda.h not found?)" | tee "$log"
    status=1
    return
  fi
  "$tilegpu" $flags --dump "$ptx" "@gpu-cases/tilegpu/${name}_tile.smem" >"$log" 2>&1
  local tile_status=$?
  echo "exit $tile_status" >>"$log"
  grep -E "^tilegpu|^SKIP|^  \(" "$log"
  if [ "$tile_status" -ne 0 ] && [ "$tile_status" -ne 77 ]; then
    cat "$log"
    status=1
  fi
}
for t in $tilegpu_tiles; do
  run_tile "${t%%:*}" "${t#*:}"
done

sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# Persistent kernels run on 2 programs under the sanitizers: each loops
# over several tiles, so hazards across a program's tiles show.
export TILEC_PERSISTENT_PROGRAMS=2
: >"$out/memcheck.log"
for c in vector_add_3000 matmul_ragged row_softmax fwd_ragged fwd_causal_empty_rows fwd_sliding_window_ragged fwd_alibi_square fwd_d128_f16 stages3_causal general_fwd_ragged aligned_matmul_ragged_k one_key_block a_in_shared_causal_d64_w4 \
  sm90a_fwd_ragged sm90a_fwd_causal_empty_rows sm90a_fwd_d128_f16 sm90a_aligned_causal_d128 sm90a_stages3_fwd_d128 sm90a_aligned_matmul_ragged_k sm90a_one_key_block \
  tg_matmul_ragged tg_aligned_matmul_ragged_k sm90a_tg_matmul_ragged sm90a_tg_aligned_matmul_ragged_k sm90a_tg_aligned_matmul_stages3 \
  sm90a_d256_fwd_causal_ragged sm90a_d256_fwd_alibi_ragged sm90a_d256_causal_f16_bh sm90a_d64_fwd_gqa_ragged sm90a_d64_fwd_softcap_ragged \
  bwd_prep bwd_dkdv_causal_empty_rows bwd_dq_sliding_window_d128_f16 bwd_dkdv_gqa3 bwd_fused_causal_empty_rows bwd_dq_convert \
  sm90a_bwd_fused_gqa3 sm90a_bwd_fused_softcap_d128_f16 sm90a_bwd_fused_d128_ragged sm90a_bwd_fused_causal_d64_multi \
  sm90a_bwd_dkdv_causal_d128_ragged sm90a_bwd_dkdv_d128_ragged sm90a_bwd_dkdv_causal_d128_tiny sm90a_bwd_dkdv_gqa3_d128_ragged sm90a_bwd_prep_d128 sm90a_bwd_dq_alibi_ragged sm90a_bwd_dkdv_softcap_d128_f16 sm90a_bwd_dkdv_causal_tiny sm90a_bwd_dq_gqa3 \
  decode_causal_g5_q5 decode_combine sm90a_decode_g4 sm90a_decode_sliding_window_g5_q5 sm90a_decode_alibi_d128_f16 sm90a_decode_causal_g1_q16 sm90a_decode_combine_d128_f16 \
  sm90a_decode_paged_p16 sm90a_decode_paged_causal_p64_q3 decode_paged_alibi_p16 \
  varlen_causal_ragged sm90a_varlen_ragged sm90a_varlen_causal_d128_f16 sm90a_varlen_causal_d256 sm90a_varlen_gqa3_d128 sm90a_varlen_sliding_window_ragged sm90a_varlen_causal_one \
  fwd_document0_ragged sm90a_fwd_document1_cross sm90a_bwd_dq_bias_table_ragged sm90a_bwd_dkdv_document1_d128_f16 bwd_dkdv_bias_table_d128_f16 \
  d128_fwd_causal_ragged sm90a_d128_fwd_ragged sm90a_d64_fwd_causal_ragged sm90a_d256_fwd_causal_ragged \
  varlen_bwd_prep sm90a_varlen_bwd_prep_d128 varlen_bwd_dkdv_causal_ragged sm90a_varlen_bwd_dkdv_softcap_d128_f16 sm90a_varlen_bwd_dq_sliding_window_ragged sm90a_varlen_bwd_dkdv_gqa3_d128 sm90a_varlen_bwd_dq_alibi_d128_f16 \
  sm90a_d96_bf16_split_fwd_causal sm90a_d80_f16_split_fwd_gqa3 sm90a_d40_f16_fwd_causal d72_bf16_bwd_dkdv_causal sm90a_d192_128_bf16_split_fwd_causal \
  sm90a_d192_128_bf16_bwd_dq_causal sm90a_d200_bf16_split_decode_paged sm90a_d112_f16_split_varlen sm90a_d8_bf16_decode sm90a_d16_split_fwd sm90a_d32_split_fwd; do
  for cases in gpu-cases gpu-cases-tilegpu gpu-cases-tma gpu-cases-ws gpu-cases-defaults gpu-cases-bwd gpu-cases-infer gpu-cases-inputs gpu-cases-persistent gpu-cases-headdims; do
    [ -d "$cases/$c" ] || continue
    echo "== memcheck $cases/$c" >>"$out/memcheck.log"
    "$sanitizer" --tool memcheck --error-exitcode 3 "$runner" "$cases/$c" >>"$out/memcheck.log" 2>&1
    echo "exit $?" >>"$out/memcheck.log"
  done
done
for t in $tilegpu_tiles; do
  name=${t%%:*} flags=${t#*:} ptx=gpu-cases/tilegpu/${t%%:*}_tile.ptx
  [ -f "$ptx" ] && [ -x "$tilegpu" ] || continue
  echo "== memcheck tilegpu ${name}_tile" >>"$out/memcheck.log"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$tilegpu" $flags "$ptx" \
    "@gpu-cases/tilegpu/${name}_tile.smem" >>"$out/memcheck.log" 2>&1
  echo "exit $?" >>"$out/memcheck.log"
done
# Shared-memory races and barrier misuse (racecheck, synccheck) on the
# streamed attention kernels of the op-by-op path, cp.async and TMA rings.
for c in sm90a_fwd_ragged sm90a_fwd_causal_empty_rows sm90a_stages3_fwd_d128 sm90a_aligned_causal_d128 sm90a_fwd_sliding_window_ragged \
  sm90a_w8_causal_d64 sm90a_ws_w8_causal_d64 sm90a_ws_w8_tiny_causal \
  sm90a_pp_w8_causal_d64 sm90a_pp_w8_tiny_causal sm90a_pp_w8_window_d64 sm90a_ws_w8_d256_fwd sm90a_pp_w8_d256_causal \
  sm90a_d256_fwd_sliding_window_ragged sm90a_d256_gqa3_empty_rows sm90a_d256_tiny sm90a_d64_fwd_causal_ragged sm90a_d64_causal_tiny \
  sm90a_ov_d64_causal sm90a_ov_d64_tiny sm90a_ov_pp_n128_causal_d128 sm90a_ov_d256_n32_causal \
  bwd_dkdv_causal_ragged sm90a_bwd_dkdv_sliding_window_ragged sm90a_bwd_dkdv_d128_ragged sm90a_bwd_dkdv_gqa3_d128_ragged sm90a_bwd_dkdv_sliding_window_d128_ragged sm90a_bwd_dkdv_causal_d64_multi sm90a_bwd_dkdv_gqa3_d64_multi sm90a_bwd_dkdv_causal_d128_empty_rows sm90a_bwd_dq_causal_d128_f16 sm90a_bwd_fused_causal_ragged \
  sm90a_bwd_fused_d128_ragged sm90a_bwd_fused_gqa_d128_ragged sm90a_bwd_fused_prefix_lm_d64_multi \
  sm90a_decode_g4 sm90a_decode_causal_g5_q5 sm90a_decode_combine sm90a_decode_paged_causal_p64_q3 \
  sm90a_varlen_causal_ragged sm90a_varlen_causal_d128_f16 sm90a_varlen_d256 sm90a_varlen_alibi_d128_f16 \
  sm90a_varlen_bwd_dkdv_causal_ragged sm90a_varlen_bwd_dq_causal_d128_f16 \
  sm90a_fwd_document0_d128_f16 sm90a_fwd_document1_ragged sm90a_fwd_bias_table_d128_f16 \
  sm90a_d128_fwd_causal_ragged sm90a_d128_fwd_alibi_ragged sm90a_d256_fwd_ragged sm90a_d128_tiny \
  sm90a_d96_bf16_split_fwd_causal sm90a_d80_f16_split_fwd_causal sm90a_d32_split_fwd sm90a_d192_128_bf16_split_fwd_causal sm90a_d160_bf16_bwd_dkdv_causal; do
  for cases in gpu-cases-tilegpu gpu-cases-tma gpu-cases-ws gpu-cases-defaults gpu-cases-bwd gpu-cases-infer gpu-cases-inputs gpu-cases-persistent gpu-cases-headdims; do
    [ -d "$cases/$c" ] || continue
    for tool in racecheck synccheck; do
      echo "== $tool $cases/$c" >>"$out/memcheck.log"
      "$sanitizer" --tool "$tool" --error-exitcode 3 "$runner" "$cases/$c" >>"$out/memcheck.log" 2>&1
      echo "exit $?" >>"$out/memcheck.log"
    done
  done
done
# The runtime refuses a launch whose buffer is one element short (its
# bounds check against the allocation, cuMemGetAddressRange), memcheck clean.
for c in gpu-cases-infer/sm90a_decode_g4:k gpu-cases-infer/decode_combine:o gpu-cases/fwd_ragged:o; do
  dir=${c%%:*} buffer=${c#*:}
  [ -d "$dir" ] || continue
  echo "== memcheck --short-by-one=$buffer $dir" >>"$out/memcheck.log"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$runner" --short-by-one="$buffer" "$dir" >>"$out/memcheck.log" 2>&1
  rc=$?
  echo "exit $rc" >>"$out/memcheck.log"
  [ "$rc" -eq 0 ] || status=1
done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit|^PASS .*refused" "$out/memcheck.log"
echo "== summary ($out/summary.txt)"
bash "$root/scripts/gpu-summary.sh" "$out" | tee "$out/summary.txt"
exit "$status"
