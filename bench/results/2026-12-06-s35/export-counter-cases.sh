#!/usr/bin/env bash
# The GPU cases of --tile-counter (session 35): the persistent
# warp-specialized forward kernels (sm_90a) with tiles claimed from a
# counter — ragged N, N_q != N_k, empty rows, tiny, GQA, B and H > 1, bf16
# and f16, d = 96, 128 and 256. Usage: export-counter-cases.sh OUT_DIR
set -euo pipefail
out=$1
tilec=${TILEC:-build/bin/tilec}
rm -rf "$out" && mkdir -p "$out"
c() { local name=$1 kernel=$2; shift 2
  "$tilec" --kernel="$kernel" --arch=sm_90a --persistent --tile-counter --export-case="$out/$name" "$@" >/dev/null; }
for v in fwd fwd_causal fwd_gqa; do
  c d128_${v}_ragged flash_attention_$v --set head_dim=128 --size heads=4 --size seq_q=300 --size seq_k=201
  c d128_${v}_long flash_attention_$v --set head_dim=128 --size batch=2 --size heads=4 --size seq_q=600 --size seq_k=520
done
c d256_fwd_causal_ragged flash_attention_fwd_causal --set head_dim=256 --size seq_q=150 --size seq_k=201
c d256_fwd_ragged flash_attention_fwd --set head_dim=256 --size heads=3 --size seq_q=260 --size seq_k=130
c d96_fwd_ragged flash_attention_fwd --set head_dim=96 --size heads=3 --size seq_q=390 --size seq_k=333
c d96_fwd_causal_ragged flash_attention_fwd_causal --set head_dim=96 --size heads=2 --size seq_q=333 --size seq_k=390
c d128_causal_empty_rows flash_attention_fwd_causal --set head_dim=128 --set dtype=f16 --size heads=3 --size seq_q=300 --size seq_k=45
c d128_tiny flash_attention_fwd --set head_dim=128 --size seq_q=5 --size seq_k=3
echo "$(ls "$out" | wc -l) cases in $out ($(du -sh "$out" | cut -f1))"
