#!/usr/bin/env bash
# Makes carry-C/ for runC.sh: the backward sets at d = 64 and 128 with this
# session's defaults (the fused d = 64 kernel without a mask at 128 query
# rows as [queries, keys]), for timing beside cuDNN and FlashAttention-2;
# at d = 64 the causal and GQA fused kernels in both score layouts
# (causal's queries_by_keys spills 24 bytes, so not its default).
set -euo pipefail
rm -rf carry-C && mkdir -p carry-C
bash bench/compile-bwd.sh carry-C/b-tilec
DIMS=64 VARIANTS="causal gqa" FUSED_FLAGS="--set score_layout=queries_by_keys" \
  bash bench/compile-bwd.sh carry-C/b-qk
DIMS=64 VARIANTS="causal gqa" FUSED_FLAGS="--set score_layout=keys_by_queries" \
  bash bench/compile-bwd.sh carry-C/b-kq
cp /work/shared/tools/peer_sdpa.py carry-C/
du -sh carry-C
