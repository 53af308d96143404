"""The benchmark convention every bench script here times with (BENCHMARKS.md):
CUDA events, the median over `repeats` of the mean of `iters` back-to-back
calls, after warm-up: at least `warmup` calls and `warmup_ms` of them (as
Triton's do_bench), the first timing of a process at least `first_warmup_ms`.
The GPU idles while Python starts, and for about half a second after it
starts working again its SM clock dips (an H100: 1980 -> 1665-1710 MHz for
0.5-0.55 s under a 1k attention forward, nvidia-smi every 50 ms; the d = 256
forward took 246 us a launch inside the dip and 221 us after it, cuDNN's
221 us: bench/RESULTS.md, session 47), so the first timing of a process
waits 1.5 s (0.3 s until session 47: every compare.py process times its
first shape, N = 1k, inside the dip; two runs of one kernel came out up to
25 % apart there, session 31). bench/peer_warm.py gives the peers' script
the same start."""
import time

import torch

_warmed = False


def bench_ms(fn, warmup=5, iters=20, repeats=7, warmup_ms=25.0, first_warmup_ms=1500.0):
    global _warmed
    least_ms = warmup_ms if _warmed else first_warmup_ms
    _warmed = True
    start_wall, calls = time.perf_counter(), 0
    while calls < warmup or (time.perf_counter() - start_wall) * 1e3 < least_ms:
        fn()
        calls += 1
        if calls % max(warmup, 1) == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / iters)
    return sorted(samples)[len(samples) // 2]
