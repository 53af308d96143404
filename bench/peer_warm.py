#!/usr/bin/env python3
"""Runs a peer's script (../shared/tools/peer_sdpa.py: its path is the first
argument) unchanged, after keeping the GPU busy for 1.5 s, so that its first
shapes are timed at the clock the later ones see, as bench/timing.py's first
warm-up does for tilec's (the SM clock dips for about half a second once an
idle GPU starts working: bench/RESULTS.md, session 47). The peer's own
arguments follow its path:
  python3 bench/peer_warm.py ../shared/tools/peer_sdpa.py --dims 128 --json out.json
"""
import os
import runpy
import sys
import time

import torch

WARM_S = 1.5


def keep_busy(seconds: float) -> None:
    """bf16 matmuls back to back until `seconds` have passed."""
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            a @ a
        torch.cuda.synchronize()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    peer = sys.argv[1]
    keep_busy(WARM_S)
    # As `python3 PEER ARGS` would: its own argv and its folder first on the path.
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(peer))
    runpy.run_path(peer, run_name="__main__")
