"""FlashAttention forward and backward from tilec kernels, on torch tensors.

    import tilec.attention as ta
    kernels = ta.AttentionKernels("torch-ptx", variant="causal", dtype="bf16", head_dim=64)
    o = ta.attention(q, k, v, kernels)          # q, k, v: [B, H, N, d] on cuda:0
    o.sum().backward()                          # dq, dk, dv from the backward kernels

The kernels are PTX + metadata that `scripts/compile-torch-kernels.sh` made
with `tilec --emit=ptx` (no torch is needed to build them and no C++ is built
against torch). Per variant, dtype and head dim they are the forward
(flash_attention_fwd<variant>, which also writes the log-sum-exp), the
statistics of the backward (flash_attention_bwd_prep), and dK/dV and dQ
(flash_attention_bwd_dkdv<variant>, flash_attention_bwd_dq<variant>). The
backward needs no atomics, so its gradients are bitwise repeatable.

Kernels run on torch's current stream of the tensors' device (device 0: the
driver's primary context is torch's).
"""

from __future__ import annotations

import os

import torch

from .driver import Kernel
from .metadata import LaunchError, TensorArg

_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32"}


def kernel_file(directory: str, kernel: str, dtype: str, head_dim: int) -> str:
    """Where compile-torch-kernels.sh puts a kernel: DIR/KERNEL-DTYPE-dD.ptx."""
    return os.path.join(directory, f"{kernel}-{dtype}-d{head_dim}.ptx")


def backward_stat_rows(seq_q: int) -> int:
    """Rows of the backward's statistics (delta, lse_log2) per head: seq_q
    rounded up to 4, the 16-byte rows the dK/dV kernel streams."""
    return (seq_q + 3) // 4 * 4


def tensor_arg(t: torch.Tensor) -> TensorArg:
    if t.dtype not in _DTYPES:
        raise LaunchError(f"tensors of {t.dtype} are not supported (bf16, f16, f32)")
    return TensorArg(t.data_ptr(), tuple(t.shape), tuple(t.stride()), _DTYPES[t.dtype])


class AttentionKernels:
    """The four kernels of one variant, dtype and head dim."""

    def __init__(self, directory: str, variant: str = "", dtype: str = "bf16",
                 head_dim: int = 64, group: int = 1) -> None:
        suffix = f"_{variant}" if variant else ""
        self.variant, self.dtype, self.head_dim, self.group = variant, dtype, head_dim, group

        def load(kernel: str) -> Kernel:
            path = kernel_file(directory, kernel, dtype, head_dim)
            if not os.path.exists(path):
                raise FileNotFoundError(
                    f"{path}: no such kernel; scripts/compile-torch-kernels.sh {directory} "
                    "compiles the ones this package uses")
            return Kernel(path)

        self.forward = load(f"flash_attention_fwd{suffix}")
        self.prep = load("flash_attention_bwd_prep")
        self.dkdv = load(f"flash_attention_bwd_dkdv{suffix}")
        self.dq = load(f"flash_attention_bwd_dq{suffix}")

    def check(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
            raise LaunchError(f"q, k, v must be [batch, heads, seq, head_dim]; got shapes "
                              f"{list(q.shape)}, {list(k.shape)}, {list(v.shape)}")
        if k.shape != v.shape:
            raise LaunchError(f"k {list(k.shape)} and v {list(v.shape)} must have one shape")
        b, h, _, d = q.shape
        if k.shape[0] != b or k.shape[3] != d:
            raise LaunchError(f"q {list(q.shape)} and k {list(k.shape)} differ in batch or head_dim")
        if d != self.head_dim:
            raise LaunchError(f"head_dim {d}: these kernels were compiled for {self.head_dim}")
        if h != k.shape[1] * self.group:
            raise LaunchError(f"{h} query heads on {k.shape[1]} K/V heads; these kernels take "
                              f"{self.group} query heads per K/V head")
        for name, t in (("q", q), ("k", k), ("v", v)):
            if _DTYPES.get(t.dtype) != self.dtype:
                raise LaunchError(f"{name} is {t.dtype}; these kernels take {self.dtype}")
            if not t.is_cuda or t.device.index != 0:
                raise LaunchError(f"{name} is on {t.device}; the kernels run on cuda:0")


def _heads_first(t: torch.Tensor) -> torch.Tensor:
    """[B, H, N, d] as the kernels' [B*H, N, d], contiguous."""
    b, h, n, d = t.shape
    return t.contiguous().view(b * h, n, d)


def _stream(t: torch.Tensor) -> int:
    return torch.cuda.current_stream(t.device).cuda_stream


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, kernels: AttentionKernels):
        kernels.check(q, k, v)
        b, h, n, d = q.shape
        qc, kc, vc = _heads_first(q), _heads_first(k), _heads_first(v)
        o = torch.empty_like(qc)
        lse = torch.empty(b * h, n, device=q.device, dtype=torch.float32)
        stream = _stream(q)
        kernels.forward(tensor_arg(qc), tensor_arg(kc), tensor_arg(vc), tensor_arg(o),
                        tensor_arg(lse), stream=stream)
        ctx.save_for_backward(qc, kc, vc, o, lse)
        ctx.kernels, ctx.shapes = kernels, (q.shape, k.shape)
        return o.view(q.shape)

    @staticmethod
    def backward(ctx, do):
        qc, kc, vc, o, lse = ctx.saved_tensors
        kernels: AttentionKernels = ctx.kernels
        q_shape, k_shape = ctx.shapes
        doc = do.to(qc.dtype).contiguous().view(qc.shape)
        rows = backward_stat_rows(qc.shape[1])
        # Zeros, so rows past seq_q hold finite values whatever prep writes there.
        delta = torch.zeros(qc.shape[0], rows, device=qc.device, dtype=torch.float32)
        lse_log2 = torch.zeros_like(delta)
        dq, dk, dv = torch.empty_like(qc), torch.empty_like(kc), torch.empty_like(vc)
        stream = _stream(qc)
        a = tensor_arg
        kernels.prep(a(o), a(doc), a(lse), a(delta), a(lse_log2), stream=stream)
        kernels.dkdv(a(qc), a(kc), a(vc), a(doc), a(lse_log2), a(delta), a(dk), a(dv),
                     stream=stream)
        kernels.dq(a(qc), a(kc), a(vc), a(doc), a(lse_log2), a(delta), a(dq), stream=stream)
        return dq.view(q_shape), dk.view(k_shape), dv.view(k_shape), None


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              kernels: AttentionKernels) -> torch.Tensor:
    """softmax(q·kᵀ/√d + the variant) · v for [B, H, N, d] tensors, with a
    backward; the same as torch's scaled_dot_product_attention for the
    dense (variant "") and causal ("causal", seq_q = seq_k) kernels."""
    return _Attention.apply(q, k, v, kernels)
