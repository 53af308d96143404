//===- Passes.td - passes on and out of the tilegpu dialect -*- tablegen -*-===//

#ifndef TILEC_TILEGPU_PASSES_TD
#define TILEC_TILEGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "::mlir::ModuleOp"> {
  let summary = "Assign a distributed layout to every tile: tile IR to tilegpu IR";
  let description = [{
    Runs layout assignment (`LayoutAssignment`: mma accumulator and operand
    layouts for dots, slices for reductions, blocked layouts elsewhere) on
    each kernel and writes the result into the IR: every tile's tensor type
    gets its layout as a `#tilegpu.linear` encoding, and where an op's types
    tie an operand to another layout than the one it has (operands of
    elementwise ops, a dot's accumulator, values carried by loops, pointers
    and values of scattered loads and stores), a `tilegpu.convert_layout` is
    inserted right before it. A dot's A and B keep their layouts: how it
    reads them (registers, shared memory, wgmma descriptors) is the dot
    lowering's choice. Kernels whose tiles already carry layouts are left as
    they are, so the pass is idempotent and `tilec --emit=gpu` output can be
    compiled again.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per program (threads per block / 32)">
  ];
  let dependentDialects = ["::tilec::tilegpu::TileGPUDialect"];
}

def TileGPUAllocateSharedMemory : Pass<"tilegpu-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Give every shared buffer and mbarrier array an offset, reusing dead space";
  let description = [{
    Sets `offset` on each `tilegpu.alloc` and `tilegpu.mbarrier_create` of
    each kernel (`func.func` or `llvm.func`). A buffer lives from its
    definition to its last use (a use nested in a region counts at the op of
    the kernel's body that holds it, so a buffer used in a loop lives through
    the whole loop); buffers whose live ranges do not overlap share bytes.
    Placement is first fit in program order, aligned to 1024 bytes for
    swizzled buffers (wgmma descriptors and TMA need it), 16 for padded ones
    and 8 for mbarriers. Records the total as `tilegpu.shared_bytes` on the
    kernel. Offsets already set are kept and reserved.
  }];
}

def TileGPUInsertBarriers : Pass<"tilegpu-insert-barriers", "::mlir::ModuleOp"> {
  let summary = "Order shared-memory writes before the reads of other threads and proxies";
  let description = [{
    Walks each kernel in program order, tracking the shared buffers (through
    slot views, to their `tilegpu.alloc`) that this thread has written with
    `local_store` or `async_copy` and not yet published, and those it has
    read with `local_load`. Before an op that reads a written buffer from
    another thread or proxy, it inserts what makes the writes visible:
    `fence async_proxy` when the reader is the async proxy (`warpgroup_dot`
    operands, `tma_store` sources), then a barrier; before a write to a
    buffer that other threads may still be reading (`local_load` before it),
    a barrier. Outside warp roles the barrier is `tilegpu.barrier`; inside
    role `i` it is the named barrier `i + 1` over the role's threads
    (`barrier_sync`). Writes still unpublished at the end of a loop body,
    branch or role are published there; barriers and fences already in the
    IR count, so the pass adds nothing to a kernel that is synchronized
    (running it twice changes nothing). Not covered: TMA loads (they
    complete on mbarriers), and a wgmma that may still read a buffer being
    overwritten (its `dot_wait` orders that).
  }];
}

def ConvertTileGPUToNVVM : Pass<"convert-tilegpu-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower tilegpu ops to the NVVM and LLVM dialects, op by op";
  let description = [{
    Applies the tilegpu conversion patterns (`populateTileGPUToNVVMPatterns`):
    shared buffers and mbarriers become `!llvm.ptr<3>` into the kernel's
    dynamic shared memory (`@tilec_smem`, offsets from
    `tilegpu-allocate-shared-memory`), tensor maps generic pointers to the
    kernel parameter, distributed tiles LLVM structs of their registers;
    barriers, fences, mbarriers, cp.async groups, TMA, mma.sync, wgmma and
    its waits, and register budgets become their NVVM ops; tile constants and
    elementwise arith/math on tiles of one layout become one scalar op per
    register. Kernel signatures, calls, returns and scf loops and branches
    that carry tilegpu values take the converted types; the rest (scalar
    arith, scf, func) is left for the upstream conversions.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // TILEC_TILEGPU_PASSES_TD
