#!/usr/bin/env python3
"""Session 47's probe: why a tilec forward at N = 1k takes longer per launch
back to back (bench_ms: the mean of 20 launches) than alone (ncu: d = 256
dense 221.7 us, cuDNN's 223.1 us; bench_ms 244.5 against cuDNN's 220.6).
Times one kernel, and cuDNN at the same shape, four ways in one process:
bench_ms; each launch alone (synchronized, its own events); each alone after
a 5 ms pause; and 200 launches back to back in one event pair. Prints the
phase's wall-clock start and end so that an nvidia-smi log of SM clock and
power (run beside it) can be matched to the phases."""
import argparse, os, sys, time
import torch
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..")
sys.path.insert(0, os.path.join(root, "python")); sys.path.insert(0, os.path.join(root, "bench"))
from timing import bench_ms
from tilec.attention import tensor_arg
from tilec.driver import Kernel
from torch.nn.attention import sdpa_kernel, SDPBackend

ap = argparse.ArgumentParser()
ap.add_argument("--ptx", action="append", default=[])
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--d", type=int, default=256)
ap.add_argument("--causal", action="store_true")
a = ap.parse_args()
n, d = a.n, a.d
b, h = 16384 // n, 2048 // d
flops = 4.0 * b * h * n * n * d / (2 if a.causal else 1)
stream = torch.cuda.current_stream().cuda_stream
q, k, v = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
o = torch.empty_like(q)
lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
qq, kk, vv = (x.view(b, h, n, d) for x in (q, k, v))


def alone(fn, pause_s, count=20):
    times = []
    for _ in range(count):
        if pause_s:
            time.sleep(pause_s)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[len(times) // 2]


def run_of(fn, count=200):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(count):
        fn()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / count


def report(name, fn):
    fn(); torch.cuda.synchronize()
    for phase, measure in (("bench_ms", lambda: bench_ms(fn)), ("alone", lambda: alone(fn, 0)),
                           ("alone_after_5ms", lambda: alone(fn, 0.005)),
                           ("run_of_200", lambda: run_of(fn))):
        t0 = time.time()
        ms = measure()
        print(f"{name}\t{phase}\t{ms * 1e3:.1f} us\t{flops / ms * 1e-9:.0f} TFLOP/s\t"
              f"wall {t0:.3f}-{time.time():.3f}", flush=True)


for ptx in a.ptx:
    kernel = Kernel(ptx)
    args = [tensor_arg(t) for t in (q, k, v, o, lse)]
    report(os.path.basename(os.path.dirname(ptx)), lambda: kernel(*args, stream=stream))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    report("cudnn", lambda: torch.nn.functional.scaled_dot_product_attention(
        qq, kk, vv, is_causal=a.causal))
