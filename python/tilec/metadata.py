"""A tilec kernel's launch metadata (the JSON `tilec --emit=ptx` writes next to
the PTX) and the packing of launch arguments into kernel parameters.

Pure Python: nothing here needs a GPU, CUDA or torch. The schema is the one in
include/tilec/Runtime/Metadata.h; the checks follow the C++ runtime's
(lib/Runtime/Runtime.cpp), so a launch from Python is refused where one from
C++ would be, with the kernel, the argument and what is wrong.

A tensor parameter becomes its device address (8 bytes), its sizes (one i32
per dimension) and its strides in elements (one i64 per dimension); a pointer
its address; a scalar its value as the parameter's type. Kernels that read
through TMA take one CUDA tensor map (128 bytes, by value) per entry of
"tensor_maps" after all of those. A persistent kernel ("persistent": true)
takes its grid (three i32: programs along x, y, z) between the parameters
and the tensor maps, and runs as many programs as fit on the GPU, each
looping over the grid.
"""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Optional, Sequence, Tuple, Union

DTYPE_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f64": 8, "i8": 1, "i32": 4, "i64": 8}

# cuTensorMapEncodeTiled's enums (cuda.h), as lib/Runtime/TensorMap.cpp uses them.
TENSOR_MAP_DATA_TYPE = {"f16": 6, "f32": 7, "bf16": 9}
TENSOR_MAP_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
TENSOR_MAP_INTERLEAVE_NONE = 0
TENSOR_MAP_L2_PROMOTION_256B = 3
TENSOR_MAP_OOB_FILL_NONE = 0

INT32_MAX = 2**31 - 1


class LaunchError(ValueError):
    """A launch that does not fit the kernel's parameters or metadata."""


@dataclass(frozen=True)
class TensorArg:
    """A tensor argument: device address, sizes and strides (in elements),
    and its element type when the caller knows it (checked against the
    parameter's)."""

    address: int
    shape: tuple
    strides: tuple
    dtype: Optional[str] = None


@dataclass(frozen=True)
class PointerArg:
    address: int


Arg = Union[TensorArg, PointerArg, int, float]


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "tensor", "pointer" or "scalar"
    dtype: str
    rank: int = 0
    aligned: bool = False
    unit_stride: bool = False  # the kernel takes the innermost stride to be 1
    sizes: Optional[Tuple[Optional[int], ...]] = None  # compiled-for sizes, None where any
    # per dimension: (tensor parameter, its dimension) whose size it must have, None where any
    sizes_of: Optional[Tuple[Optional[Tuple[str, int]], ...]] = None


@dataclass(frozen=True)
class GridDim:
    constant: int = 1
    param: Optional[str] = None
    axis: Optional[int] = None  # None with a param: a scalar's value
    divisor: int = 1
    less: int = 0  # taken from the extent first (B + 1 offsets: B programs)


@dataclass(frozen=True)
class TensorMap:
    param: int  # index into Metadata.params
    box: tuple  # elements per dimension, outermost first
    swizzle: int


@dataclass
class Metadata:
    kernel: str
    arch: str
    num_warps: int
    threads_per_block: int
    shared_bytes: int
    params: list
    function_args: list
    grid: Optional[list]
    tensor_maps: list = field(default_factory=list)
    persistent: bool = False
    # Tiles claimed from a counter of the loaded module: launches through
    # one module must not overlap (Kernel loads one per stream).
    tile_counter: bool = False

    def param_index(self, name: str) -> int:
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        raise LaunchError(f"{self.kernel} has no parameter '{name}'")


def _require(cond: bool, what: str) -> None:
    if not cond:
        raise LaunchError(what)


def parse_metadata(text: str, source: str = "metadata") -> Metadata:
    """Reads launch metadata; LaunchError naming `source` when it is malformed."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise LaunchError(f"{source}: not JSON: {e}") from None
    _require(isinstance(doc, dict), f"{source}: expected a JSON object")

    def member(obj, key, kind, where):
        _require(key in obj, f"{source}: {where} has no '{key}'")
        value = obj[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        _require(ok, f"{source}: {where}'s '{key}' is not {kind.__name__}")
        return value

    params = []
    for i, p in enumerate(member(doc, "params", list, "the document")):
        where = f"params[{i}]"
        _require(isinstance(p, dict), f"{source}: {where} is not an object")
        kind = member(p, "kind", str, where)
        _require(kind in ("tensor", "pointer", "scalar"), f"{source}: {where}: unknown kind '{kind}'")
        rank = member(p, "rank", int, where) if kind == "tensor" else 0
        sizes = p.get("sizes")
        if sizes is not None:
            ok = (kind == "tensor" and isinstance(sizes, list) and len(sizes) == rank and
                  all(n is None or (isinstance(n, int) and not isinstance(n, bool) and n >= 0)
                      for n in sizes))
            _require(ok, f"{source}: {where} has malformed 'sizes' (one non-negative integer "
                         f"or null per dimension of a tensor)")
            sizes = tuple(sizes)
        sizes_of = p.get("sizes_of")
        if sizes_of is not None:
            def size_of(item):
                if item is None:
                    return None
                ok = (isinstance(item, dict) and isinstance(item.get("param"), str) and
                      isinstance(item.get("axis"), int) and not isinstance(item.get("axis"), bool)
                      and item["axis"] >= 0)
                _require(ok, f"{source}: {where} has malformed 'sizes_of' (one null or "
                             f"{{\"param\": name, \"axis\": dimension}} per dimension)")
                return (item["param"], item["axis"])
            _require(kind == "tensor" and isinstance(sizes_of, list) and len(sizes_of) == rank,
                     f"{source}: {where} has malformed 'sizes_of' (one entry per dimension of "
                     f"a tensor)")
            sizes_of = tuple(size_of(item) for item in sizes_of)
        params.append(Param(member(p, "name", str, where), kind, member(p, "dtype", str, where),
                            rank, bool(p.get("aligned", False)),
                            bool(p.get("unit_stride", False)), sizes, sizes_of))
    names = [p.name for p in params]
    for p in params:
        for of in p.sizes_of or ():
            if of is not None:
                other = next((q for q in params if q.name == of[0]), None)
                _require(other is not None and other.kind == "tensor" and of[1] < other.rank,
                         f"{source}: parameter '{p.name}' takes a size of '{of[0]}' dimension "
                         f"{of[1]}, which is not a tensor's dimension")

    grid = None
    if doc.get("grid") is not None:
        grid = []
        dims = member(doc, "grid", list, "the document")
        _require(len(dims) == 3, f"{source}: 'grid' has {len(dims)} dimensions, not 3")
        for i, g in enumerate(dims):
            where = f"grid[{i}]"
            _require(isinstance(g, dict), f"{source}: {where} is not an object")
            if "constant" in g:
                c = member(g, "constant", int, where)
                _require(c >= 1, f"{source}: {where}: the constant must be positive, got {c}")
                grid.append(GridDim(constant=c))
                continue
            name = member(g, "param", str, where)
            _require(name in names, f"{source}: {where}: '{name}' is not a parameter of the kernel")
            param = params[names.index(name)]
            axis = g.get("axis")
            if axis is None:
                _require(param.kind == "scalar" and param.dtype in ("i32", "i64"),
                         f"{source}: {where}: '{name}' is not an integer scalar")
            else:
                _require(isinstance(axis, int) and param.kind == "tensor" and 0 <= axis < param.rank,
                         f"{source}: {where}: '{name}' has no axis {axis}")
            divisor = g.get("divisor", 1)
            _require(isinstance(divisor, int) and divisor >= 1,
                     f"{source}: {where}: the divisor must be a positive integer, got {divisor}")
            less = g.get("less", 0)
            _require(isinstance(less, int) and less >= 0,
                     f"{source}: {where}: 'less' must be a non-negative integer, got {less}")
            grid.append(GridDim(param=name, axis=axis, divisor=divisor, less=less))

    maps = []
    for i, m in enumerate(doc.get("tensor_maps") or []):
        where = f"tensor_maps[{i}]"
        name = member(m, "param", str, where)
        _require(name in names, f"{source}: {where}: '{name}' is not a parameter of the kernel")
        param = params[names.index(name)]
        box = tuple(member(m, "box", list, where))
        swizzle = member(m, "swizzle", int, where)
        _require(param.kind == "tensor" and param.dtype in TENSOR_MAP_DATA_TYPE,
                 f"{source}: {where}: '{name}' cannot have a tensor map")
        _require(len(box) == param.rank and all(isinstance(b, int) and 1 <= b <= 256 for b in box),
                 f"{source}: {where}: box {list(box)} does not fit '{name}' (rank {param.rank}, 1..256)")
        _require(swizzle in TENSOR_MAP_SWIZZLE, f"{source}: {where}: swizzle {swizzle} is not 0/32/64/128")
        maps.append(TensorMap(names.index(name), box, swizzle))

    meta = Metadata(
        kernel=member(doc, "kernel", str, "the document"),
        arch=member(doc, "arch", str, "the document"),
        num_warps=member(doc, "num_warps", int, "the document"),
        threads_per_block=member(doc, "threads_per_block", int, "the document"),
        shared_bytes=member(doc, "shared_bytes", int, "the document"),
        params=params,
        function_args=list(member(doc, "function_args", list, "the document")),
        grid=grid,
        tensor_maps=maps,
        persistent=doc.get("persistent") is True,
        tile_counter=doc.get("tile_counter") is True,
    )
    _require(not meta.tile_counter or meta.persistent,
             f"{source}: \"tile_counter\" needs \"persistent\"")
    _require(1 <= meta.threads_per_block <= 1024,
             f"{source}: threads_per_block {meta.threads_per_block} is outside [1, 1024]")
    _require(meta.shared_bytes >= 0, f"{source}: shared_bytes is negative")
    return meta


def load_metadata(path: str) -> Metadata:
    with open(path) as f:
        return parse_metadata(f.read(), path)


def _argument_error(meta: Metadata, i: int, what: str) -> LaunchError:
    p = meta.params[i]
    return LaunchError(f"{meta.kernel} argument {i} ('{p.name}', a {p.kind}): {what}")


def tensor_reach(meta: Metadata, args: Sequence[Arg]) -> list:
    """(index, first byte address, end byte address) of every tensor
    argument with elements: the bytes its shape and strides reach (strides
    may be negative). The driver checks each range against the device
    allocation its first byte lies in."""
    reach = []
    for i, (p, a) in enumerate(zip(meta.params, args)):
        if p.kind != "tensor" or not isinstance(a, TensorArg) or 0 in tuple(a.shape):
            continue
        size = DTYPE_BYTES[p.dtype]
        low = sum(min(0, (n - 1) * s * size) for n, s in zip(a.shape, a.strides))
        high = size + sum(max(0, (n - 1) * s * size) for n, s in zip(a.shape, a.strides))
        reach.append((i, a.address + low, a.address + high))
    return reach


def check_reach(meta: Metadata, i: int, first: int, end: int, base: Optional[int],
                size: int) -> None:
    """Raises LaunchError unless bytes [first, end) of argument `i` lie in
    the allocation [base, base + size) (`base` None: no allocation holds
    `first`)."""
    if base is None:
        raise _argument_error(meta, i, f"its first element ({first:#x}) is not in a device "
                                       "allocation")
    if end > base + size:
        raise _argument_error(meta, i, f"its shape and strides reach {end - first} bytes from "
                                       f"{first:#x}, {end - base - size} bytes past the end of its "
                                       f"allocation ({size} bytes at {base:#x})")


def check_arguments(meta: Metadata, args: Sequence[Arg]) -> None:
    """Raises LaunchError unless `args` fit the kernel's parameters: count,
    kinds, ranks, sizes, the innermost stride of unit-stride tensors, and the
    16-byte rule of aligned tensors and of tensors read through tensor maps."""
    if len(args) != len(meta.params):
        raise LaunchError(f"{meta.kernel} takes {len(meta.params)} arguments, the launch gives {len(args)}")
    for i, (p, a) in enumerate(zip(meta.params, args)):
        if p.kind == "tensor":
            if not isinstance(a, TensorArg):
                raise _argument_error(meta, i, "expected a TensorArg")
            if len(a.shape) != p.rank or len(a.strides) != p.rank:
                raise _argument_error(meta, i, f"expected rank {p.rank}, got shape {list(a.shape)} "
                                               f"and strides {list(a.strides)}")
            if a.dtype is not None and a.dtype != p.dtype:
                raise _argument_error(meta, i, f"expected {p.dtype} elements, got {a.dtype}")
            if not a.address:
                raise _argument_error(meta, i, "null device address")
            for d, n in enumerate(a.shape):
                if not 0 <= n <= INT32_MAX:
                    raise _argument_error(meta, i, f"dimension {d} = {n} is outside [0, 2^31)")
            for d, (n, want) in enumerate(zip(a.shape, p.sizes or ())):
                if want is not None and n != want:
                    raise _argument_error(meta, i, f"dimension {d} = {n}: the kernel was "
                                                   f"compiled for {want}")
            for d, of in enumerate(p.sizes_of or ()):
                if of is None:
                    continue
                j = next(j for j, q in enumerate(meta.params) if q.name == of[0])
                other = args[j]
                if isinstance(other, TensorArg) and of[1] < len(other.shape) and \
                        a.shape[d] != other.shape[of[1]]:
                    raise _argument_error(meta, i, f"dimension {d} = {a.shape[d]}: the kernel "
                                                   f"needs the size of '{of[0]}' dimension "
                                                   f"{of[1]}, {other.shape[of[1]]}")
            if p.unit_stride and a.shape[-1] > 1 and a.strides[-1] != 1:
                raise _argument_error(meta, i, "the kernel reads it with innermost stride 1, got "
                                               f"stride {a.strides[-1]} (make the tensor contiguous)")
            if p.aligned:
                per_vector = 16 // DTYPE_BYTES[p.dtype]
                ok = (a.address % 16 == 0 and a.strides[-1] == 1 and a.shape[-1] % per_vector == 0
                      and all(s % per_vector == 0 for s in a.strides[:-1]))
                if not ok:
                    raise _argument_error(
                        meta, i, "the kernel needs a 16-byte aligned base, innermost stride 1, and "
                                 f"other strides and the innermost size multiples of {per_vector} "
                                 f"elements; got address {a.address:#x}, shape {list(a.shape)}, "
                                 f"strides {list(a.strides)}")
        elif p.kind == "pointer":
            if not isinstance(a, PointerArg):
                raise _argument_error(meta, i, "expected a PointerArg")
        else:
            if isinstance(a, bool) or not isinstance(a, (int, float)):
                raise _argument_error(meta, i, f"expected a number, got {type(a).__name__}")
            if p.dtype in ("i32", "i64") and not float(a).is_integer():
                raise _argument_error(meta, i, f"expected an integer, got {a}")
    for j, m in enumerate(meta.tensor_maps):
        a = args[m.param]
        size = DTYPE_BYTES[meta.params[m.param].dtype]
        why = None
        if a.address % 16:
            why = f"a 16-byte aligned address, got {a.address:#x}"
        elif a.strides[-1] != 1:
            why = f"innermost stride 1, got {a.strides[-1]}"
        else:
            for d, s in enumerate(a.strides[:-1]):
                if s < 0 or s * size % 16 or s * size >= 2**40:
                    why = f"strides of all but the innermost dimension to be multiples of 16 bytes, " \
                          f"got strides[{d}] = {s} elements"
                    break
        if why:
            raise _argument_error(meta, m.param, f"its tensor map (tensor_maps[{j}], box "
                                                 f"{list(m.box)}) needs {why}")


def launch_grid(meta: Metadata, args: Sequence[Arg]) -> tuple:
    """The grid the metadata's rule gives for `args` (checked first)."""
    if meta.grid is None:
        raise LaunchError(f"{meta.kernel}: the metadata states no launch grid")
    check_arguments(meta, args)
    grid = []
    for dim in meta.grid:
        if dim.param is None:
            extent = dim.constant
        else:
            a = args[meta.param_index(dim.param)]
            extent = a.shape[dim.axis] if dim.axis is not None else int(a)
        grid.append(-(-max(extent - dim.less, 0) // dim.divisor))
    return tuple(grid)


# The C type of each function argument (the "function_args" of the metadata).
_SLOT_TYPES = {"!llvm.ptr<1>": ctypes.c_uint64, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
               "f32": ctypes.c_float}


def pack_arguments(meta: Metadata, args: Sequence[Arg],
                   grid: Sequence[int] = (0, 0, 0)) -> list:
    """The kernel parameters of a launch, one ctypes value per compiled
    function argument but the trailing tensor maps (which `encode` makes;
    see tensor_map_encodings), a persistent kernel's `grid` after them. The
    slots' types follow the parameters; `slot_types` names them as the
    metadata's "function_args" does."""
    check_arguments(meta, args)
    slots = []
    for p, a in zip(meta.params, args):
        if p.kind == "tensor":
            slots.append(ctypes.c_uint64(a.address))
            slots += [ctypes.c_int32(n) for n in a.shape]
            slots += [ctypes.c_int64(s) for s in a.strides]
        elif p.kind == "pointer":
            slots.append(ctypes.c_uint64(a.address))
        elif p.dtype == "i32":
            slots.append(ctypes.c_int32(int(a)))
        elif p.dtype == "i64":
            slots.append(ctypes.c_int64(int(a)))
        elif p.dtype == "f32":
            slots.append(ctypes.c_float(float(a)))
        else:
            raise LaunchError(f"{meta.kernel}: scalar parameter '{p.name}' of type {p.dtype} "
                              "is not supported by the runtime")
    if meta.persistent:
        slots += [ctypes.c_int32(int(g)) for g in grid]
    expected = len(meta.function_args) - len(meta.tensor_maps)
    if len(slots) != expected:
        raise LaunchError(f"{meta.kernel}: the parameters pack into {len(slots)} values, the "
                          f"compiled function takes {expected} before its tensor maps")
    for i, (slot, arg_type) in enumerate(zip(slots, meta.function_args)):
        want = _SLOT_TYPES.get(arg_type)
        if want is not type(slot):
            raise LaunchError(f"{meta.kernel}: function argument {i} is {arg_type}, the "
                              f"parameters give a {type(slot).__name__}")
    return slots


@dataclass(frozen=True)
class TensorMapEncoding:
    """cuTensorMapEncodeTiled's arguments, innermost dimension first."""

    data_type: int
    address: int
    global_dim: tuple
    global_strides: tuple  # bytes, dimension 1 first
    box_dim: tuple
    element_strides: tuple
    interleave: int
    swizzle: int
    l2_promotion: int
    oob_fill: int


def tensor_map_encodings(meta: Metadata, args: Sequence[Arg]) -> list:
    """One encoding per entry of "tensor_maps", for checked `args`."""
    out = []
    for m in meta.tensor_maps:
        p, a = meta.params[m.param], args[m.param]
        size = DTYPE_BYTES[p.dtype]
        rank = p.rank
        out.append(TensorMapEncoding(
            data_type=TENSOR_MAP_DATA_TYPE[p.dtype],
            address=a.address,
            # An empty dimension is no valid globalDim; a kernel with one runs
            # no iteration of the loop that reads the map.
            global_dim=tuple(max(a.shape[d], 1) for d in reversed(range(rank))),
            global_strides=tuple(a.strides[d - 1] * size for d in reversed(range(1, rank))),
            box_dim=tuple(m.box[d] for d in reversed(range(rank))),
            element_strides=(1,) * rank,
            interleave=TENSOR_MAP_INTERLEAVE_NONE,
            swizzle=TENSOR_MAP_SWIZZLE[m.swizzle],
            l2_promotion=TENSOR_MAP_L2_PROMOTION_256B,
            oob_fill=TENSOR_MAP_OOB_FILL_NONE,
        ))
    return out
