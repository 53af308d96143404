"""FlashAttention forward and backward from tilec kernels, on torch tensors.

    import tilec.attention as ta
    kernels = ta.AttentionKernels("torch-ptx", variant="causal", dtype="bf16", head_dim=64)
    o = ta.attention(q, k, v, kernels)          # q, k, v: [B, H, N, d] on cuda:0
    o.sum().backward()                          # dq, dk, dv from the backward kernels

    packed = ta.AttentionKernels("torch-ptx", variant="causal", packed=True)
    o = ta.attention_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                            max_seqlen_k, packed)  # q: [total_q, H, d], k, v: [total_k, Hkv, d]

The kernels are PTX + metadata that `scripts/compile-torch-kernels.sh` made
with `tilec --emit=ptx` (no torch is needed to build them and no C++ is built
against torch). Per variant, dtype and head dim they are the forward
(flash_attention_fwd<variant>, which also writes the log-sum-exp), the
statistics of the backward (flash_attention_bwd_prep), and dK/dV and dQ
(flash_attention_bwd_dkdv<variant>, flash_attention_bwd_dq<variant>); for
packed batches of sequences of any lengths (packed=True) the same four as
flash_attention_varlen<variant> and flash_attention_varlen_bwd_*. The
backward needs no atomics, so its gradients are bitwise repeatable.

Where a forward has a schedule of its own for long sequences (d = 64
dense: 256-row tiles; compiled as KERNEL-DTYPE-dD-long.ptx), forward="auto"
runs it from 4k queries and keys (`long_forward_is_faster`), the default;
forward="default" runs one kernel for every length.

backward="fused" runs the fused backward instead (dK, dV and dQ in one pass,
flash_attention_bwd_fused<variant>, then flash_attention_bwd_dq_convert):
dQ is added atomically into an f32 accumulator, so the gradients are not
bitwise repeatable. backward="auto" takes it where it was measured faster
(`fused_backward_is_faster`) and its kernels were compiled.

Variants that read tensors at run time (document ids, a bias table: the
kernels' parameters after their own) take them as `inputs`, by name or in
order; block-mask variants (document masking) also take a BlockMask, made by
`kernels.block_mask(...)` once per mask and reused (made on the fly when not
given):

    docs = ta.AttentionKernels("torch-ptx", variant="document", head_dim=64)
    mask = docs.block_mask(seq_q=N, seq_k=N, batch=B, heads=H, inputs={"doc": ids})
    o = ta.attention(q, k, v, docs, inputs={"doc": ids}, block_mask=mask)

Kernels run on torch's current stream of the tensors' device (device 0: the
driver's primary context is torch's).
"""

from __future__ import annotations

import os
from typing import Optional

import torch

from .driver import Kernel
from .metadata import LaunchError, TensorArg

_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32",
           torch.int32: "i32"}


def kernel_file(directory: str, kernel: str, dtype: str, head_dim: int,
                head_dim_v: Optional[int] = None, long: bool = False) -> str:
    """Where compile-torch-kernels.sh puts a kernel: DIR/KERNEL-DTYPE-dD.ptx,
    or DIR/KERNEL-DTYPE-dDvDV.ptx when V's head dim DV differs from D;
    `long`: the forward in the long sequences' schedule, ...-long.ptx."""
    dims = f"d{head_dim}" if head_dim_v in (None, head_dim) else f"d{head_dim}v{head_dim_v}"
    return os.path.join(directory, f"{kernel}-{dtype}-{dims}{'-long' if long else ''}.ptx")


# From here the forward takes the long sequences' schedule, where one was
# compiled (tilec --set seq_schedule=long): at d = 64 dense, 256-row tiles
# were 1.01-1.02x the default at N = 4k, 1.04-1.05x at 8k, 1.05-1.06x at
# 16k and 0.93-0.97x at 1k-2k (bench/RESULTS.md, sessions 41 and 42, H100).
LONG_SEQUENCE = 4096


def long_forward_is_faster(seq_q: int, seq_k: int) -> bool:
    """Whether a forward of `seq_q` queries over `seq_k` keys takes the long
    sequences' schedule: both at least LONG_SEQUENCE (its tiles are twice
    as many query rows, each reading every key)."""
    return seq_q >= LONG_SEQUENCE and seq_k >= LONG_SEQUENCE


def fused_backward_is_faster(variant: str, head_dim: int, seq_k: int) -> bool:
    """Where the fused backward beat the two kernels (bench/RESULTS.md,
    N = 1k / 4k / 16k): at d = 128 dense 1.08 / 1.18 / 1.19x, causal
    0.99 / 1.14 / 1.23x (H100, session 39); at d = 64, since its 128 query
    rows a step, dense 1.03 / 1.15 / 1.17x (H100, session 40), causal, on a
    persistent grid with tiles from a counter, 1.10 / 1.18 / 1.23x (H200,
    session 43). Other head dims and variants were not measured against
    it."""
    if variant not in ("", "causal") or head_dim not in (64, 128):
        return False
    return variant == "" or head_dim == 64 or seq_k >= 4096


_BACKWARDS = ("separate", "fused", "auto")
_FORWARDS = ("default", "long", "auto")


def backward_stat_rows(seq_q: int) -> int:
    """Rows of the backward's statistics (delta, lse_log2) per head: seq_q
    rounded up to 4, the 16-byte rows the dK/dV kernel streams."""
    return (seq_q + 3) // 4 * 4


def varlen_stat_rows(total_q: int, batch: int) -> int:
    """Rows per head of the packed backward's statistics: sequence b's start
    at row 4 * (cu_seqlens_q[b] // 4 + b), 16-byte aligned."""
    return 4 * (total_q // 4 + batch)


def tensor_arg(t: torch.Tensor) -> TensorArg:
    if t.dtype not in _DTYPES:
        raise LaunchError(f"tensors of {t.dtype} are not supported (bf16, f16, f32, i32)")
    return TensorArg(t.data_ptr(), tuple(t.shape), tuple(t.stride()), _DTYPES[t.dtype])


class BlockMask:
    """Which key blocks each block of 128 queries visits (partial or full),
    and the same by key blocks for dK/dV: what flash_attention_block_mask*
    made for one mask, sizes and inputs."""

    def __init__(self, counts, blocks, counts_by_keys, blocks_by_keys, sizes) -> None:
        self.counts, self.blocks = counts, blocks
        self.counts_by_keys, self.blocks_by_keys = counts_by_keys, blocks_by_keys
        self.sizes = sizes  # (batch·heads, seq_q, seq_k)


_MASK_BLOCK = 128
_OWN_PARAMS = {"q", "k", "v", "o", "lse", "do", "lse_log2", "delta", "dk", "dv", "dq",
               "block_counts", "blocks"}


class AttentionKernels:
    """The four kernels of one variant, dtype and head dim (and, for a
    block-mask variant, the two that make its block masks). `head_dim_v`:
    the head dim of V and O when it is not `head_dim` (Q's and K's).
    `backward`: "separate" (dK/dV and dQ kernels, bitwise repeatable),
    "fused" (one pass with dQ added atomically, then its conversion) or
    "auto" (fused where `fused_backward_is_faster` and compiled).
    `forward`: "auto" (the long sequences' schedule, KERNEL-...-long.ptx,
    where compiled and `long_forward_is_faster`; else the default one),
    "default" (one schedule for every length) or "long" (the long
    sequences' schedule at every length; FileNotFoundError where it was
    not compiled)."""

    def __init__(self, directory: str, variant: str = "", dtype: str = "bf16",
                 head_dim: int = 64, group: int = 1, packed: bool = False,
                 head_dim_v: Optional[int] = None, backward: str = "separate",
                 forward: str = "auto") -> None:
        suffix = f"_{variant}" if variant else ""
        self.variant, self.dtype, self.head_dim, self.group = variant, dtype, head_dim, group
        self.head_dim_v = head_dim_v or head_dim
        self.packed = packed
        if backward not in _BACKWARDS:
            raise ValueError(f"backward={backward!r}: one of {', '.join(_BACKWARDS)}")
        if backward == "fused" and packed:
            raise ValueError("backward='fused': packed batches have no fused backward")
        self.backward = backward
        if forward not in _FORWARDS:
            raise ValueError(f"forward={forward!r}: one of {', '.join(_FORWARDS)}")
        if forward == "long" and packed:
            raise ValueError("forward='long': packed batches have no long sequences' schedule")
        self.forward_choice = forward

        def path_of(kernel: str, long: bool = False) -> str:
            return kernel_file(directory, kernel, dtype, head_dim, self.head_dim_v, long)

        long_path = path_of(f"flash_attention_fwd{suffix}", long=True)
        if forward == "long" and not packed and not os.path.exists(long_path):
            # Asked for by name: missing is an error, not the default.
            raise FileNotFoundError(
                f"{long_path}: no long sequences' schedule for this variant and head dim "
                "(scripts/compile-torch-kernels.sh writes one where it differs from the default: "
                "d = 64 dense); forward='auto' takes it only where compiled")

        def load(kernel: str) -> Kernel:
            path = path_of(kernel)
            if not os.path.exists(path):
                raise FileNotFoundError(
                    f"{path}: no such kernel; scripts/compile-torch-kernels.sh {directory} "
                    "compiles the ones this package uses")
            return Kernel(path)

        if packed:
            self.forward = load(f"flash_attention_varlen{suffix}")
            self.prep = load("flash_attention_varlen_bwd_prep")
            self.dkdv = load(f"flash_attention_varlen_bwd_dkdv{suffix}")
            self.dq = load(f"flash_attention_varlen_bwd_dq{suffix}")
        else:
            self.forward = load(f"flash_attention_fwd{suffix}")
            self.prep = load("flash_attention_bwd_prep")
            self.dkdv = load(f"flash_attention_bwd_dkdv{suffix}")
            self.dq = load(f"flash_attention_bwd_dq{suffix}")
        # The forward in the long sequences' schedule, where it has one.
        self.forward_long = None
        if not packed and forward != "default" and os.path.exists(long_path):
            self.forward_long = Kernel(long_path)
        self.fused = self.dq_convert = None
        fused_names = (f"flash_attention_bwd_fused{suffix}", "flash_attention_bwd_dq_convert")
        if backward == "fused" or (
                backward == "auto" and not packed
                and all(os.path.exists(path_of(n)) for n in fused_names)):
            self.fused, self.dq_convert = (load(n) for n in fused_names)
        names = [p.name for p in self.forward.meta.params]
        # The variant's runtime inputs: the forward's parameters after its own.
        self.input_names = [n for n in names if n not in _OWN_PARAMS]
        self.uses_block_mask = "block_counts" in names
        self.make_mask = self.make_mask_by_keys = None
        if self.uses_block_mask:
            def load_mask(kernel: str) -> Kernel:
                path = os.path.join(directory, kernel + ".ptx")
                if not os.path.exists(path):
                    raise FileNotFoundError(
                        f"{path}: no such kernel; scripts/compile-torch-kernels.sh {directory} "
                        "compiles the ones this package uses")
                return Kernel(path)
            self.make_mask = load_mask(f"flash_attention_block_mask{suffix}")
            self.make_mask_by_keys = load_mask(f"flash_attention_block_mask_by_keys{suffix}")

    def input_args(self, inputs) -> list:
        """The variant's inputs (a dict by name, or a sequence in order) as
        launch arguments, checked against the kernels' parameters."""
        if inputs is None:
            inputs = {}
        if not isinstance(inputs, dict):
            inputs = list(inputs)
            if len(inputs) != len(self.input_names):
                raise LaunchError(f"{len(inputs)} inputs given; the variant takes "
                                  f"{len(self.input_names)}: {', '.join(self.input_names) or 'none'}")
            inputs = dict(zip(self.input_names, inputs))
        missing = [n for n in self.input_names if n not in inputs]
        extra = [n for n in inputs if n not in self.input_names]
        if missing or extra:
            raise LaunchError("the variant's inputs are " + (", ".join(self.input_names) or "none")
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; no input named {', '.join(extra)}" if extra else ""))
        out = []
        for n in self.input_names:
            t = inputs[n]
            if not isinstance(t, torch.Tensor) or not t.is_cuda:
                raise LaunchError(f"input '{n}' must be a tensor on the GPU")
            out.append(tensor_arg(t.contiguous()))
        return out

    def block_mask(self, seq_q: int, seq_k: int, batch: int, heads: int,
                   inputs=None, per_head: bool = True) -> BlockMask:
        """The block mask of this variant for these sizes and inputs, made on
        the GPU (the mask evaluated on every pair of 128-query and 128-key
        blocks, as FlexAttention's create_block_mask). per_head=False makes
        one per batch, `heads` times cheaper, for masks that read no head
        (document ids; as Flex's H=None: a mask that reads the head needs
        per_head=True)."""
        if not self.uses_block_mask:
            raise LaunchError(f"variant '{self.variant}' takes no block mask")
        rows = batch * heads if per_head else batch
        bh, nq, nk = rows, -(-seq_q // _MASK_BLOCK), -(-seq_k // _MASK_BLOCK)
        dev = torch.device("cuda", 0)
        counts = torch.empty(bh, nq, 2, device=dev, dtype=torch.int32)
        blocks = torch.empty(bh, nq, max(nk, 1), device=dev, dtype=torch.int32)
        counts_t = torch.empty(bh, nk, 2, device=dev, dtype=torch.int32)
        blocks_t = torch.empty(bh, nk, max(nq, 1), device=dev, dtype=torch.int32)
        ins = self.input_args(inputs)
        stream = torch.cuda.current_stream(dev).cuda_stream
        a = tensor_arg
        self.make_mask(seq_q, seq_k, a(counts), a(blocks), *ins, stream=stream)
        self.make_mask_by_keys(seq_q, seq_k, a(counts_t), a(blocks_t), *ins, stream=stream)
        return BlockMask(counts, blocks, counts_t, blocks_t, (batch * heads, seq_q, seq_k))

    def mask_args(self, mask: Optional[BlockMask], by_keys: bool, sizes) -> list:
        if not self.uses_block_mask:
            if mask is not None:
                raise LaunchError(f"variant '{self.variant}' takes no block mask")
            return []
        if mask.sizes != sizes:
            raise LaunchError(f"the block mask was made for (batch·heads, seq_q, seq_k) = "
                              f"{mask.sizes}, not {sizes}")
        if by_keys:
            return [tensor_arg(mask.counts_by_keys), tensor_arg(mask.blocks_by_keys)]
        return [tensor_arg(mask.counts), tensor_arg(mask.blocks)]

    def forward_kernel(self, seq_q: int, seq_k: int) -> Kernel:
        """The forward this call runs: the long sequences' schedule where
        compiled and chosen (forward="long", or "auto" and
        `long_forward_is_faster`), else the default."""
        if self.forward_long is not None and (
                self.forward_choice == "long" or long_forward_is_faster(seq_q, seq_k)):
            return self.forward_long
        return self.forward

    def uses_fused_backward(self, seq_k: int) -> bool:
        """Whether a backward over `seq_k` keys runs the fused kernels."""
        if self.fused is None:
            return False
        return self.backward == "fused" or fused_backward_is_faster(
            self.variant, self.head_dim, seq_k)

    def check(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        if self.packed:
            self._check_packed(q, k, v)
            return
        if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
            raise LaunchError(f"q, k, v must be [batch, heads, seq, head_dim]; got shapes "
                              f"{list(q.shape)}, {list(k.shape)}, {list(v.shape)}")
        if k.shape[:3] != v.shape[:3]:
            raise LaunchError(f"k {list(k.shape)} and v {list(v.shape)} differ in batch, heads "
                              f"or keys")
        b, h, _, d = q.shape
        if k.shape[0] != b or k.shape[3] != d:
            raise LaunchError(f"q {list(q.shape)} and k {list(k.shape)} differ in batch or head_dim")
        self._check_heads_and_devices(q, k, v, h, k.shape[1], d, v.shape[3])

    def _check_packed(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        if q.dim() != 3 or k.dim() != 3 or v.dim() != 3:
            raise LaunchError(f"packed q, k, v must be [total_tokens, heads, head_dim]; got "
                              f"shapes {list(q.shape)}, {list(k.shape)}, {list(v.shape)}")
        if k.shape[:2] != v.shape[:2]:
            raise LaunchError(f"k {list(k.shape)} and v {list(v.shape)} differ in tokens or heads")
        if k.shape[2] != q.shape[2]:
            raise LaunchError(f"q {list(q.shape)} and k {list(k.shape)} differ in head_dim")
        self._check_heads_and_devices(q, k, v, q.shape[1], k.shape[1], q.shape[2], v.shape[2])

    def _check_heads_and_devices(self, q, k, v, heads, kv_heads, d, dv) -> None:
        if d != self.head_dim:
            raise LaunchError(f"head_dim {d}: these kernels were compiled for {self.head_dim}")
        if dv != self.head_dim_v:
            raise LaunchError(f"v's head_dim {dv}: these kernels were compiled for "
                              f"{self.head_dim_v}")
        if heads != kv_heads * self.group:
            raise LaunchError(f"{heads} query heads on {kv_heads} K/V heads; these kernels take "
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
    def forward(ctx, q, k, v, kernels: AttentionKernels, inputs, mask: Optional[BlockMask]):
        b, h, n, d = q.shape
        qc, kc, vc = _heads_first(q), _heads_first(k), _heads_first(v)
        o = qc.new_empty(b * h, n, v.shape[3])
        lse = torch.empty(b * h, n, device=q.device, dtype=torch.float32)
        stream = _stream(q)
        extra = kernels.input_args(inputs)
        sizes = (b * h, n, k.shape[2])
        forward = kernels.forward_kernel(n, k.shape[2])
        forward(tensor_arg(qc), tensor_arg(kc), tensor_arg(vc), tensor_arg(o), tensor_arg(lse),
                *kernels.mask_args(mask, False, sizes), *extra, stream=stream)
        ctx.save_for_backward(qc, kc, vc, o, lse)
        ctx.kernels, ctx.shapes = kernels, (q.shape, k.shape, v.shape)
        ctx.inputs, ctx.mask, ctx.sizes = inputs, mask, sizes
        return o.view(b, h, n, v.shape[3])

    @staticmethod
    def backward(ctx, do):
        qc, kc, vc, o, lse = ctx.saved_tensors
        kernels: AttentionKernels = ctx.kernels
        q_shape, k_shape, v_shape = ctx.shapes
        doc = do.to(qc.dtype).contiguous().view(o.shape)
        rows = backward_stat_rows(qc.shape[1])
        # Zeros, so rows past seq_q hold finite values whatever prep writes there.
        delta = torch.zeros(qc.shape[0], rows, device=qc.device, dtype=torch.float32)
        lse_log2 = torch.zeros_like(delta)
        dq, dk, dv = torch.empty_like(qc), torch.empty_like(kc), torch.empty_like(vc)
        stream = _stream(qc)
        a = tensor_arg
        extra = kernels.input_args(ctx.inputs)
        by_keys = kernels.mask_args(ctx.mask, True, ctx.sizes)
        by_queries = kernels.mask_args(ctx.mask, False, ctx.sizes)
        kernels.prep(a(o), a(doc), a(lse), a(delta), a(lse_log2), stream=stream)
        if kernels.uses_fused_backward(kc.shape[1]):
            # dQ's shares are added into a zeroed f32 accumulator, then
            # converted (the conversion zeroes it again, unused here).
            dq_acc = torch.zeros(qc.shape, device=qc.device, dtype=torch.float32)
            kernels.fused(a(qc), a(kc), a(vc), a(doc), a(lse_log2), a(delta), a(dk), a(dv),
                          a(dq_acc), *by_keys, *extra, stream=stream)
            kernels.dq_convert(a(dq_acc), a(dq), stream=stream)
        else:
            kernels.dkdv(a(qc), a(kc), a(vc), a(doc), a(lse_log2), a(delta), a(dk), a(dv),
                         *by_keys, *extra, stream=stream)
            kernels.dq(a(qc), a(kc), a(vc), a(doc), a(lse_log2), a(delta), a(dq), *by_queries,
                       *extra, stream=stream)
        return dq.view(q_shape), dk.view(k_shape), dv.view(v_shape), None, None, None


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              kernels: AttentionKernels, inputs=None,
              block_mask: Optional[BlockMask] = None) -> torch.Tensor:
    """softmax(q·kᵀ/√d + the variant) · v for [B, H, N, d] tensors (v and
    the output [B, H, N, d_v] with kernels of head_dim_v = d_v), with a
    backward; the same as torch's scaled_dot_product_attention for the
    dense (variant "") and causal ("causal", seq_q = seq_k) kernels.
    `inputs`: the variant's runtime tensors (by name or in order);
    `block_mask`: a block-mask variant's (kernels.block_mask; made here
    when None)."""
    if kernels.packed:
        raise LaunchError("these kernels take packed batches: use attention_varlen")
    kernels.check(q, k, v)
    kernels.input_args(inputs)  # checked before anything runs
    if kernels.uses_block_mask and block_mask is None:
        block_mask = kernels.block_mask(q.shape[2], k.shape[2], q.shape[0], q.shape[1], inputs)
    return _Attention.apply(q, k, v, kernels, inputs, block_mask)


def _check_offsets(name: str, cu: torch.Tensor) -> None:
    if cu.dim() != 1 or cu.dtype != torch.int32 or not cu.is_cuda:
        raise LaunchError(f"{name} must be a 1-D int32 tensor on the GPU (batch + 1 offsets); "
                          f"got {cu.dtype} of shape {list(cu.shape)} on {cu.device}")
    if cu.shape[0] < 1:
        raise LaunchError(f"{name} is empty; it holds batch + 1 offsets, the first 0")


class _VarlenAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, cu_q, cu_k, max_q: int, max_k: int, kernels: AttentionKernels):
        kernels.check(q, k, v)
        if cu_q.shape != cu_k.shape:
            raise LaunchError(f"cu_seqlens_q {list(cu_q.shape)} and cu_seqlens_k "
                              f"{list(cu_k.shape)} must both hold batch + 1 offsets")
        qc, kc, vc = q.contiguous(), k.contiguous(), v.contiguous()
        o = qc.new_empty(q.shape[0], q.shape[1], v.shape[2])
        lse = torch.empty(q.shape[1], q.shape[0], device=q.device, dtype=torch.float32)
        a, t = tensor_arg, lambda x: x.transpose(0, 1)  # [total, H, d] as [H, total, d]
        kernels.forward(a(t(qc)), a(t(kc)), a(t(vc)), a(t(o)), a(lse), a(cu_q), a(cu_k),
                        int(max_q), stream=_stream(q))
        ctx.save_for_backward(qc, kc, vc, o, lse, cu_q, cu_k)
        ctx.kernels, ctx.max_q, ctx.max_k = kernels, int(max_q), int(max_k)
        return o

    @staticmethod
    def backward(ctx, do):
        qc, kc, vc, o, lse, cu_q, cu_k = ctx.saved_tensors
        kernels: AttentionKernels = ctx.kernels
        doc = do.to(qc.dtype).contiguous()
        rows = varlen_stat_rows(qc.shape[0], cu_q.shape[0] - 1)
        # Rows between the sequences are never written; the kernels do not read them.
        delta = torch.empty(qc.shape[1], rows, device=qc.device, dtype=torch.float32)
        lse_log2 = torch.empty_like(delta)
        dq, dk, dv = torch.empty_like(qc), torch.empty_like(kc), torch.empty_like(vc)
        stream = _stream(qc)
        a, t = tensor_arg, lambda x: x.transpose(0, 1)
        kernels.prep(a(t(o)), a(t(doc)), a(lse), a(delta), a(lse_log2), a(cu_q), ctx.max_q,
                     stream=stream)
        kernels.dkdv(a(t(qc)), a(t(kc)), a(t(vc)), a(t(doc)), a(lse_log2), a(delta), a(t(dk)),
                     a(t(dv)), a(cu_q), a(cu_k), ctx.max_k, stream=stream)
        kernels.dq(a(t(qc)), a(t(kc)), a(t(vc)), a(t(doc)), a(lse_log2), a(delta), a(t(dq)),
                   a(cu_q), a(cu_k), ctx.max_q, stream=stream)
        return dq, dk, dv, None, None, None, None, None


def _longest(cu: torch.Tensor) -> int:
    return int((cu[1:] - cu[:-1]).max().item()) if cu.shape[0] > 1 else 0


def attention_varlen(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                     cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor,
                     max_seqlen_q: Optional[int], max_seqlen_k: Optional[int],
                     kernels: AttentionKernels) -> torch.Tensor:
    """Attention over a packed batch of sequences of any lengths (as
    FlashAttention's flash_attn_varlen_func): q [total_q, Hq, d], k
    [total_k, Hkv, d], v [total_k, Hkv, d_v] (d_v = d but with head_dim_v); sequence b is rows cu_seqlens[b] to cu_seqlens[b + 1]
    (int32 on the GPU, batch + 1 offsets, non-decreasing). Returns o
    [total_q, Hq, d_v], with a backward. `kernels`: packed=True.

    max_seqlen_q / max_seqlen_k size the grids and must be at least the
    longest sequence's length (rows past them are not computed); None reads
    them from the offsets (one copy to the host, which waits for the GPU).
    Offsets past the tensors are clamped into them."""
    if not kernels.packed:
        raise LaunchError("attention_varlen needs AttentionKernels(..., packed=True)")
    for name, cu in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k)):
        _check_offsets(name, cu)
    if max_seqlen_q is None:
        max_seqlen_q = _longest(cu_seqlens_q)
    if max_seqlen_k is None:
        max_seqlen_k = _longest(cu_seqlens_k)
    return _VarlenAttention.apply(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                                  max_seqlen_k, kernels)
