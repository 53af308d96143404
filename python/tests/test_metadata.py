"""CPU tests of the Python launch layer (python/tilec/metadata.py, driver.py):
the metadata of real kernels that tilec compiled, argument packing checked
against the compiler's own list of function arguments, launch grids, tensor
map encodings and the errors for launches that do not fit.

TILEC_TEST_PTX_DIR names a directory that scripts/compile-torch-kernels.sh
filled (ctest sets it); without it the tests on real kernels are skipped.
"""

import ctypes
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.metadata import (LaunchError, PointerArg, TensorArg, check_arguments,  # noqa: E402
                            check_reach, launch_grid, load_metadata, pack_arguments,
                            parse_metadata, tensor_map_encodings, tensor_reach)

PTX_DIR = os.environ.get("TILEC_TEST_PTX_DIR")


def contiguous(address, shape, dtype=None):
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    return TensorArg(address, tuple(shape), tuple(strides), dtype)


def toy_document(**changes):
    doc = {
        "kernel": "toy", "arch": "sm_80", "num_warps": 4, "threads_per_block": 128,
        "shared_bytes": 0,
        "params": [{"name": "x", "kind": "tensor", "dtype": "bf16", "rank": 2, "aligned": True},
                   {"name": "p", "kind": "pointer", "dtype": "f32"},
                   {"name": "n", "kind": "scalar", "dtype": "i32"},
                   {"name": "alpha", "kind": "scalar", "dtype": "f32"}],
        "function_args": ["!llvm.ptr<1>", "i32", "i32", "i64", "i64", "!llvm.ptr<1>", "i32", "f32"],
        "grid": [{"param": "x", "axis": 0, "divisor": 64}, {"param": "n", "divisor": 3},
                 {"constant": 2}],
    }
    doc.update(changes)
    return doc


def toy_metadata(**changes):
    return parse_metadata(json.dumps(toy_document(**changes)), "toy.json")


class ToyKernel(unittest.TestCase):
    def args(self, **changes):
        a = {"x": contiguous(0x10000, (130, 64)), "p": PointerArg(0x20000), "n": 7, "alpha": 0.5}
        a.update(changes)
        return [a["x"], a["p"], a["n"], a["alpha"]]

    def test_reach_covers_every_element_the_shape_and_strides_touch(self):
        meta = toy_metadata()
        # 130 x 64 bf16, rows 64 apart: the last element ends 130 * 64 * 2 bytes on.
        self.assertEqual(tensor_reach(meta, self.args()), [(0, 0x10000, 0x10000 + 130 * 64 * 2)])
        # Rows 128 elements apart (a view of every other row block): 129 * 128 + 64 elements.
        strided = TensorArg(0x10000, (130, 64), (128, 1))
        self.assertEqual(tensor_reach(meta, self.args(x=strided))[0][2], 0x10000 + (129 * 128 + 64) * 2)
        # A negative stride reaches below the address; an empty tensor reaches nothing.
        flipped = TensorArg(0x10000 + 129 * 64 * 2, (130, 64), (-64, 1))
        self.assertEqual(tensor_reach(meta, self.args(x=flipped))[0][1:], (0x10000, 0x10000 + 129 * 64 * 2 + 128))
        self.assertEqual(tensor_reach(meta, self.args(x=contiguous(0x10000, (0, 64)))), [])

    def test_reach_past_the_allocation_is_refused_naming_the_argument(self):
        meta = toy_metadata()
        check_reach(meta, 0, 0x10000, 0x10000 + 100, 0x10000, 100)  # fits exactly
        with self.assertRaisesRegex(LaunchError, r"argument 0 \('x'.*2 bytes past the end of its allocation"):
            check_reach(meta, 0, 0x10000, 0x10000 + 100, 0x10000, 98)
        with self.assertRaisesRegex(LaunchError, "not in a device allocation"):
            check_reach(meta, 0, 0x10000, 0x10000 + 100, None, 0)

    def test_grid_follows_the_rule(self):
        meta = toy_metadata()
        self.assertEqual(launch_grid(meta, self.args()), (3, 3, 2))  # ceil(130/64), ceil(7/3), 2
        self.assertEqual(launch_grid(meta, self.args(n=9)), (3, 3, 2))
        self.assertEqual(launch_grid(meta, self.args(x=contiguous(0x10000, (128, 64)))), (2, 3, 2))
        # "less" first (a packed batch's B + 1 offsets: B programs), never below 0.
        sequences = toy_metadata(grid=[{"param": "x", "axis": 0, "divisor": 64, "less": 2},
                                       {"param": "n", "less": 1}, {"constant": 1}])
        self.assertEqual(launch_grid(sequences, self.args()), (2, 6, 1))  # ceil(128/64), 7 - 1
        self.assertEqual(launch_grid(sequences, self.args(n=0)), (2, 0, 1))

    def test_packing_gives_each_value_its_slot(self):
        slots = pack_arguments(toy_metadata(), self.args())
        values = [s.value for s in slots]
        self.assertEqual(values, [0x10000, 130, 64, 64, 1, 0x20000, 7, 0.5])
        self.assertEqual([type(s) for s in slots],
                         [ctypes.c_uint64, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64,
                          ctypes.c_int64, ctypes.c_uint64, ctypes.c_int32, ctypes.c_float])

    def test_a_persistent_kernel_takes_its_grid_after_the_parameters(self):
        # tile-persistent-grid: three i32 (programs along x, y, z) follow the
        # parameters' arguments; the launch passes the grid it asks for.
        meta = toy_metadata(persistent=True, function_args=[
            "!llvm.ptr<1>", "i32", "i32", "i64", "i64", "!llvm.ptr<1>", "i32", "f32",
            "i32", "i32", "i32"])
        self.assertTrue(meta.persistent)
        grid = launch_grid(meta, self.args())
        slots = pack_arguments(meta, self.args(), grid)
        self.assertEqual([s.value for s in slots[8:]], [3, 3, 2])
        self.assertEqual([type(s) for s in slots[8:]], [ctypes.c_int32] * 3)
        # Metadata without room for the grid does not match what the launch packs.
        with self.assertRaisesRegex(LaunchError, "pack into 11 values, the compiled function takes 8"):
            pack_arguments(toy_metadata(persistent=True), self.args(), grid)
        self.assertFalse(toy_metadata().persistent)

    def test_a_kernel_that_claims_tiles_is_persistent(self):
        # tilegpu-claim-tiles: "tile_counter" marks the module's counter (the
        # launcher loads such a kernel once per stream); only on a persistent
        # kernel.
        args = ["!llvm.ptr<1>", "i32", "i32", "i64", "i64", "!llvm.ptr<1>", "i32", "f32",
                "i32", "i32", "i32"]
        meta = toy_metadata(persistent=True, tile_counter=True, function_args=args)
        self.assertTrue(meta.tile_counter)
        self.assertFalse(toy_metadata(persistent=True, function_args=args).tile_counter)
        with self.assertRaisesRegex(LaunchError, '"tile_counter" needs "persistent"'):
            toy_metadata(tile_counter=True)

    def test_function_args_that_disagree_with_the_params_are_refused(self):
        meta = toy_metadata(function_args=["!llvm.ptr<1>", "i32", "i32", "i64", "i64",
                                           "!llvm.ptr<1>", "i64", "f32"])
        with self.assertRaisesRegex(LaunchError, "function argument 6 is i64"):
            pack_arguments(meta, self.args())

    def test_launches_that_do_not_fit_are_refused_naming_the_argument(self):
        meta = toy_metadata()
        cases = [
            (self.args()[:3], "takes 4 arguments, the launch gives 3"),
            (self.args(x=contiguous(0x10000, (4, 64, 1))), r"argument 0 \('x'.*expected rank 2"),
            (self.args(x=contiguous(0x10008, (4, 64))), "16-byte aligned base"),
            (self.args(x=contiguous(0x10000, (4, 60))), "multiples of 8 elements"),
            (self.args(x=TensorArg(0x10000, (4, 64), (128, 2))), "innermost stride 1"),
            (self.args(x=contiguous(0, (4, 64))), "null device address"),
            (self.args(x=contiguous(0x10000, (4, 64), "f16")), "expected bf16 elements, got f16"),
            (self.args(x=contiguous(0x10000, (2**31, 64))), "outside"),
            (self.args(p=0x20000), r"argument 1 \('p'.*PointerArg"),
            (self.args(n=2.5), r"argument 2 \('n'.*integer"),
            (self.args(alpha="x"), r"argument 3 \('alpha'.*number"),
        ]
        for args, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(LaunchError, message):
                    check_arguments(meta, args)

    def test_malformed_metadata_is_refused_naming_the_file(self):
        cases = [
            ({"grid": [{"param": "y", "axis": 0}, {"constant": 1}, {"constant": 1}]},
             r"toy.json: grid\[0\]: 'y' is not a parameter"),
            ({"grid": [{"param": "x", "axis": 2}, {"constant": 1}, {"constant": 1}]},
             "has no axis 2"),
            ({"grid": [{"param": "alpha"}, {"constant": 1}, {"constant": 1}]}, "not an integer scalar"),
            ({"grid": [{"constant": 0}, {"constant": 1}, {"constant": 1}]}, "must be positive"),
            ({"grid": [{"param": "x", "axis": 0, "less": -1}, {"constant": 1}, {"constant": 1}]},
             "'less' must be a non-negative integer"),
            ({"grid": [{"constant": 1}]}, "1 dimensions, not 3"),
            ({"threads_per_block": 2048}, "outside"),
            ({"params": [{"name": "x", "kind": "blob", "dtype": "f32"}]}, "unknown kind"),
            ({"tensor_maps": [{"param": "x", "box": [1, 300], "swizzle": 128}]}, "does not fit"),
        ]
        for changes, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(LaunchError, message):
                    toy_metadata(**changes)
        with self.assertRaisesRegex(LaunchError, "not JSON"):
            parse_metadata("{", "bad.json")
        with self.assertRaisesRegex(LaunchError, "has no 'kernel'"):
            parse_metadata(json.dumps({"params": []}), "bad.json")

    def test_tensors_of_fixed_sizes_need_them(self):
        params = [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 2,
                   "sizes": [None, 80]}]
        meta = toy_metadata(params=params, function_args=["!llvm.ptr<1>", "i32", "i32", "i64",
                                                          "i64"], grid=None)
        self.assertEqual(meta.params[0].sizes, (None, 80))
        check_arguments(meta, [contiguous(0x40000, (7, 80), "bf16")])
        with self.assertRaisesRegex(LaunchError, r"argument 0 \('q'.*dimension 1 = 64: the kernel "
                                                 r"was compiled for 80"):
            check_arguments(meta, [contiguous(0x40000, (7, 64), "bf16")])
        for bad in ([80], [None, -1], [None, "80"], 80):
            params[0]["sizes"] = bad
            with self.assertRaisesRegex(LaunchError, "malformed 'sizes'"):
                toy_metadata(params=params, function_args=["!llvm.ptr<1>", "i32", "i32", "i64",
                                                           "i64"], grid=None)

    def test_tensors_sized_by_another_need_its_size(self):
        params = [{"name": "k", "kind": "tensor", "dtype": "bf16", "rank": 2},
                  {"name": "arrivals", "kind": "tensor", "dtype": "i32", "rank": 1,
                   "sizes_of": [{"param": "k", "axis": 0}]}]
        args = ["!llvm.ptr<1>", "i32", "i32", "i64", "i64", "!llvm.ptr<1>", "i32", "i64"]
        meta = toy_metadata(params=params, function_args=args, grid=None)
        self.assertEqual(meta.params[1].sizes_of, (("k", 0),))
        check_arguments(meta, [contiguous(0x40000, (6, 64), "bf16"),
                               contiguous(0x50000, (6,), "i32")])
        with self.assertRaisesRegex(LaunchError, r"argument 1 \('arrivals'.*dimension 0 = 5: the "
                                                 r"kernel needs the size of 'k' dimension 0, 6"):
            check_arguments(meta, [contiguous(0x40000, (6, 64), "bf16"),
                                   contiguous(0x50000, (5,), "i32")])
        for bad, message in (([{"param": "k"}], "malformed 'sizes_of'"),
                             ([None, None], "malformed 'sizes_of'"),
                             ([{"param": "q", "axis": 0}], "not a tensor's dimension"),
                             ([{"param": "k", "axis": 2}], "not a tensor's dimension")):
            params[1]["sizes_of"] = bad
            with self.assertRaisesRegex(LaunchError, message):
                toy_metadata(params=params, function_args=args, grid=None)

    def test_unit_stride_tensors_need_innermost_stride_one(self):
        meta = toy_metadata(
            params=[{"name": "ids", "kind": "tensor", "dtype": "i32", "rank": 2,
                     "unit_stride": True}],
            function_args=["!llvm.ptr<1>", "i32", "i32", "i64", "i64"], grid=None)
        self.assertTrue(meta.params[0].unit_stride)
        self.assertFalse(toy_metadata().params[0].unit_stride)
        check_arguments(meta, [contiguous(0x40004, (3, 1001))])  # any base, any row stride
        check_arguments(meta, [TensorArg(0x40000, (3, 1), (5, 7))])  # one column: no stride read
        check_arguments(meta, [TensorArg(0x40000, (3, 1001), (0, 1))])  # rows broadcast
        with self.assertRaisesRegex(LaunchError, r"argument 0 \('ids'.*innermost stride 1, got "
                                                 r"stride 3"):
            check_arguments(meta, [TensorArg(0x40000, (3, 1001), (1, 3))])

    def test_tensor_maps_are_encoded_innermost_first(self):
        meta = toy_metadata(
            params=[{"name": "x", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": False}],
            function_args=["!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64", "!llvm.ptr"],
            grid=None, tensor_maps=[{"param": "x", "box": [1, 64, 64], "swizzle": 128}])
        x = contiguous(0x40000, (6, 1000, 64), "bf16")
        (e,) = tensor_map_encodings(meta, [x])
        self.assertEqual(e.global_dim, (64, 1000, 6))
        self.assertEqual(e.global_strides, (128, 128000))  # bytes: one row, one head
        self.assertEqual(e.box_dim, (64, 64, 1))
        self.assertEqual((e.data_type, e.swizzle), (9, 3))  # CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 128B
        self.assertEqual(len(pack_arguments(meta, [x])), 7)  # the map is not a packed slot
        with self.assertRaisesRegex(LaunchError, "tensor map.*multiples of 16 bytes"):
            check_arguments(meta, [TensorArg(0x40000, (6, 1000, 64), (64004, 64, 1))])
        with self.assertRaisesRegex(LaunchError, "no launch grid"):
            launch_grid(meta, [x])


@unittest.skipUnless(PTX_DIR and os.path.isdir(PTX_DIR),
                     "TILEC_TEST_PTX_DIR (kernels from scripts/compile-torch-kernels.sh) not set")
class CompiledKernels(unittest.TestCase):
    """The metadata of the attention kernels tilec compiled."""

    def kernel_files(self):
        """(file name without .json, metadata) of each compiled kernel."""
        names = sorted(f for f in os.listdir(PTX_DIR) if f.endswith(".json"))
        self.assertGreaterEqual(len(names), 4, f"expected the attention kernels in {PTX_DIR}")
        return [(n[:-len(".json")], load_metadata(os.path.join(PTX_DIR, n))) for n in names]

    def kernels(self):
        return [meta for _, meta in self.kernel_files()]

    @staticmethod
    def compiled_dims(stem):
        """(d_qk, d_v) from compile-torch-kernels.sh's file name
        KERNEL-DTYPE-dD or KERNEL-DTYPE-dDvDV (with -long after it: the long
        sequences' forward); None for other names."""
        m = re.search(r"-d(\d+)(?:v(\d+))?(?:-long)?$", stem)
        if not m:
            return None
        return int(m.group(1)), int(m.group(2) or m.group(1))

    @staticmethod
    def arguments(meta, heads, n):
        """Arguments of the shapes the attention kernels take: [H, N, d] or
        [H, rows] tensors (d as compiled), [B + 1] offsets and N as the
        longest length."""
        args = []
        for i, p in enumerate(meta.params):
            if p.kind == "scalar":
                args.append(n)
                continue
            d = p.sizes[-1] if p.sizes and p.sizes[-1] is not None else 128
            shape = {1: (4,), 2: (heads, (n + 3) // 4 * 4), 3: (heads, n, d)}[p.rank]
            args.append(contiguous(0x100000 * (i + 1), shape, p.dtype))
        return args

    def test_head_dims_are_the_compiled_ones(self):
        # Q, K and their gradients take d_qk; V, O, dO and dV take d_v (the
        # file name says which were compiled).
        for stem, meta in self.kernel_files():
            if "block_mask" in meta.kernel:
                continue  # (no head dims)
            with self.subTest(kernel=stem):
                dims = self.compiled_dims(stem)
                self.assertIsNotNone(dims, "file name without -dD")
                d_qk, d_v = dims
                fixed = {p.name: p.sizes for p in meta.params if p.sizes}
                self.assertTrue({"o", "do", "dq"} & fixed.keys() or {"q", "k", "v"} <= fixed.keys(),
                                f"no fixed head dims in {sorted(fixed)}")
                for name, sizes in fixed.items():
                    self.assertEqual(sizes[:-1], (None,) * (len(sizes) - 1), name)
                    qk = name in ("q", "k", "dq", "dk", "dq_acc")
                    self.assertEqual(sizes[-1], d_qk if qk else d_v, name)
                args = self.arguments(meta, 6, 1000)
                first = next(iter(fixed))
                i = meta.param_index(first)
                args[i] = contiguous(args[i].address, args[i].shape[:-1] + (fixed[first][-1] + 8,),
                                     args[i].dtype)
                with self.assertRaisesRegex(LaunchError, f"compiled for {fixed[first][-1]}"):
                    check_arguments(meta, args)

    def test_arguments_pack_into_the_compiled_functions_arguments(self):
        for meta in self.kernels():
            with self.subTest(kernel=meta.kernel):
                args = self.arguments(meta, 6, 1000)
                slots = pack_arguments(meta, args)
                self.assertEqual(len(slots) + len(meta.tensor_maps), len(meta.function_args))
                self.assertEqual(len(tensor_map_encodings(meta, args)), len(meta.tensor_maps))
                grid = launch_grid(meta, args)
                self.assertEqual(len(grid), 3)
                self.assertTrue(all(g >= 1 for g in grid))

    def test_grids_cover_the_rows(self):
        for meta in self.kernels():
            dim = meta.grid[0]
            with self.subTest(kernel=meta.kernel):
                self.assertIsNotNone(dim.param)
                for n in (1, 77, 1000, 4096):
                    args = self.arguments(meta, 3, n)
                    programs = launch_grid(meta, args)[0]
                    arg = args[meta.param_index(dim.param)]
                    extent = arg.shape[dim.axis] if dim.axis is not None else arg
                    self.assertGreaterEqual(programs * dim.divisor, extent)
                    self.assertLess((programs - 1) * dim.divisor, extent)


class FakeCuda:
    """The few libcuda calls a launch makes, recorded: allocations are the
    ranges in `allocations` (base -> size); every launch is kept with its
    grid and the parameter values its pointers point at."""

    def __init__(self, allocations):
        self.allocations = allocations
        self.address_queries = 0
        self.launches = []
        self.loads = 0

    def cuMemGetAddressRange_v2(self, base, size, address):
        self.address_queries += 1
        for start, length in self.allocations.items():
            if start <= address.value < start + length:
                base._obj.value, size._obj.value = start, length
                return 0
        return 1  # CUDA_ERROR_INVALID_VALUE

    def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        self.launches.append(((gx.value, gy.value, gz.value), stream.value,
                              [params[i] for i in range(len(params))]))
        return 0

    def cuModuleLoadData(self, module, data):
        self.loads += 1
        return 0

    def cuModuleGetFunction(self, function, module, name):
        return 0

    def cuCtxSetCurrent(self, context):
        return 0


class PreparedLaunches(unittest.TestCase):
    """Kernel.__call__ prepares a launch (checks, packing, tensor maps) once
    per kind of call and checks the tensors' allocations on every launch."""

    def setUp(self):
        import tempfile
        from tilec import driver
        self.driver_module = driver
        self.dir = tempfile.TemporaryDirectory()
        with open(os.path.join(self.dir.name, "toy.json"), "w") as f:
            json.dump(toy_document(), f)
        with open(os.path.join(self.dir.name, "toy.ptx"), "w") as f:
            f.write("// toy\n")
        self.cuda = FakeCuda({0x10000: 130 * 64 * 2, 0x20000: 4})
        fake = driver.Driver.__new__(driver.Driver)
        fake.lib, fake._encode, fake.context = self.cuda, None, None
        self.saved, driver.Driver._instance = driver.Driver._instance, fake
        self.kernel = driver.Kernel(os.path.join(self.dir.name, "toy.ptx"))

    def tearDown(self):
        self.driver_module.Driver._instance = self.saved
        self.dir.cleanup()

    def args(self, **changes):
        return ToyKernel.args(self, **changes)

    def values(self, launch):
        """The parameter values a recorded launch passed, as packed."""
        slots = pack_arguments(toy_metadata(), self.args())
        return [type(s).from_address(p).value for s, p in zip(slots, launch[2])]

    def test_the_same_call_is_prepared_once_and_checked_every_time(self):
        self.kernel(*self.args(), stream=5)
        queries = self.cuda.address_queries
        self.assertEqual(queries, 1)  # prepared and launched: the tensor's allocation asked once
        self.kernel(*self.args(), stream=5)
        self.kernel(*self.args(), stream=7)
        self.assertEqual(len(self.kernel._prepared), 1)
        self.assertEqual(self.cuda.loads, 1)
        self.assertEqual([l[0] for l in self.cuda.launches], [(3, 3, 2)] * 3)
        self.assertEqual([l[1] for l in self.cuda.launches], [5, 5, 7])
        self.assertEqual(self.values(self.cuda.launches[2]), [0x10000, 130, 64, 64, 1, 0x20000, 7, 0.5])
        # Each later launch asks for the tensor's allocation again.
        self.assertEqual(self.cuda.address_queries, queries + 2)

    def test_a_freed_allocation_fails_the_prepared_launch(self):
        self.kernel(*self.args())
        self.cuda.allocations = {0x10000: 64, 0x20000: 4}
        with self.assertRaisesRegex(LaunchError, "'x'"):
            self.kernel(*self.args())
        self.assertEqual(len(self.cuda.launches), 1)

    def test_calls_that_pack_differently_are_prepared_apart(self):
        self.kernel(*self.args())
        self.kernel(*self.args(alpha=-0.5))
        self.kernel(*self.args(alpha=0.0))
        self.kernel(*self.args(alpha=-0.0))
        self.kernel(*self.args(x=contiguous(0x10000, (100, 64))))
        self.kernel(*self.args(), grid=(1, 1, 1))
        self.assertEqual(len(self.kernel._prepared), 6)
        alphas = [ctypes.c_float.from_address(l[2][7]).value for l in self.cuda.launches[1:4]]
        self.assertEqual([str(a) for a in alphas], ["-0.5", "0.0", "-0.0"])
        self.assertEqual(self.cuda.launches[4][0], (2, 3, 2))
        self.assertEqual(self.cuda.launches[5][0], (1, 1, 1))
        # An argument that is no key (a list) takes the unprepared path and
        # its error, every time.
        for _ in range(2):
            with self.assertRaisesRegex(LaunchError, "'n', a scalar\\): expected a number"):
                self.kernel(*self.args(n=[7]))
        self.assertEqual(len(self.kernel._prepared), 6)

    def test_errors_are_not_kept_and_the_kept_launches_are_bounded(self):
        for _ in range(2):
            with self.assertRaisesRegex(LaunchError, "'x'"):
                self.kernel(*self.args(x=contiguous(0x10000, (131, 64))))
        self.assertEqual(len(self.kernel._prepared), 0)
        kept = self.driver_module.LAUNCHES_KEPT
        for n in range(kept + 5):
            self.kernel(*self.args(n=n + 1))
        self.assertEqual(len(self.kernel._prepared), kept)
        # An empty grid launches nothing and keeps nothing.
        self.kernel(*self.args(n=0))
        self.assertEqual(len(self.cuda.launches), kept + 5)


class DriverWithoutGpu(unittest.TestCase):
    def test_import_and_metadata_need_no_gpu(self):
        from tilec import driver  # noqa: F401  (imports on any machine)

    @unittest.skipIf(os.path.exists("/dev/nvidiactl"), "a GPU driver is present")
    def test_no_driver_is_a_clear_error(self):
        from tilec.driver import CudaError, Driver
        try:
            Driver.open()
        except CudaError as e:
            self.assertRegex(str(e), "libcuda|cuInit")
        else:
            self.skipTest("libcuda opened and found a device")


if __name__ == "__main__":
    unittest.main()
