#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (from the repository root after
# scripts/build.sh): the fused backward with dQ's store after dK's dot is
# issued (dq_order=dot_before_dk) — its GPU cases (those whose PTX differs
# from the default's) and the default's cases whose PTX the joined waits
# changed; the backward sets of compile-bwd.sh with the defaults (new) and
# with dot_before_dk (dot); peer_sdpa.py.
set -euo pipefail
rm -rf carry-A /tmp/s39a && mkdir -p carry-A /tmp/s39a/dflt /tmp/s39a/dot
BWD=1 bash scripts/gpu-cases.sh /tmp/s39a/cb > /dev/null
FUSED_FLAGS="--set dq_order=dot_before_dk" BWD=1 bash scripts/gpu-cases.sh /tmp/s39a/cbd > /dev/null
for c in $(cd /tmp/s39a/cbd && ls -d sm90a_*fused*); do
  cmp -s /tmp/s39a/cbd/$c/kernel.ptx /tmp/s39a/cb/$c/kernel.ptx || cp -r /tmp/s39a/cbd/$c /tmp/s39a/dot/
done
(cd /tmp/s39a/cb && cp -r sm90a_bwd_fused_{d128_ragged,causal_d128_ragged,causal_d64_multi,gqa_empty_rows,causal_tiny,d128_tiny} \
  sm90a_bwd_dkdv_{alibi,softcap}_d128_f16 /tmp/s39a/dflt/)
tar czf carry-A/cases.tgz -C /tmp/s39a dflt dot
bash bench/compile-bwd.sh carry-A/b-new
FUSED_FLAGS="--set dq_order=dot_before_dk" bash bench/compile-bwd.sh carry-A/b-dot
cp ../shared/tools/peer_sdpa.py carry-A/
du -sh carry-A
