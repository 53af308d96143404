"""GPU tests of tilec.attention: forward and gradients of the tilec kernels on
torch tensors against a double-precision attention (torch autograd in f64 on
the same bf16/f16 inputs), on ragged shapes, dense and causal, d = 64 and 128,
bf16 and f16; document masks from runtime ids with block masks; and the
backward bitwise repeatable; the fused backward (dQ added atomically) on the
same shapes.

Needs torch with a GPU and TILEC_TEST_PTX_DIR (scripts/compile-torch-kernels.sh);
skipped, saying which is missing, elsewhere.
"""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

PTX_DIR = os.environ.get("TILEC_TEST_PTX_DIR")
try:
    import torch
    HAVE_GPU = torch.cuda.is_available()
except ImportError:
    torch = None
    HAVE_GPU = False

REASON = ("torch is not installed" if torch is None else
          "no GPU" if not HAVE_GPU else
          "TILEC_TEST_PTX_DIR (kernels from scripts/compile-torch-kernels.sh) not set")


def reference(q, k, v, causal, keep=None):
    """Attention in f64; causal aligned bottom-right, rows that see no key
    give 0; `keep` [B, 1, N_q, N_k] a mask of its own."""
    q, k, v = (t.detach().double().requires_grad_() for t in (q, k, v))
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if keep is not None:
        s = s.masked_fill(~keep, -math.inf)
    if causal:
        n_q, n_k = q.shape[-2], k.shape[-2]
        i = torch.arange(n_q, device=q.device)[:, None]
        j = torch.arange(n_k, device=q.device)[None, :]
        s = s.masked_fill(j > i + (n_k - n_q), -math.inf)
    p = torch.softmax(s, dim=-1).nan_to_num(0.0)
    return q, k, v, p @ v


def relative_error(got, want):
    """Of the largest; gradients that are exactly 0 (one key per row) are
    compared absolutely, as 1e-3 of the O(1) inputs."""
    return ((got.double() - want).abs().max() / want.abs().max().clamp_min(1e-3)).item()


def mask_other_sizes(kernels):
    ids = torch.zeros(1, 64, device="cuda", dtype=torch.int32)
    return kernels.block_mask(64, 64, 1, 1, [ids])


@unittest.skipUnless(torch is not None, "torch is not installed")
class BackwardOption(unittest.TestCase):
    def test_unknown_or_unavailable_backwards_are_refused(self):
        import tilec.attention as ta
        with self.assertRaisesRegex(ValueError, "backward='atomic': one of separate, fused, auto"):
            ta.AttentionKernels("no-such-dir", backward="atomic")
        with self.assertRaisesRegex(ValueError, "packed batches have no fused backward"):
            ta.AttentionKernels("no-such-dir", packed=True, backward="fused")

    def test_auto_takes_the_fused_backward_where_it_was_measured_faster(self):
        import tilec.attention as ta
        self.assertTrue(ta.fused_backward_is_faster("causal", 64, 16384))
        self.assertTrue(ta.fused_backward_is_faster("causal", 64, 4096))
        self.assertTrue(ta.fused_backward_is_faster("causal", 64, 1024))
        self.assertTrue(ta.fused_backward_is_faster("", 64, 1024))
        self.assertTrue(ta.fused_backward_is_faster("", 128, 1024))
        self.assertTrue(ta.fused_backward_is_faster("causal", 128, 4096))
        self.assertFalse(ta.fused_backward_is_faster("causal", 128, 1024))
        self.assertFalse(ta.fused_backward_is_faster("", 96, 16384))
        self.assertFalse(ta.fused_backward_is_faster("document", 64, 16384))

    def test_auto_takes_the_long_forward_from_4k_queries_and_keys(self):
        import tilec.attention as ta
        self.assertTrue(ta.long_forward_is_faster(4096, 4096))
        self.assertTrue(ta.long_forward_is_faster(16384, 8192))
        self.assertFalse(ta.long_forward_is_faster(2048, 16384))
        self.assertFalse(ta.long_forward_is_faster(16384, 1024))
        self.assertTrue(ta.kernel_file("k", "flash_attention_fwd", "bf16", 64, long=True)
                        .endswith("flash_attention_fwd-bf16-d64-long.ptx"))
        with self.assertRaisesRegex(ValueError, "forward='wide': one of default, long, auto"):
            ta.AttentionKernels("no-such-dir", forward="wide")

    def test_a_long_forward_asked_for_by_name_must_be_compiled(self):
        # (not silently the default one)
        import tempfile
        import tilec.attention as ta
        with tempfile.TemporaryDirectory() as directory:
            with self.assertRaisesRegex(FileNotFoundError,
                                        "flash_attention_fwd-bf16-d128-long.ptx: no long"):
                ta.AttentionKernels(directory, head_dim=128, forward="long")
        with self.assertRaisesRegex(ValueError, "packed batches have no long"):
            ta.AttentionKernels("no-such-dir", packed=True, forward="long")


@unittest.skipUnless(HAVE_GPU and PTX_DIR and os.path.isdir(PTX_DIR or ""), REASON)
class AttentionOnGpu(unittest.TestCase):
    # Gradients through bf16/f16 P and dS, accumulated in f32: 1 % of the
    # largest, as the CPU tests of the kernels (measured under 0.5 %).
    TOLERANCE = {"bf16": 2e-2, "f16": 1e-2}

    def run_case(self, variant, dtype, d, b, h, n_q, n_k, dv=None, kernels=None):
        import tilec.attention as ta
        dv = dv or d
        kernels = kernels or ta.AttentionKernels(PTX_DIR, variant=variant, dtype=dtype,
                                                 head_dim=d, head_dim_v=dv)
        tdtype = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
        gen = torch.Generator(device="cuda").manual_seed(n_q * 131 + n_k * 7 + d)
        q = torch.rand(b, h, n_q, d, device="cuda", generator=gen).mul_(2).sub_(1).to(tdtype)
        k = torch.rand(b, h, n_k, d, device="cuda", generator=gen).mul_(2).sub_(1).to(tdtype)
        v = torch.rand(b, h, n_k, dv, device="cuda", generator=gen).mul_(2).sub_(1).to(tdtype)
        do = torch.rand(b, h, n_q, dv, device="cuda", generator=gen).mul_(2).sub_(1).to(tdtype)
        q.requires_grad_(), k.requires_grad_(), v.requires_grad_()
        o = ta.attention(q, k, v, kernels)
        o.backward(do)
        grads = [q.grad.clone(), k.grad.clone(), v.grad.clone()]
        rq, rk, rv, ro = reference(q, k, v, variant == "causal")
        ro.backward(do.double())
        tol = self.TOLERANCE[dtype]
        errors = {"o": relative_error(o, ro.detach())}
        for name, got, want in zip(("dq", "dk", "dv"), grads, (rq.grad, rk.grad, rv.grad)):
            errors[name] = relative_error(got, want)
        print(f"  {variant or 'dense'} {dtype} d={d} dv={dv} B={b} H={h} Nq={n_q} Nk={n_k}: " +
              ", ".join(f"{k} {e:.2e}" for k, e in errors.items()), file=sys.stderr)
        for name, e in errors.items():
            self.assertLess(e, tol, f"{name} of {variant or 'dense'} {dtype} d={d} "
                                    f"Nq={n_q} Nk={n_k}")
        if kernels.uses_fused_backward(n_k):
            return  # (atomic additions: not bitwise repeatable)
        # The backward again: bitwise the same gradients (no atomics).
        for t in (q, k, v):
            t.grad = None
        ta.attention(q, k, v, kernels).backward(do)
        for name, first, again in zip(("dq", "dk", "dv"), grads, (q.grad, k.grad, v.grad)):
            self.assertTrue(torch.equal(first, again), f"{name} differs between two runs")

    def test_shapes(self):
        cases = [(2, 3, 77, 77), (1, 2, 1000, 1000), (1, 1, 1, 1), (2, 2, 130, 257),
                 (1, 2, 300, 64)]
        for variant in ("", "causal"):
            for dtype in ("bf16", "f16"):
                for d in (64, 128):
                    for b, h, n_q, n_k in cases:
                        with self.subTest(variant=variant, dtype=dtype, d=d, n_q=n_q, n_k=n_k):
                            self.run_case(variant, dtype, d, b, h, n_q, n_k)

    def test_fused_backward(self):
        # dK, dV and dQ in one pass (dQ's shares added into f32, then
        # converted), FlashAttention-3's shape on sm_90a at d = 64 and 128;
        # "auto" takes it at N = 8192 causal d = 128 (fused_backward_is_faster)
        # and the separate kernels at N = 300; causal d = 64 (a persistent
        # grid claiming tiles from a counter) at every length.
        import tilec.attention as ta
        cases = [(2, 3, 77, 77), (1, 2, 1000, 1000), (1, 1, 1, 1), (2, 2, 130, 257),
                 (1, 2, 300, 64)]
        for variant in ("", "causal"):
            for dtype, d in (("bf16", 64), ("f16", 128)):
                kernels = ta.AttentionKernels(PTX_DIR, variant=variant, dtype=dtype, head_dim=d,
                                              backward="fused")
                for b, h, n_q, n_k in cases:
                    with self.subTest(variant=variant, dtype=dtype, d=d, n_q=n_q, n_k=n_k):
                        self.run_case(variant, dtype, d, b, h, n_q, n_k, kernels=kernels)
        auto = ta.AttentionKernels(PTX_DIR, variant="causal", dtype="f16", head_dim=128,
                                   backward="auto")
        self.assertTrue(auto.uses_fused_backward(8192))
        self.assertFalse(auto.uses_fused_backward(300))
        with self.subTest(backward="auto", n=8192):
            self.run_case("causal", "f16", 128, 1, 1, 8192, 8192, kernels=auto)
        auto64 = ta.AttentionKernels(PTX_DIR, variant="causal", head_dim=64, backward="auto")
        self.assertTrue(auto64.uses_fused_backward(300))
        with self.subTest(backward="auto", d=64, n=4096):
            self.run_case("causal", "bf16", 64, 2, 2, 4096, 4096, kernels=auto64)

    def test_long_sequences_forward(self):
        # The forward in the long sequences' schedule (256-row tiles at d =
        # 64 dense, compile-torch-kernels.sh's -long.ptx) on ragged shapes,
        # and "auto" taking it at 4096 x 4096 only.
        import tilec.attention as ta
        for dtype in ("bf16", "f16"):
            long = ta.AttentionKernels(PTX_DIR, dtype=dtype, head_dim=64, forward="long")
            self.assertIsNotNone(long.forward_long, "no -long.ptx for d = 64 dense")
            self.assertIs(long.forward_kernel(77, 77), long.forward_long)
            for b, h, n_q, n_k in ((2, 3, 77, 77), (1, 2, 1000, 1000), (1, 1, 1, 1),
                                   (2, 2, 130, 257), (1, 2, 300, 64)):
                with self.subTest(dtype=dtype, n_q=n_q, n_k=n_k):
                    self.run_case("", dtype, 64, b, h, n_q, n_k, kernels=long)
        auto = ta.AttentionKernels(PTX_DIR, head_dim=64, forward="auto")
        self.assertIs(auto.forward_kernel(4096, 4096), auto.forward_long)
        self.assertIs(auto.forward_kernel(1024, 4096), auto.forward)
        with self.subTest(forward="auto", n=4096):
            self.run_case("", "bf16", 64, 1, 2, 4096, 4096, kernels=auto)
        default = ta.AttentionKernels(PTX_DIR, head_dim=64, forward="default")
        self.assertIs(default.forward_kernel(16384, 16384), default.forward)
        # The default is "auto".
        plain = ta.AttentionKernels(PTX_DIR, head_dim=64)
        self.assertIsNotNone(plain.forward_long)
        self.assertIs(plain.forward_kernel(8192, 8192), plain.forward_long)

    def test_head_dims(self):
        # Head dims that are not powers of two (96, 40) and V/O head dims of
        # their own (192, 128): the kernels pad their tiles, the tensors do
        # not. Compiled by DIMS="... 96 40 192v128" compile-torch-kernels.sh.
        import tilec.attention as ta
        for variant, dtype, d, dv in (("", "bf16", 96, 96), ("causal", "f16", 40, 40),
                                      ("causal", "bf16", 192, 128), ("", "f16", 192, 128)):
            try:
                kernels = ta.AttentionKernels(PTX_DIR, variant=variant, dtype=dtype, head_dim=d,
                                              head_dim_v=dv)
            except FileNotFoundError as e:
                self.skipTest(f"head-dim kernels not compiled: {e}")
            for b, h, n_q, n_k in [(2, 3, 77, 130), (1, 2, 300, 64)]:
                with self.subTest(variant=variant, dtype=dtype, d=d, dv=dv, n_q=n_q, n_k=n_k):
                    self.run_case(variant, dtype, d, b, h, n_q, n_k, dv=dv, kernels=kernels)
            with self.subTest(variant=variant, d=d, dv=dv, packed=True):
                packed = ta.AttentionKernels(PTX_DIR, variant=variant, dtype=dtype, head_dim=d,
                                             head_dim_v=dv, packed=True)
                self.run_packed(packed, [(77, 77), (0, 5), (130, 257)], heads=2)

    def test_packed_batches(self):
        # Ragged lengths with an empty sequence, a query with no key (its
        # output and gradient 0), N_q != N_k; every sequence against the
        # dense reference on its own rows.
        import tilec.attention as ta
        lengths = [(77, 77), (0, 5), (1, 0), (300, 129), (130, 257), (64, 64)]
        for variant in ("", "causal"):
            for dtype, d in (("bf16", 64), ("f16", 128)):
                with self.subTest(variant=variant, dtype=dtype, d=d):
                    kernels = ta.AttentionKernels(PTX_DIR, variant=variant, dtype=dtype,
                                                  head_dim=d, packed=True)
                    self.run_packed(kernels, lengths, heads=2)

    def run_packed(self, kernels, lengths, heads):
        import tilec.attention as ta
        tdtype = {"bf16": torch.bfloat16, "f16": torch.float16}[kernels.dtype]
        d, dv, causal = kernels.head_dim, kernels.head_dim_v, kernels.variant == "causal"
        total_q, total_k = sum(n for n, _ in lengths), sum(n for _, n in lengths)
        gen = torch.Generator(device="cuda").manual_seed(total_q * 7 + d)

        def rand(*shape):
            return torch.rand(*shape, device="cuda", generator=gen).mul_(2).sub_(1).to(tdtype)
        q, k, v = rand(total_q, heads, d), rand(total_k, heads, d), rand(total_k, heads, dv)
        do = rand(total_q, heads, dv)
        cu_q = torch.tensor([0] + [sum(n for n, _ in lengths[:i + 1]) for i in range(len(lengths))],
                            dtype=torch.int32, device="cuda")
        cu_k = torch.tensor([0] + [sum(n for _, n in lengths[:i + 1]) for i in range(len(lengths))],
                            dtype=torch.int32, device="cuda")
        q.requires_grad_(), k.requires_grad_(), v.requires_grad_()
        o = ta.attention_varlen(q, k, v, cu_q, cu_k, None, None, kernels)
        o.backward(do)
        got = {"o": o.detach(), "dq": q.grad, "dk": k.grad, "dv": v.grad}
        want = {name: torch.zeros_like(t, dtype=torch.float64) for name, t in got.items()}
        for b, (n_q, n_k) in enumerate(lengths):
            rows_q, rows_k = slice(cu_q[b].item(), cu_q[b + 1].item()), slice(cu_k[b].item(), cu_k[b + 1].item())
            heads_first = lambda t, rows: t[rows].transpose(0, 1).unsqueeze(0)
            rq, rk, rv, ro = reference(heads_first(q, rows_q), heads_first(k, rows_k),
                                       heads_first(v, rows_k), causal)
            ro.backward(heads_first(do, rows_q).double())
            for name, t, rows in (("o", ro.detach(), rows_q), ("dq", rq.grad, rows_q),
                                  ("dk", rk.grad, rows_k), ("dv", rv.grad, rows_k)):
                want[name][rows] = t[0].transpose(0, 1)
        errors = {name: relative_error(got[name], want[name]) for name in got}
        print(f"  packed {kernels.variant or 'dense'} {kernels.dtype} d={d} {lengths}: " +
              ", ".join(f"{k} {e:.2e}" for k, e in errors.items()), file=sys.stderr)
        for name, e in errors.items():
            self.assertLess(e, self.TOLERANCE[kernels.dtype], name)

    def test_launch_past_an_allocation_is_refused(self):
        # An output whose strides reach 512 MiB past its storage, beyond the
        # driver allocation (a segment of PyTorch's caching allocator) it
        # lies in: refused (cuMemGetAddressRange) before the launch. The
        # check guards the allocation, not a tensor's own storage inside it.
        import tilec.attention as ta
        from tilec.metadata import LaunchError, TensorArg
        kernels = ta.AttentionKernels(PTX_DIR, variant="", dtype="bf16", head_dim=64)
        q = torch.randn(1, 2, 64, 64, device="cuda", dtype=torch.bfloat16)
        lse = torch.empty(2, 64, device="cuda", dtype=torch.float32)
        args = [TensorArg(q.data_ptr(), (2, 64, 64), (64 * 64, 64, 1))] * 3
        args += [TensorArg(q.data_ptr(), (2, 64, 64), (1 << 28, 64, 1)),
                 TensorArg(lse.data_ptr(), (2, 64), (64, 1))]
        with self.assertRaisesRegex(LaunchError, "past the end of its allocation|not in a device"):
            kernels.forward(*args)

    def test_document_masks(self):
        # Document ids at run time (sorted runs and shuffled), the block mask
        # made on the GPU and reused; forward and gradients against the f64
        # reference with the same mask, N_q != N_k (queries are the last
        # positions), B and H > 1.
        import tilec.attention as ta
        from tilec.metadata import LaunchError
        try:
            kernels = ta.AttentionKernels(PTX_DIR, variant="document", dtype="bf16", head_dim=64)
        except FileNotFoundError as e:
            self.skipTest(f"document kernels not compiled: {e}")
        gen = torch.Generator(device="cuda").manual_seed(5)
        for b, h, n_q, n_k, shuffled in [(2, 2, 300, 300, False), (2, 3, 200, 420, False),
                                         (1, 2, 260, 260, True)]:
            with self.subTest(n_q=n_q, n_k=n_k, shuffled=shuffled):
                ids = torch.cumsum(torch.rand(b, n_k, device="cuda", generator=gen) < 0.02,
                                   dim=1).to(torch.int32)
                if shuffled:
                    ids = ids[:, torch.randperm(n_k, device="cuda", generator=gen)].contiguous()
                q, k, v, do = (torch.rand(b, h, n, 64, device="cuda", generator=gen).mul_(2)
                               .sub_(1).to(torch.bfloat16) for n in (n_q, n_k, n_k, n_q))
                q.requires_grad_(), k.requires_grad_(), v.requires_grad_()
                mask = kernels.block_mask(n_q, n_k, b, h, {"doc": ids})
                o = ta.attention(q, k, v, kernels, inputs={"doc": ids}, block_mask=mask)
                o.backward(do)
                rows = torch.arange(n_q, device="cuda") + (n_k - n_q)
                keep = (ids[:, rows][:, :, None] == ids[:, None, :])[:, None]
                rq, rk, rv, ro = reference(q, k, v, False, keep)
                ro.backward(do.double())
                for name, got, want in (("o", o, ro.detach()), ("dq", q.grad, rq.grad),
                                        ("dk", k.grad, rk.grad), ("dv", v.grad, rv.grad)):
                    self.assertLess(relative_error(got, want), self.TOLERANCE["bf16"], name)
                # Made on the fly, inputs in order; and one mask per batch
                # (the document mask reads no head): the same output.
                again = ta.attention(q, k, v, kernels, inputs=[ids])
                self.assertTrue(torch.equal(o, again))
                per_batch = kernels.block_mask(n_q, n_k, b, h, [ids], per_head=False)
                self.assertEqual(per_batch.counts.shape[0], b)
                again = ta.attention(q, k, v, kernels, inputs=[ids], block_mask=per_batch)
                self.assertTrue(torch.equal(o, again))
        with self.assertRaisesRegex(LaunchError, "missing doc"):
            ta.attention(q, k, v, kernels)
        with self.assertRaisesRegex(LaunchError, "block mask was made for"):
            ta.attention(q, k, v, kernels, inputs=[ids], block_mask=mask_other_sizes(kernels))

    def test_wrong_inputs_are_refused(self):
        import tilec.attention as ta
        from tilec.metadata import LaunchError
        kernels = ta.AttentionKernels(PTX_DIR, variant="", dtype="bf16", head_dim=64)
        q = torch.zeros(1, 2, 16, 64, device="cuda", dtype=torch.bfloat16)
        for args, message in [((q, q, q.float()), "float32"),
                              ((q[..., :32], q[..., :32], q[..., :32]), "head_dim 32"),
                              ((q, q, q[..., :32]), "v's head_dim 32"),
                              ((q, q[:, :1], q[:, :1]), "query heads"),
                              ((q[0], q[0], q[0]), r"\[batch, heads, seq, head_dim\]"),
                              ((q.cpu(), q.cpu(), q.cpu()), "cuda:0")]:
            with self.subTest(message=message):
                with self.assertRaisesRegex(LaunchError, message):
                    ta.attention(*args, kernels)

    def test_wrong_packed_inputs_are_refused(self):
        import tilec.attention as ta
        from tilec.metadata import LaunchError
        packed = ta.AttentionKernels(PTX_DIR, variant="", dtype="bf16", head_dim=64, packed=True)
        q = torch.zeros(16, 2, 64, device="cuda", dtype=torch.bfloat16)
        cu = torch.tensor([0, 16], dtype=torch.int32, device="cuda")
        for args, message in [((q, q, q, cu.long(), cu), "int32"),
                              ((q, q, q, cu.cpu(), cu), "on the GPU"),
                              ((q, q, q, cu, cu[:1]), "batch \\+ 1 offsets"),
                              ((q[None], q[None], q[None], cu, cu), r"\[total_tokens, heads, head_dim\]")]:
            with self.subTest(message=message):
                with self.assertRaisesRegex(LaunchError, message):
                    ta.attention_varlen(*args, None, None, packed)
        with self.assertRaisesRegex(LaunchError, "attention_varlen"):
            ta.attention(q[None], q[None], q[None], packed)


if __name__ == "__main__":
    unittest.main()
