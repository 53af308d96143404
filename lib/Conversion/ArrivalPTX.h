//===- ArrivalPTX.h - the PTX of tile.last_arrival --------------*- C++ -*-===//
//
// Both lowerings (tile-to-llvm and convert-tilegpu-to-nvvm) emit
// `tile.last_arrival` as one inline-PTX block run by every thread of the
// group (the block, or a warp role): its operands are $1 the counter's
// global address (64-bit), $2 the count less one, $3 the thread's index in
// the group; $0 is 1 in the last program's threads, else 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_ARRIVALPTX_H
#define TILEC_LIB_CONVERSION_ARRIVALPTX_H

#include <cstdint>
#include <string>

namespace tilec {

/// 1. Each thread waits until its asynchronous bulk (TMA) stores have
///    completed, not only read their sources (`bulkStores`: the kernel may
///    have issued some, sm_90), and releases its writes at GPU scope.
/// 2. The group meets at barrier `barrier` (`threads` threads), so every
///    thread's writes come before the arrival.
/// 3. Thread 0 of the group adds the arrival (`atom.inc` wraps to 0 past
///    count - 1: the last arrival leaves the counter at zero), with acquire
///    and release at GPU scope.
/// 4. `bar.red.or` hands thread 0's answer to the group (a second meeting
///    at the same barrier), and each thread acquires at GPU scope, so its
///    reads after the op see what the arriving programs wrote.
inline std::string lastArrivalPTX(int64_t barrier, int64_t threads, bool bulkStores) {
  std::string bar = std::to_string(barrier) + ", " + std::to_string(threads);
  return std::string("{\n"
                     ".reg .pred %first, %last;\n"
                     ".reg .b32 %old;\n") +
         (bulkStores ? "cp.async.bulk.wait_group 0;\n" : "") +
         "fence.acq_rel.gpu;\n"
         "bar.sync " + bar + ";\n"
         "setp.eq.u32 %first, $3, 0;\n"
         "mov.u32 %old, 0;\n"
         "@%first atom.acq_rel.gpu.global.inc.u32 %old, [$1], $2;\n"
         "setp.eq.and.u32 %last, %old, $2, %first;\n"
         "bar.red.or.pred %last, " + bar + ", %last;\n"
         "fence.acq_rel.gpu;\n"
         "selp.u32 $0, 1, 0, %last;\n"
         "}";
}

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_ARRIVALPTX_H
