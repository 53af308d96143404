#!/usr/bin/env bash
# Writes the GPU test cases into gpu-cases/ (or $1): every example and
# attention variant compiled to PTX for sm_80, and the dot kernels again for
# sm_90a (prefix sm90a_: wgmma), with random inputs and the double-precision
# reference's outputs, at ragged sizes; and tilegpu/, a kernel written in
# tilegpu ops (PTX + shared bytes) for tilegpu-gemm-tile.
# tilec-run-case runs them on a GPU (ctest label gpu, scripts/gpu-check.sh).
#
# LOWERING=tilegpu writes the same cases compiled by the op-by-op path
# (--lowering=tilegpu) into gpu-cases-tilegpu/ by default, without the
# kernels written in tilegpu ops. TMA=1 (with LOWERING=tilegpu) writes the
# sm_90a cases compiled with --tma (K/V rings filled by TMA onto mbarriers)
# into gpu-cases-tma/; WS=1 with TMA=1 adds --warp-specialize (a producer
# warpgroup issues the copies), into gpu-cases-ws/.
#
# DEFAULTS=1 writes only sm_90a cases of every attention variant at d = 64,
# 192, (192, 128) and 256 with the default schedules (d = 64: TMA rings on
# two warpgroups; d = 192 and 256: warp-specialized with ping-pong; the
# heavy variants on their cp.async schedules), and of d = 80 and 96 (64 + 16
# and 64 + 32 column tiles), and the long sequences' schedule (seq_schedule=
# long: 256-row tiles at d = 64), into gpu-cases-defaults/.
#
# INFER=1 writes the inference kernels of every variant for sm_80 and
# sm_90a (prefix sm90a_) with their default schedules into
# gpu-cases-infer/: decoding (split KV, packed GQA; contiguous and from a
# paged cache with shuffled pages) and its combine, with
# one query token and several (speculative decoding, causal), GQA groups 1,
# 4, 5 and 8, more splits than key blocks, one split, ragged seq_k, d = 128
# f16; and packed batches of ragged lengths (varlen: empty sequences,
# queries without keys, N_q != N_k) at d = 64, 128 and 256.
#
# INPUTS=1 writes the variants that read runtime tensors (document masking
# from per-position ids, sorted and shuffled; a relative-position bias
# table), forward and backward, for sm_80 and sm_90a (prefix sm90a_) with
# their default schedules into gpu-cases-inputs/: ragged sizes, B and H > 1,
# seq_q != seq_k, d = 64 and 128 (the forward over several listed blocks),
# bf16 and f16.
#
# HEADDIMS=1 writes every kind of attention kernel (forward causal and GQA 3,
# dK/dV and dQ causal, packed batches, decoding) at head dims that are not
# powers of two and with V/O head dims of their own (head_dim_v), for sm_80
# and sm_90a (prefix sm90a_) with their default schedules, into
# gpu-cases-headdims/: d = 8 ... 256 and (192, 128), (128, 64), padded and
# (the forward kernels) split into power-of-two column tiles; ragged N,
# N_q != N_k both ways, bf16 and f16, B and H > 1. ARCHS (default "sm_80
# sm_90a") picks the targets.
#
# BWD=1 writes the backward kernels (delta, dK/dV, dQ; the fused kernel that
# adds dQ atomically and its dQ convert) of every variant for
# sm_80 and sm_90a (prefix sm90a_) with their default schedules into
# gpu-cases-bwd/: ragged sizes, rows a causal mask leaves empty, d = 128
# f16 with B, H > 1, GQA 3; the masked dK/dV and fused kernels with
# query_ranges=bisect; and the packed (varlen) backward's kernels on
# ragged batches.
#
# COUNTER=1 writes the persistent warp-specialized forward kernels (sm_90a)
# with --tile-counter (tiles claimed from a counter, tilegpu-claim-tiles)
# into gpu-cases-counter/: d = 96, 128 and 256, dense, causal and GQA,
# ragged N, N_q != N_k, rows a causal mask leaves empty, tiny, B and H > 1,
# bf16 and f16, GQA 2 and 3. gpu-check.sh runs them on the programs
# that fit and on 2 (many claims each), each launched twice (--repeatable:
# the last claim resets the counter for the next launch). NO_COUNTER=1: the
# same persistent cases without the counter. TILE_SLOTS=2: with
# --tile-slots=2 (Q on two slots), d = 80, 96 and 128 (d = 256 does not fit).
#
# FLAGS adds driver flags to every case (FLAGS=--wait-before-next-dot: a
# schedule option's cases from the same set); FUSED_FLAGS to the fused
# backward's cases only (FUSED_FLAGS="--set dq_order=dot_before_dk").
#
# COMPILE_ONLY=1 (with any of the above) compiles each case's kernel to PTX
# instead of exporting it with data: a CPU check (ctest gpu-cases-compile)
# that every case still builds (one stopped the set unnoticed in session 26).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
lowering=${LOWERING:-tile-to-llvm}
tma=${TMA:-0}
ws=${WS:-0}
if [ "$tma" = 1 ] && [ "$lowering" != tilegpu ]; then
  echo "gpu-cases: TMA=1 needs LOWERING=tilegpu" >&2
  exit 2
fi
if [ "$ws" = 1 ] && [ "$tma" != 1 ]; then
  echo "gpu-cases: WS=1 needs TMA=1" >&2
  exit 2
fi
if [ "$ws" = 1 ]; then
  out=${1:-$root/gpu-cases-ws}
elif [ "$tma" = 1 ]; then
  out=${1:-$root/gpu-cases-tma}
elif [ "$lowering" = tilegpu ]; then
  out=${1:-$root/gpu-cases-tilegpu}
else
  out=${1:-$root/gpu-cases}
fi
if [ "${DEFAULTS:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-defaults}
fi
if [ "${BWD:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-bwd}
fi
if [ "${INFER:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-infer}
fi
if [ "${INPUTS:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-inputs}
fi
if [ "${PERSISTENT:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-persistent}
fi
if [ "${HEADDIMS:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-headdims}
fi
if [ "${COUNTER:-0}" = 1 ]; then
  out=${1:-$root/gpu-cases-counter}
fi
rm -rf "$out"
mkdir -p "$out"

arch=sm_80 prefix=
case_() { # name kernel [flags...]
  local name=$1 kernel=$2
  shift 2
  # shellcheck disable=SC2086 # FLAGS holds several words
  set -- "$@" ${FLAGS:-}
  # shellcheck disable=SC2086 # as FLAGS
  case $kernel in *_bwd_fused*) set -- "$@" ${FUSED_FLAGS:-} ;; esac
  # Prefix-LM's default prompt (1024 keys) covers every key of these
  # cases' sequences, which would make its mask dense: 100 keys unless the
  # case names its own.
  case "$kernel $*" in *_prefix_lm*prefix=*) ;; *_prefix_lm*) set -- "$@" --set prefix=100 ;; esac
  if [ "$lowering" = tilegpu ]; then
    set -- "$@" --lowering=tilegpu
  fi
  if [ "$tma" = 1 ]; then
    [ "$arch" = sm_90a ] || return 0
    # --tma needs wgmma and aligned tensors (attention's default; matmul's
    # only with --assume-aligned): the other cases stay on cp.async.
    case " $kernel $* " in
      *--wgmma=false*|*--assume-aligned=false*|*_bwd_prep*) ;; # prep: no dots
      *" matmul "*--assume-aligned*|*flash_attention*) set -- "$@" --tma ;;
    esac
  fi
  if [ "$ws" = 1 ]; then
    case " $* " in *" --tma "*) set -- "$@" --warp-specialize ;; esac
  fi
  if [ "${COMPILE_ONLY:-0}" = 1 ]; then
    "$tilec" --kernel="$kernel" --arch="$arch" --emit=ptx -o "$out/$prefix$name.ptx" "$@" \
      >/dev/null 2>"$out/$prefix$name.log" ||
      { echo "gpu-cases: $prefix$name does not compile:" >&2; cat "$out/$prefix$name.log" >&2; exit 1; }
    return 0
  fi
  "$tilec" --kernel="$kernel" --arch="$arch" --export-case="$out/$prefix$name" "$@" >/dev/null
}

if [ "${PERSISTENT:-0}" = 1 ]; then
  # --persistent: every variant's forward with its default schedule (the
  # warp-specialized ping-pong kernels at d = 128 and 256) as a loop over
  # the logical programs; gpu-check.sh also runs them on 2 programs
  # (TILEC_PERSISTENT_PROGRAMS=2), so each loops over many tiles.
  for arch in sm_90a sm_80; do
    prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
    for v in fwd fwd_causal fwd_sliding_window fwd_gqa fwd_alibi fwd_softcap; do
      case_ d128_${v}_ragged flash_attention_$v --persistent --set head_dim=128 --size heads=2 --size seq_q=300 --size seq_k=201
      case_ d64_${v}_ragged flash_attention_$v --persistent --size batch=2 --size seq_q=300 --size seq_k=333
    done
    case_ d256_fwd_causal_ragged flash_attention_fwd_causal --persistent --set head_dim=256 --size seq_q=150 --size seq_k=201
    case_ d256_fwd_ragged flash_attention_fwd --persistent --set head_dim=256 --size heads=3 --size seq_q=260 --size seq_k=130
    case_ d128_causal_empty_rows flash_attention_fwd_causal --persistent --set head_dim=128 --set dtype=f16 --size heads=3 --size seq_q=300 --size seq_k=45
    case_ d128_tiny flash_attention_fwd --persistent --set head_dim=128 --size seq_q=5 --size seq_k=3
  done
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), persistent grids"
  exit 0
fi

if [ "${COUNTER:-0}" = 1 ]; then
  arch=sm_90a prefix=sm90a_
  counter=(--persistent)
  [ "${NO_COUNTER:-0}" = 1 ] || counter+=(--tile-counter)
  [ "${TILE_SLOTS:-1}" = 1 ] || counter+=(--tile-slots="$TILE_SLOTS")
  for v in fwd fwd_causal fwd_gqa; do
    case_ d128_${v}_ragged flash_attention_$v "${counter[@]}" --set head_dim=128 --size heads=4 --size seq_q=300 --size seq_k=201
    case_ d128_${v}_bh flash_attention_$v "${counter[@]}" --set head_dim=128 --size batch=2 --size heads=4 --size seq_q=600 --size seq_k=520
  done
  case_ d128_causal_empty_rows flash_attention_fwd_causal "${counter[@]}" --set head_dim=128 --set dtype=f16 --size heads=3 --size seq_q=300 --size seq_k=45
  case_ d128_tiny flash_attention_fwd "${counter[@]}" --set head_dim=128 --size seq_q=5 --size seq_k=3
  if [ "${TILE_SLOTS:-1}" = 2 ]; then
    # d = 256 does not fit shared memory with Q on two slots.
    case_ d80_fwd_ragged flash_attention_fwd "${counter[@]}" --set head_dim=80 --set dtype=f16 --size heads=3 --size seq_q=300 --size seq_k=201
  else
    case_ d256_fwd_causal_ragged flash_attention_fwd_causal "${counter[@]}" --set head_dim=256 --size seq_q=150 --size seq_k=201
    case_ d256_fwd_ragged flash_attention_fwd "${counter[@]}" --set head_dim=256 --size heads=3 --size seq_q=260 --size seq_k=130
  fi
  case_ d96_fwd_ragged flash_attention_fwd "${counter[@]}" --set head_dim=96 --size heads=3 --size seq_q=390 --size seq_k=333
  case_ d96_fwd_causal_ragged flash_attention_fwd_causal "${counter[@]}" --set head_dim=96 --size heads=2 --size seq_q=333 --size seq_k=390
  case_ d96_fwd_gqa3 flash_attention_fwd_gqa "${counter[@]}" --set head_dim=96 --set group=3 --set dtype=f16 --size batch=2 --size heads=6 --size seq_q=333 --size seq_k=390
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), tile counters"
  exit 0
fi

if [ "${HEADDIMS:-0}" = 1 ]; then
  i=0
  for dims in 8 40 72 80 96 112 160 192 200 256 192/128 128/64; do
    set_=(--set head_dim=${dims%/*})
    [ "$dims" != "${dims#*/}" ] && set_+=(--set head_dim_v=${dims#*/})
    dtype=$([ $((i % 2)) = 1 ] && echo f16 || echo bf16)
    set_+=(--set dtype=$dtype)
    name=d${dims/\//_}_$dtype
    i=$((i + 1))
    for arch in ${ARCHS:-sm_80 sm_90a}; do
      prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
      case_ ${name}_fwd_causal flash_attention_fwd_causal "${set_[@]}" --size seq_q=77 --size seq_k=100
      case_ ${name}_fwd_gqa3 flash_attention_fwd_gqa "${set_[@]}" --set group=3 --size batch=2 --size heads=3 --size seq_q=77 --size seq_k=45
      case_ ${name}_bwd_dkdv_causal flash_attention_bwd_dkdv_causal "${set_[@]}" --size seq_q=64 --size seq_k=77
      case_ ${name}_bwd_dq_causal flash_attention_bwd_dq_causal "${set_[@]}" --size seq_q=77 --size seq_k=64
      case_ ${name}_bwd_prep flash_attention_bwd_prep "${set_[@]}" --size seq_q=77
      case_ ${name}_varlen_causal flash_attention_varlen_causal "${set_[@]}" --size batch=3 --size seq_q=60 --size seq_k=70
      case_ ${name}_decode flash_attention_decode "${set_[@]}" --set group=4 --size seq_k=150 --size splits=3
      # The head dim as power-of-two column tiles (split_columns; on sm_90a
      # the 32- and 16-column ones as wgmma B operands of that swizzle).
      split=(--set split_columns=on)
      case_ ${name}_split_fwd_causal flash_attention_fwd_causal "${set_[@]}" "${split[@]}" --size seq_q=77 --size seq_k=130
      case_ ${name}_split_fwd_gqa3 flash_attention_fwd_gqa "${set_[@]}" "${split[@]}" --set group=3 --size batch=2 --size heads=3 --size seq_q=77 --size seq_k=45
      case_ ${name}_split_varlen flash_attention_varlen "${set_[@]}" "${split[@]}" --size batch=3 --size seq_q=70 --size seq_k=60
      case_ ${name}_split_decode_paged flash_attention_decode_paged "${set_[@]}" "${split[@]}" --set group=4 --size batch=3 --size seq_k=130 --size splits=2
      case $dims in
        40 | 80 | 96 | 192/128)
          case_ ${name}_split_bwd_dkdv_causal flash_attention_bwd_dkdv_causal "${set_[@]}" "${split[@]}" --size seq_q=64 --size seq_k=77
          case_ ${name}_split_bwd_dq flash_attention_bwd_dq "${set_[@]}" "${split[@]}" --size seq_q=77 --size seq_k=64 ;;
      esac
    done
  done
  # d = 16 and 32 on their own column tiles (sm_90a: wgmma B operands with
  # 32- and 64-byte rows), one dot each.
  for d in 16 32; do
    for arch in ${ARCHS:-sm_80 sm_90a}; do
      prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
      case_ d${d}_split_fwd flash_attention_fwd --set head_dim=$d --set split_columns=on --size batch=2 --size seq_q=300 --size seq_k=333
      case_ d${d}_fwd_causal flash_attention_fwd_causal --set head_dim=$d --size seq_q=150 --size seq_k=201
    done
  done
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), head dims"
  exit 0
fi

if [ "${DEFAULTS:-0}" = 1 ]; then
  arch=sm_90a
  for v in fwd fwd_causal fwd_sliding_window fwd_gqa fwd_alibi fwd_softcap; do
    case_ sm90a_d256_${v}_ragged flash_attention_$v --set head_dim=256 --size seq_q=150 --size seq_k=201
    case_ sm90a_d64_${v}_ragged flash_attention_$v --size batch=2 --size seq_q=300 --size seq_k=201
    # d = 192 and (192, 128): Q·Kᵀ over two column tiles chained, Q in
    # registers, 128-key blocks at (192, 128).
    case_ sm90a_d192_${v}_ragged flash_attention_$v --set head_dim=192 --size seq_q=150 --size seq_k=201
    case_ sm90a_d192v128_${v}_ragged flash_attention_$v --set head_dim=192 --set head_dim_v=128 --size batch=2 --size seq_q=300 --size seq_k=333
  done
  case_ sm90a_d192v128_causal_f16_empty_rows flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --set dtype=f16 --size heads=2 --size seq_q=300 --size seq_k=45
  case_ sm90a_d192v128_tiny flash_attention_fwd --set head_dim=192 --set head_dim_v=128 --size seq_q=5 --size seq_k=3
  case_ sm90a_d192_prefix_lm flash_attention_fwd_prefix_lm --set head_dim=192 --set prefix=100 --size seq_q=260 --size seq_k=300
  # d = 80 and 96: 64 + 16 and 64 + 32 column tiles (session 34).
  case_ sm90a_d96_fwd_ragged_bh flash_attention_fwd --set head_dim=96 --size batch=2 --size heads=3 --size seq_q=300 --size seq_k=333
  case_ sm90a_d80_fwd_ragged flash_attention_fwd --set head_dim=80 --size seq_q=260 --size seq_k=130
  case_ sm90a_d96_window flash_attention_fwd_sliding_window --set head_dim=96 --set window=100 --size seq_q=300 --size seq_k=260
  case_ sm90a_d96_alibi flash_attention_fwd_alibi --set head_dim=96 --size heads=2 --size seq_q=150 --size seq_k=201
  case_ sm90a_d96_prefix_lm flash_attention_fwd_prefix_lm --set head_dim=96 --set prefix=100 --size seq_q=260 --size seq_k=300
  case_ sm90a_d96_causal_f16_empty_rows flash_attention_fwd_causal --set head_dim=96 --set dtype=f16 --size heads=2 --size seq_q=300 --size seq_k=45
  case_ sm90a_d96_tiny flash_attention_fwd --set head_dim=96 --size seq_q=5 --size seq_k=3
  # Causal d = 80 and 96: persistent, tiles claimed from a counter, Q on
  # two slots (session 36).
  case_ sm90a_d96_causal_bh flash_attention_fwd_causal --set head_dim=96 --size batch=2 --size heads=3 --size seq_q=600 --size seq_k=520
  case_ sm90a_d80_causal_ragged flash_attention_fwd_causal --set head_dim=80 --size heads=3 --size seq_q=390 --size seq_k=333
  case_ sm90a_d80_causal_f16_empty_rows flash_attention_fwd_causal --set head_dim=80 --set dtype=f16 --size heads=2 --size seq_q=300 --size seq_k=45
  case_ sm90a_d96_causal_tiny flash_attention_fwd_causal --set head_dim=96 --size seq_q=5 --size seq_k=3
  case_ sm90a_d80_softcap flash_attention_fwd_softcap --set head_dim=80 --set cap=20 --size seq_q=150 --size seq_k=201
  case_ sm90a_d64_gqa3_f16 flash_attention_fwd_gqa --set group=3 --set dtype=f16 --size heads=6 --size seq_q=77 --size seq_k=130
  case_ sm90a_d64_causal_tiny flash_attention_fwd_causal --size seq_q=5 --size seq_k=3
  # --set overlap=on (ov_): each step issues Q·Kᵀ with the previous block's
  # P·V; on the d = 64 default, the warp-specialized ping-pong kernels and
  # d = 256 with 32-key blocks.
  local_ov="--set overlap=on"
  ws="--num-warps=8 --lowering=tilegpu --tma --warp-specialize --ping-pong --set row_groups=1"
  case_ sm90a_ov_d64_causal flash_attention_fwd_causal $local_ov --size batch=2 --size seq_q=300 --size seq_k=333
  case_ sm90a_ov_d64_window flash_attention_fwd_sliding_window $local_ov --size seq_q=300 --size seq_k=260
  case_ sm90a_ov_d64_tiny flash_attention_fwd_causal $local_ov --size seq_q=5 --size seq_k=3
  case_ sm90a_ov_pp_n128_fwd_d128 flash_attention_fwd $ws $local_ov --set head_dim=128 --set block_n=128 --size seq_q=150 --size seq_k=290
  case_ sm90a_ov_pp_n128_causal_d128 flash_attention_fwd_causal $ws $local_ov --set head_dim=128 --set block_n=128 --size seq_q=200 --size seq_k=333
  case_ sm90a_ov_pp_gqa3_d128 flash_attention_fwd_gqa $ws $local_ov --set head_dim=128 --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
  case_ sm90a_ov_pp_m256_causal_d64 flash_attention_fwd_causal --num-warps=8 --lowering=tilegpu --tma --warp-specialize --ping-pong --set row_groups=2 --set block_m=256 $local_ov --size seq_q=300 --size seq_k=333
  case_ sm90a_ov_d256_n32_fwd flash_attention_fwd --set head_dim=256 --set block_n=32 $local_ov --size seq_q=150 --size seq_k=200
  case_ sm90a_ov_d256_n32_causal flash_attention_fwd_causal --set head_dim=256 --set block_n=32 --set dtype=f16 $local_ov --size seq_q=200 --size seq_k=190
  case_ sm90a_ov_d256_n32_empty_rows flash_attention_fwd --set head_dim=256 --set block_n=32 $local_ov --size seq_q=130 --size seq_k=45
  # ... with the first key block's step peeled (peel_first; the default at
  # d <= 128 on wgmma) where it is not the default: d = 64 (its K block on
  # the one-role TMA ring), d = 256 and (192, 128), a window.
  peel="--set peel_first=on"
  case_ sm90a_ovpeel_d64_window flash_attention_fwd_sliding_window $local_ov $peel --size seq_q=300 --size seq_k=260
  case_ sm90a_ovpeel_d256_causal flash_attention_fwd_causal --set head_dim=256 --set dtype=f16 $peel --size seq_q=200 --size seq_k=190
  case_ sm90a_ovpeel_d192v128_empty_rows flash_attention_fwd --set head_dim=192 --set head_dim_v=128 $peel --size seq_q=130 --size seq_k=45
  # seq_schedule=long (the launcher's pick from N = 4k): 256-row tiles on
  # 16 warps at d = 64 dense; ragged, N < 256, f16 with B and H > 1.
  long="--set seq_schedule=long"
  case_ sm90a_long_d64_ragged flash_attention_fwd $long --size batch=2 --size seq_q=300 --size seq_k=333
  case_ sm90a_long_d64_f16_bh flash_attention_fwd $long --set dtype=f16 --size batch=2 --size heads=3 --size seq_q=700 --size seq_k=520
  case_ sm90a_long_d64_tiny flash_attention_fwd $long --size seq_q=5 --size seq_k=3
  case_ sm90a_long_d64_rows_past_keys flash_attention_fwd $long --size seq_q=600 --size seq_k=45
  case_ sm90a_d256_causal_f16_bh flash_attention_fwd_causal --set head_dim=256 --set dtype=f16 --size batch=2 --size heads=2 --size seq_q=77 --size seq_k=130
  case_ sm90a_d256_gqa3_empty_rows flash_attention_fwd_gqa --set head_dim=256 --set group=3 --size heads=3 --size seq_q=130 --size seq_k=45
  case_ sm90a_d256_tiny flash_attention_fwd --set head_dim=256 --size seq_q=5 --size seq_k=3
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), sm_90a defaults at d = 64, 80, 96, 192, (192, 128) and 256"
  exit 0
fi

if [ "${INFER:-0}" = 1 ]; then
  for arch in sm_80 sm_90a; do
    prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
    for v in "" _causal _sliding_window _alibi _softcap; do
      k=flash_attention_decode$v
      case_ decode${v}_g4 $k --set group=4 --size batch=2 --size seq_q=1 --size seq_k=333 --size splits=3
      case_ decode${v}_g5_q5 $k --set group=5 --size kv_heads=2 --size seq_q=5 --size seq_k=150 --size splits=5
      case_ decode${v}_d128_f16 $k --set head_dim=128 --set dtype=f16 --set group=8 --size batch=1 --size seq_q=2 --size seq_k=300 --size splits=4
    done
    case_ decode_causal_g1_q16 flash_attention_decode_causal --set group=1 --size seq_q=16 --size seq_k=40 --size splits=2
    case_ decode_one_split flash_attention_decode --set group=4 --size batch=2 --size seq_q=1 --size seq_k=333 --size splits=1
    case_ decode_causal_one_split flash_attention_decode_causal --set group=5 --size seq_q=3 --size seq_k=100 --size splits=1
    for v in "" _causal _alibi; do
      case_ decode_paged${v}_p16 flash_attention_decode_paged$v --set group=4 --set page_size=16 --size batch=4 --size seq_q=1 --size seq_k=100 --size splits=3
      case_ decode_paged${v}_p64_q3 flash_attention_decode_paged$v --set head_dim=128 --set group=5 --set page_size=64 --size batch=3 --size kv_heads=2 --size seq_q=3 --size seq_k=200 --size splits=1
    done
    case_ decode_combine flash_attention_decode_combine --set group=4 --size batch=3 --size splits=5
    case_ decode_combine_many flash_attention_decode_combine --set group=2 --size seq_q=3 --size splits=11
    case_ decode_combine_d128_f16 flash_attention_decode_combine --set head_dim=128 --set dtype=f16 --set group=5 --size seq_q=3 --size splits=1
    for v in "" _causal _sliding_window _gqa _alibi _softcap; do
      k=flash_attention_varlen$v
      case_ varlen${v}_ragged $k --size batch=4 --size heads=2 --size seq_q=130 --size seq_k=150
      case_ varlen${v}_d128_f16 $k --set head_dim=128 --set dtype=f16 --size batch=4 --size heads=2 --size seq_q=70 --size seq_k=130
    done
    case_ varlen_causal_d256 flash_attention_varlen_causal --set head_dim=256 --size batch=3 --size heads=1 --size seq_q=130 --size seq_k=77
    case_ varlen_d256 flash_attention_varlen --set head_dim=256 --size batch=3 --size heads=1 --size seq_q=100 --size seq_k=150
    case_ varlen_gqa3_d128 flash_attention_varlen_gqa --set head_dim=128 --set group=3 --size batch=3 --size heads=6 --size seq_q=77 --size seq_k=130
    case_ varlen_causal_one flash_attention_varlen_causal --size batch=1 --size seq_q=5 --size seq_k=3
  done
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), decoding and packed batches"
  exit 0
fi

if [ "${INPUTS:-0}" = 1 ]; then
  for arch in sm_80 sm_90a; do
    prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
    for k in fwd bwd_dkdv bwd_dq; do
      for order in 0 1; do
        doc="flash_attention_${k}_document --set shuffled=$order"
        case_ ${k}_document${order}_ragged $doc --size batch=2 --size heads=3 --size seq_q=200 --size seq_k=200
        case_ ${k}_document${order}_cross $doc --size batch=2 --size heads=2 --size seq_q=77 --size seq_k=150
        [ "$k" = fwd ] && case_ ${k}_document${order}_long $doc --size batch=1 --size heads=2 --size seq_q=600 --size seq_k=700
        case_ ${k}_document${order}_d128_f16 $doc --set head_dim=128 --set dtype=f16 --size batch=3 --size heads=1 --size seq_q=190 --size seq_k=190
        # d = 128 over several listed blocks (sm_90a: pipelined across them):
        # partial and full ones, a ragged last block, queries past the keys.
        [ "$k" = fwd ] && case_ ${k}_document${order}_d128_long $doc --set head_dim=128 --size batch=2 --size heads=2 --size seq_q=650 --size seq_k=777
        [ "$k" = fwd ] && case_ block_mask_document${order} flash_attention_block_mask_document --set shuffled=$order --size batch=2 --size heads=2 --size seq_q=700 --size seq_k=1000
        [ "$k" = fwd ] && case_ block_mask_by_keys_document${order} flash_attention_block_mask_by_keys_document --set shuffled=$order --size batch=1 --size heads=2 --size seq_q=1000 --size seq_k=700
      done
      table=flash_attention_${k}_relative_bias_table
      case_ ${k}_bias_table_ragged $table --set max_distance=40 --size batch=2 --size heads=3 --size seq_q=150 --size seq_k=170
      case_ ${k}_bias_table_d128_f16 $table --set head_dim=128 --set dtype=f16 --size batch=2 --size heads=2 --size seq_q=130 --size seq_k=90
    done
  done
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), variants with runtime inputs"
  exit 0
fi

if [ "${BWD:-0}" = 1 ]; then
  for arch in sm_80 sm_90a; do
    prefix=$([ "$arch" = sm_90a ] && echo sm90a_ || true)
    case_ bwd_prep flash_attention_bwd_prep --size batch=2 --size heads=3 --size seq_q=77
    case_ bwd_prep_d128 flash_attention_bwd_prep --set head_dim=128 --set dtype=f16 --size seq_q=300
    case_ bwd_dq_convert flash_attention_bwd_dq_convert --size batch=2 --size heads=3 --size seq_q=77
    case_ bwd_dq_convert_d128 flash_attention_bwd_dq_convert --set head_dim=128 --set dtype=f16 --size seq_q=300
    for v in "" _causal _sliding_window _gqa _alibi _softcap; do
      for part in dkdv dq fused; do
        k=flash_attention_bwd_$part$v
        case_ bwd_$part${v}_ragged $k --size seq_q=150 --size seq_k=201
        case_ bwd_$part${v}_empty_rows $k --size seq_q=130 --size seq_k=45
        case_ bwd_$part${v}_d128_f16 $k --set head_dim=128 --set dtype=f16 --size batch=2 --size seq_q=70 --size seq_k=90 --size amplitude=4
      done
    done
    # d = 128 dK/dV over several key blocks of 128 (sm_90a's schedule):
    # ragged ends, rows a mask leaves empty, fewer keys than one block.
    for v in "" _causal _sliding_window _prefix_lm; do
      k=flash_attention_bwd_dkdv$v
      case_ bwd_dkdv${v}_d128_ragged $k --set head_dim=128 --size heads=2 --size seq_q=300 --size seq_k=333
      case_ bwd_dkdv${v}_d128_empty_rows $k --set head_dim=128 --size seq_q=130 --size seq_k=45
    done
    case_ bwd_dkdv_causal_d128_tiny flash_attention_bwd_dkdv_causal --set head_dim=128 --size seq_q=5 --size seq_k=3
    # d = 64 dK/dV in the same shape (sm_90a: a producer warpgroup), over
    # several key blocks, f16 among them.
    for v in "" _causal _sliding_window _prefix_lm; do
      k=flash_attention_bwd_dkdv$v
      case_ bwd_dkdv${v}_d64_multi $k --set dtype=f16 --size heads=2 --size seq_q=300 --size seq_k=333
    done
    case_ bwd_dkdv_gqa3_d64_multi flash_attention_bwd_dkdv_gqa --set group=3 --size heads=6 --size seq_q=300 --size seq_k=333
    # Query-head groups in one loop over (block, head) pairs (sm_90a, d = 128).
    case_ bwd_dkdv_gqa3_d128_ragged flash_attention_bwd_dkdv_gqa --set head_dim=128 --set group=3 --size heads=6 --size seq_q=300 --size seq_k=333
    case_ bwd_dkdv_gqa2_d128_tiny flash_attention_bwd_dkdv_gqa --set head_dim=128 --set group=2 --size batch=2 --size heads=4 --size seq_q=5 --size seq_k=3
    # The fused kernel in FlashAttention-3's shape (sm_90a, d = 64 and 128,
    # at 128 dQ's dot before dK's): several key blocks of 128 and query
    # blocks of 64, ragged ends, each step's dQ share added by TMA
    # reductions (rows past the sequence dropped by TMA).
    for v in "" _causal _prefix_lm _gqa; do
      case_ bwd_fused${v}_d128_ragged flash_attention_bwd_fused$v --set head_dim=128 --size heads=2 --size seq_q=300 --size seq_k=333
    done
    case_ bwd_fused_causal_d128_empty_rows flash_attention_bwd_fused_causal --set head_dim=128 --size seq_q=130 --size seq_k=45
    case_ bwd_fused_d128_tiny flash_attention_bwd_fused --set head_dim=128 --set dtype=f16 --size seq_q=5 --size seq_k=3
    for v in "" _causal _prefix_lm _gqa; do
      case_ bwd_fused${v}_d64_multi flash_attention_bwd_fused$v --set dtype=f16 --size heads=6 --size seq_q=300 --size seq_k=333
    done
    # Query ranges by bisection (query_ranges=bisect; not yet the default).
    for v in _causal _sliding_window _prefix_lm; do
      case_ bwd_fused${v}_bisect flash_attention_bwd_fused$v --set query_ranges=bisect --size heads=2 --size seq_q=300 --size seq_k=333
      case_ bwd_dkdv${v}_bisect_d128 flash_attention_bwd_dkdv$v --set query_ranges=bisect --set head_dim=128 --size seq_q=130 --size seq_k=201
    done
    case_ bwd_dkdv_gqa3_bisect flash_attention_bwd_dkdv_gqa --set query_ranges=bisect --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
    for part in dkdv dq fused; do
      case_ bwd_${part}_gqa3 flash_attention_bwd_${part}_gqa --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
      case_ bwd_${part}_causal_tiny flash_attention_bwd_${part}_causal --size seq_q=5 --size seq_k=3
    done
    # Packed batches (varlen): ragged lengths with an empty sequence and a
    # query without keys, every variant; d = 128 f16; GQA 3.
    case_ varlen_bwd_prep flash_attention_varlen_bwd_prep --size batch=5 --size heads=3 --size seq_q=77
    case_ varlen_bwd_prep_d128 flash_attention_varlen_bwd_prep --set head_dim=128 --set dtype=f16 --size batch=4 --size seq_q=300
    for v in "" _causal _sliding_window _gqa _alibi _softcap; do
      for part in dkdv dq; do
        k=flash_attention_varlen_bwd_$part$v
        case_ varlen_bwd_$part${v}_ragged $k --size batch=4 --size heads=2 --size seq_q=150 --size seq_k=201
        case_ varlen_bwd_$part${v}_d128_f16 $k --set head_dim=128 --set dtype=f16 --size batch=4 --size heads=2 --size seq_q=70 --size seq_k=130
      done
    done
    for part in dkdv dq; do
      case_ varlen_bwd_${part}_gqa3_d128 flash_attention_varlen_bwd_${part}_gqa --set head_dim=128 --set group=3 --size batch=3 --size heads=6 --size seq_q=77 --size seq_k=130
    done
  done
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), attention backward"
  exit 0
fi

case_ vector_add_3000 vector_add --size n=3000
case_ vector_add_1 vector_add --set block=128 --size n=1
case_ vector_add_100k vector_add --size n=100000
case_ matmul_ragged matmul --size m=100 --size n=72 --size k=50
case_ matmul_256 matmul --size m=256 --size n=256 --size k=256
case_ matmul_small_blocks matmul --set block_m=32 --set block_n=16 --set block_k=16 --size m=33 --size n=17 --size k=129
case_ row_softmax row_softmax --size rows=37 --size cols=200
case_ row_softmax_tiny row_softmax --set block_rows=4 --set block_cols=16 --size rows=5 --size cols=3 --size amplitude=60

# The cases whose dots may run as wgmma: for sm_80 (mma.sync) and, prefixed
# sm90a_, for sm_90a (wgmma where it applies, mma.sync elsewhere).
dot_cases() {
  for v in fwd fwd_causal fwd_sliding_window fwd_gqa fwd_alibi fwd_softcap; do
    k=flash_attention_$v
    case_ ${v}_square $k --size seq_q=100 --size seq_k=100
    case_ ${v}_ragged $k --set block_m=64 --set block_n=32 --size seq_q=37 --size seq_k=130
    case_ ${v}_empty_rows $k --size seq_q=130 --size seq_k=45
    case_ ${v}_d128_f16 $k --set head_dim=128 --set dtype=f16 --size batch=2 --size heads=4 --size seq_q=70 --size seq_k=90 --size amplitude=4
  done
  case_ gqa_group2 flash_attention_fwd_gqa --set group=2 --size heads=4 --size seq_q=50 --size seq_k=77
  case_ mqa flash_attention_fwd_gqa --set group=4 --size batch=2 --size heads=4 --size seq_q=50 --size seq_k=77
  # A group of 3 query heads per K/V head, d = 256, and sequences shorter
  # than one block (odd lengths).
  case_ gqa_group3 flash_attention_fwd_gqa --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
  case_ d256_causal flash_attention_fwd_causal --set head_dim=256 --size seq_q=77 --size seq_k=130
  case_ tiny_fwd flash_attention_fwd --size seq_q=5 --size seq_k=3
  case_ large_logits flash_attention_fwd --size seq_q=64 --size seq_k=100 --size amplitude=10
  # Attention compiles with --assume-aligned by default (K and V streamed by
  # cp.async); the general path (scalar fallback, K/V through registers) too.
  case_ aligned_fwd_d64 flash_attention_fwd --size batch=2 --size heads=2 --size seq_q=130 --size seq_k=77
  case_ aligned_causal_d128 flash_attention_fwd_causal --set head_dim=128 --size seq_q=77 --size seq_k=130
  case_ general_fwd_ragged flash_attention_fwd --assume-aligned=false --size seq_q=37 --size seq_k=130
  case_ general_causal_d128 flash_attention_fwd_causal --assume-aligned=false --set head_dim=128 --size seq_q=77 --size seq_k=130
  # Three-slot rings, and streams whose loop runs once or not at all. (32-key
  # blocks: sm_80's default; sm_90a's 128-key blocks in three slots need
  # more shared memory than a block has, which tilec refuses.)
  case_ stages3_fwd_d128 flash_attention_fwd --pipeline-stages=3 --set head_dim=128 --set block_n=32 --size batch=2 --size seq_q=200 --size seq_k=333
  case_ stages3_causal flash_attention_fwd_causal --pipeline-stages=3 --size seq_q=100 --size seq_k=290
  case_ stages4_window flash_attention_fwd_sliding_window --pipeline-stages=4 --size seq_q=300 --size seq_k=300
  case_ one_key_block flash_attention_fwd --size seq_q=64 --size seq_k=20
  # Q kept in shared memory (--a-in-shared): 16 and 32 rows per warp.
  case_ a_in_shared_fwd_d128 flash_attention_fwd --a-in-shared --set head_dim=128 --size batch=2 --size seq_q=150 --size seq_k=97
  case_ a_in_shared_causal_d64_w4 flash_attention_fwd_causal --a-in-shared --num-warps=4 --size heads=3 --size seq_q=129 --size seq_k=200
  case_ a_in_shared_window_f16 flash_attention_fwd_sliding_window --a-in-shared --set dtype=f16 --size seq_q=300 --size seq_k=260
  case_ aligned_matmul matmul --assume-aligned --size m=100 --size n=72 --size k=64
  case_ aligned_matmul_ragged_k matmul --assume-aligned --size m=130 --size n=200 --size k=72
  case_ aligned_matmul_stages3 matmul --assume-aligned --pipeline-stages=3 --size m=64 --size n=64 --size k=200
  # Row groups sharing each K/V block (two dots per streamed block).
  case_ row_groups2_fwd_d128 flash_attention_fwd --set head_dim=128 --set row_groups=2 --set block_n=64 --size batch=2 --size seq_q=200 --size seq_k=333
  case_ row_groups2_causal_d64 flash_attention_fwd_causal --set row_groups=2 --size seq_q=150 --size seq_k=290
  case_ row_groups4_window flash_attention_fwd_sliding_window --set block_m=128 --set row_groups=4 --size seq_q=300 --size seq_k=260
}
dot_cases
arch=sm_90a prefix=sm90a_
dot_cases
# mma.sync on sm_90a (--wgmma=false), with its own default tiles.
case_ mma_sync_causal_d128 flash_attention_fwd_causal --wgmma=false --set head_dim=128 --size seq_q=150 --size seq_k=200
case_ mma_sync_fwd_d64 flash_attention_fwd --wgmma=false --size batch=2 --size seq_q=130 --size seq_k=77

# The op-by-op path (--lowering=tilegpu: tilegpu-lower-dots,
# tilegpu-pipeline-streams, convert-tilegpu-to-nvvm), prefix tg_: dots as
# mma.sync (sm_80) or wgmma with B staged in shared memory (sm_90a); block
# loads through registers, or streamed by cp.async rings when aligned.
tilegpu_cases() {
  case_ tg_matmul_ragged matmul --lowering=tilegpu --size m=100 --size n=72 --size k=50
  case_ tg_matmul_small_blocks matmul --lowering=tilegpu --set block_m=32 --set block_n=16 --set block_k=16 --size m=33 --size n=17 --size k=129
  case_ tg_aligned_matmul matmul --lowering=tilegpu --assume-aligned --size m=100 --size n=72 --size k=64
  case_ tg_aligned_matmul_ragged_k matmul --lowering=tilegpu --assume-aligned --size m=130 --size n=200 --size k=72
  case_ tg_aligned_matmul_stages3 matmul --lowering=tilegpu --assume-aligned --pipeline-stages=3 --size m=64 --size n=64 --size k=200
  case_ tg_aligned_matmul_one_step matmul --lowering=tilegpu --assume-aligned --pipeline-stages=4 --size m=70 --size n=64 --size k=16
}
# TMA rings with two warpgroups (8 warps on 128 rows, or 256 rows in two
# row groups), filled by the consumers or by a producer warpgroup (ws_),
# whose consumers may take turns issuing their dots (pp_: --ping-pong).
tma_cases() {
  local p
  for p in "" ws_ pp_; do
    local flags="--num-warps=8"
    [ "$p" = ws_ ] && flags="$flags --warp-specialize"
    [ "$p" = pp_ ] && flags="$flags --warp-specialize --ping-pong"
    case_ ${p}w8_fwd_d64 flash_attention_fwd $flags --set row_groups=1 --size batch=2 --size seq_q=300 --size seq_k=333
    case_ ${p}w8_causal_d64 flash_attention_fwd_causal $flags --set row_groups=1 --size seq_q=77 --size seq_k=130
    case_ ${p}w8_causal_d128 flash_attention_fwd_causal $flags --set row_groups=1 --set head_dim=128 --size seq_q=200 --size seq_k=333
    case_ ${p}w8_window_d64 flash_attention_fwd_sliding_window $flags --set row_groups=1 --size seq_q=300 --size seq_k=260
    case_ ${p}w8_gqa3_d128 flash_attention_fwd_gqa $flags --set row_groups=1 --set head_dim=128 --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
    case_ ${p}w8_n128_fwd_d128 flash_attention_fwd $flags --set row_groups=1 --set block_n=128 --set head_dim=128 --size seq_q=150 --size seq_k=290
    case_ ${p}w8_m256_causal_d64 flash_attention_fwd_causal $flags --set row_groups=2 --set block_m=256 --size seq_q=300 --size seq_k=333
    case_ ${p}w8_tiny_causal flash_attention_fwd_causal $flags --set row_groups=1 --size seq_q=5 --size seq_k=3
    # d = 256: 128x64 tiles, 64 rows per warpgroup, Q in shared memory.
    case_ ${p}w8_d256_fwd flash_attention_fwd $flags --a-in-shared --set head_dim=256 --set row_groups=1 --set block_m=128 --set block_n=64 --size seq_q=150 --size seq_k=200
    case_ ${p}w8_d256_causal flash_attention_fwd_causal $flags --a-in-shared --set head_dim=256 --set row_groups=1 --set block_m=128 --set block_n=64 --set dtype=f16 --size seq_q=200 --size seq_k=190
  done
}
if [ "$tma" = 1 ]; then
  arch=sm_90a prefix=sm90a_
  tma_cases
fi
if [ "$lowering" != tilegpu ]; then
  arch=sm_80 prefix=
  tilegpu_cases
  arch=sm_90a prefix=sm90a_
  tilegpu_cases
else
  echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1)), --lowering=tilegpu$([ "$tma" = 1 ] && echo ' --tma')$([ "$ws" = 1 ] && echo ' --warp-specialize')"
  exit 0
fi

# Kernels written in tilegpu ops (test/gpu/tilegpu/{gemm,pv}_tile.mlir),
# lowered op by op through convert-tilegpu-to-nvvm, for tilegpu-gemm-tile:
# their PTX and dynamic shared-memory bytes.
tilec_opt=${TILEC_OPT:-$root/build/bin/tilec-opt}
llvm=${LLVM_BIN:-/usr/lib/llvm-22/bin}
mkdir -p "$out/tilegpu"
for t in gemm_tile pv_tile; do
  "$tilec_opt" "$root/test/gpu/tilegpu/$t.mlir" --tilegpu-insert-barriers --tilegpu-allocate-shared-memory \
    --convert-tilegpu-to-nvvm --convert-scf-to-cf --convert-arith-to-llvm --convert-cf-to-llvm \
    --convert-nvvm-to-llvm --reconcile-unrealized-casts -o "$out/tilegpu/$t.llvm.mlir"
  grep -o 'tilegpu.shared_bytes = [0-9]*' "$out/tilegpu/$t.llvm.mlir" | grep -o '[0-9]*$' \
    >"$out/tilegpu/$t.smem"
  "$llvm/mlir-translate" --mlir-to-llvmir "$out/tilegpu/$t.llvm.mlir" |
    "$llvm/llc" -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -o "$out/tilegpu/$t.ptx"
done
echo "gpu-cases: $(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1))"
