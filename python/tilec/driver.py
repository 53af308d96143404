"""Loading tilec PTX and launching it through the CUDA driver API (libcuda.so.1
through ctypes: no CUDA Python package and no build step is needed).

The driver is opened on first use, so importing this module works on a
machine without a GPU; `Driver.open()` raises CudaError saying why not.
Kernels run in the device's primary context (the one torch uses) on the
stream the caller names.
"""

from __future__ import annotations

import ctypes
import os
from collections import OrderedDict
from typing import Optional, Sequence

from .metadata import Arg, Metadata, LaunchError, check_reach, launch_grid, load_metadata, \
    pack_arguments, tensor_map_encodings, tensor_reach

_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_STATIC_SHARED_LIMIT = 48 * 1024
_CU_DEVICE_ATTRIBUTE_SM_COUNT = 16
# Launches a Kernel keeps prepared (see Kernel.__call__).
LAUNCHES_KEPT = 64


class CudaError(RuntimeError):
    """A CUDA driver call that failed, with the call, what it was doing and
    the driver's name for the error."""


class _TensorMapStorage:
    """One CUtensorMap: 128 opaque bytes at a 64-byte aligned address (ctypes
    cannot align a structure to 64, so it is placed inside a larger buffer)."""

    def __init__(self) -> None:
        self._buffer = ctypes.create_string_buffer(128 + 64)
        self.address = (ctypes.addressof(self._buffer) + 63) & ~63


class Driver:
    _instance: Optional["Driver"] = None

    @classmethod
    def open(cls) -> "Driver":
        if cls._instance is None:
            cls._instance = Driver()
        return cls._instance

    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise CudaError(f"no CUDA driver (libcuda.so.1): {e}") from None
        self._check(self.lib.cuInit(0), "cuInit", "starting the driver")
        self.device = ctypes.c_int()
        self._check(self.lib.cuDeviceGet(ctypes.byref(self.device), 0), "cuDeviceGet", "device 0")
        self.context = ctypes.c_void_p()
        self._check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), self.device),
                    "cuDevicePrimaryCtxRetain", "device 0's primary context")
        encode = getattr(self.lib, "cuTensorMapEncodeTiled", None)
        self._encode = encode

    def _check(self, result: int, call: str, context: str) -> None:
        if result == 0:
            return
        name = ctypes.c_char_p()
        text = ctypes.c_char_p()
        self.lib.cuGetErrorName(result, ctypes.byref(name))
        self.lib.cuGetErrorString(result, ctypes.byref(text))
        raise CudaError(f"{call} ({context}): {(name.value or b'?').decode()} "
                        f"({(text.value or b'').decode()})")

    def make_current(self) -> None:
        self._check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent", "primary context")

    def load(self, image: bytes, meta: Metadata):
        """The metadata's kernel from PTX text or a cubin image: (module, function)."""
        self.make_current()
        module = ctypes.c_void_p()
        data = ctypes.create_string_buffer(image if image.endswith(b"\0") else image + b"\0")
        self._check(self.lib.cuModuleLoadData(ctypes.byref(module), data), "cuModuleLoadData",
                    f"loading {meta.kernel}")
        function = ctypes.c_void_p()
        self._check(self.lib.cuModuleGetFunction(ctypes.byref(function), module,
                                                 meta.kernel.encode()),
                    "cuModuleGetFunction", f"finding {meta.kernel}")
        if meta.shared_bytes > _STATIC_SHARED_LIMIT:
            self._check(self.lib.cuFuncSetAttribute(
                function, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, meta.shared_bytes),
                "cuFuncSetAttribute", f"{meta.kernel}: {meta.shared_bytes} bytes of shared memory")
        return module, function

    def resident_programs(self, function, meta: Metadata) -> int:
        """How many programs of `function` run at once on the GPU (its
        occupancy per SM times the SMs): a persistent launch's size."""
        per_sm, sms = ctypes.c_int(), ctypes.c_int()
        self._check(self.lib.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(per_sm), function, ctypes.c_int(meta.threads_per_block),
            ctypes.c_size_t(meta.shared_bytes)),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor", meta.kernel)
        self._check(self.lib.cuDeviceGetAttribute(ctypes.byref(sms), _CU_DEVICE_ATTRIBUTE_SM_COUNT,
                                                  self.device), "cuDeviceGetAttribute",
                    "multiprocessor count")
        if per_sm.value < 1:
            raise LaunchError(f"{meta.kernel}: not one program fits on an SM "
                              f"({meta.threads_per_block} threads, {meta.shared_bytes} bytes of "
                              "shared memory)")
        return per_sm.value * sms.value

    def encode_tensor_maps(self, meta: Metadata, args: Sequence[Arg]) -> list:
        encodings = tensor_map_encodings(meta, args)
        if encodings and self._encode is None:
            raise CudaError(f"{meta.kernel} reads through tensor maps; this driver has no "
                            "cuTensorMapEncodeTiled (CUDA 12 or newer)")
        maps = []
        for j, e in enumerate(encodings):
            rank = len(e.global_dim)
            storage = _TensorMapStorage()
            result = self._encode(
                ctypes.c_void_p(storage.address), e.data_type, rank, ctypes.c_void_p(e.address),
                (ctypes.c_uint64 * rank)(*e.global_dim),
                (ctypes.c_uint64 * max(rank - 1, 1))(*e.global_strides),
                (ctypes.c_uint32 * rank)(*e.box_dim), (ctypes.c_uint32 * rank)(*e.element_strides),
                e.interleave, e.swizzle, e.l2_promotion, e.oob_fill)
            self._check(result, "cuTensorMapEncodeTiled",
                        f"{meta.kernel} tensor_maps[{j}]: globalDim {list(e.global_dim)}, "
                        f"globalStrides {list(e.global_strides)} bytes, boxDim {list(e.box_dim)}")
            maps.append(storage)
        return maps

    def check_allocations(self, meta: Metadata, reach: Sequence[tuple]) -> None:
        """Every tensor's reach (`tensor_reach`) lies inside the device
        allocation it starts in (from any allocator that goes through the
        driver: PyTorch's caching allocator, CuPy, cuMemAlloc), so no launch
        reads or writes past its buffers."""
        for i, first, end in reach:
            base, size = ctypes.c_uint64(), ctypes.c_size_t()
            found = 0 <= first < 2**64 and self.lib.cuMemGetAddressRange_v2(
                ctypes.byref(base), ctypes.byref(size), ctypes.c_uint64(first)) == 0
            check_reach(meta, i, first, end, base.value if found else None, size.value)

    def prepare(self, function, meta: Metadata, grid: Sequence[int], args: Sequence[Arg],
                resident: int = 0) -> "PreparedLaunch":
        """Checks, packs and encodes a launch of `function` once. `grid` is
        the kernel's; a persistent kernel gets it as arguments and runs
        min(programs, `resident`) programs that loop over it."""
        slots = pack_arguments(meta, args, grid)
        reach = tensor_reach(meta, args)
        self.check_allocations(meta, reach)
        maps = self.encode_tensor_maps(meta, args)
        for g in grid:
            if not 0 < g <= 2**31 - 1:
                raise LaunchError(f"{meta.kernel}: grid {tuple(grid)} must be positive")
        if meta.persistent:
            total = grid[0] * grid[1] * grid[2]
            if total > 2**31 - 1:
                raise LaunchError(f"{meta.kernel}: a persistent grid of {total} programs")
            grid = (min(total, max(resident, 1)), 1, 1)
        return PreparedLaunch(function, tuple(grid), reach, slots, maps)

    def launch_prepared(self, meta: Metadata, prepared: "PreparedLaunch", stream: int = 0,
                        recheck: bool = True) -> None:
        """Launches `prepared` on `stream`, its tensors' reach checked again
        against the allocations that hold them now (`recheck`; not right
        after `prepare`, which has just checked them)."""
        if recheck:
            self.check_allocations(meta, prepared.reach)
        grid = prepared.grid
        self._check(self.lib.cuLaunchKernel(
            prepared.function, ctypes.c_uint(grid[0]), ctypes.c_uint(grid[1]),
            ctypes.c_uint(grid[2]), ctypes.c_uint(meta.threads_per_block), ctypes.c_uint(1),
            ctypes.c_uint(1), ctypes.c_uint(meta.shared_bytes), ctypes.c_void_p(stream),
            prepared.pointers, None),
            "cuLaunchKernel", f"{meta.kernel}, grid {grid}, block {meta.threads_per_block}, "
                              f"shared {meta.shared_bytes}")

    def launch(self, function, meta: Metadata, grid: Sequence[int], args: Sequence[Arg],
               stream: int = 0, resident: int = 0) -> None:
        """`prepare`, then `launch_prepared` on `stream`."""
        self.launch_prepared(meta, self.prepare(function, meta, grid, args, resident), stream,
                             recheck=False)


class PreparedLaunch:
    """What cuLaunchKernel takes for one launch, made once: the function, the
    grid launched, the kernel parameters' addresses, and the packed slots and
    tensor maps they point into (kept alive here); and the byte ranges the
    tensors reach, which every launch checks again (`launch_prepared`)."""

    def __init__(self, function, grid: tuple, reach: list, slots: list, maps: list) -> None:
        self.function, self.grid, self.reach = function, grid, reach
        self._keep = (slots, maps)
        addresses = [ctypes.addressof(s) for s in slots] + [m.address for m in maps]
        self.pointers = (ctypes.c_void_p * len(addresses))(*addresses)


def _launch_key(args: Sequence[Arg]) -> tuple:
    """The arguments as a dictionary key that tells apart whatever packs
    differently: types (1, 1.0 and True are equal in Python) and the sign
    of a zero float."""
    return tuple((float, a.hex()) if isinstance(a, float) else (type(a), a) for a in args)


class Kernel:
    """One compiled kernel: `tilec --emit=ptx -o DIR/NAME.ptx` wrote
    DIR/NAME.ptx and DIR/NAME.json."""

    def __init__(self, ptx_path: str) -> None:
        stem, _ = os.path.splitext(ptx_path)
        self.meta = load_metadata(stem + ".json")
        with open(ptx_path, "rb") as f:
            self._image = f.read()
        # (module, function) by stream: one for all streams, except for a
        # kernel that claims tiles from a counter of its module, whose
        # launches on different streams could overlap.
        self._loaded = {}
        self._resident = 0
        # Launches prepared for the arguments seen last (a few hundred
        # microseconds of Python each: packing, grids, tensor maps), by
        # module, arguments and grid; the least recently used go first.
        self._prepared: "OrderedDict[tuple, PreparedLaunch]" = OrderedDict()

    @property
    def name(self) -> str:
        return self.meta.kernel

    def __call__(self, *args: Arg, stream: int = 0, grid: Optional[Sequence[int]] = None) -> None:
        """Launches on `stream` with the metadata's grid for `args` (or
        `grid`); a grid with no programs launches nothing. The arguments'
        checks, packing and tensor maps are made once for the same
        arguments (the last `LAUNCHES_KEPT` kinds of call); the tensors'
        allocations are checked on every launch."""
        key = stream if self.meta.tile_counter else None
        try:
            launch_key = (key, _launch_key(args), None if grid is None else tuple(grid))
            prepared = self._prepared.get(launch_key)
        except TypeError:  # an argument that is no key (pack_arguments says what is wrong)
            launch_key, prepared = None, None
        if prepared is not None:
            self._prepared.move_to_end(launch_key)
            Driver.open().launch_prepared(self.meta, prepared, stream)
            return
        if grid is None:
            grid = launch_grid(self.meta, args)
        if 0 in tuple(grid):
            return
        driver = Driver.open()
        if key not in self._loaded:
            self._loaded[key] = driver.load(self._image, self.meta)
            if self.meta.persistent and not self._resident:
                self._resident = driver.resident_programs(self._loaded[key][1], self.meta)
        _, function = self._loaded[key]
        prepared = driver.prepare(function, self.meta, grid, args, self._resident)
        if launch_key is not None:
            self._prepared[launch_key] = prepared
            if len(self._prepared) > LAUNCHES_KEPT:
                self._prepared.popitem(last=False)
        driver.launch_prepared(self.meta, prepared, stream, recheck=False)
