//===- Registration.h - a variant's every kernel from one definition -*- C++ -*-===//
//
// A user's attention variant is one AttentionVariant (its mask, score
// modifier, key range and their reference twins) made from its parameters;
// registering it makes every attention kernel of it, with the default
// schedules (`tilec --list-kernels` shows them):
//
//   flash_attention_fwd_<name>                   the forward
//   flash_attention_bwd_dkdv_<name>, _bwd_dq_<name>   its backward
//   flash_attention_varlen_<name>                packed batches of any lengths
//   flash_attention_varlen_bwd_dkdv_<name>, _varlen_bwd_dq_<name>
//   flash_attention_decode_<name>                decoding (split KV, packed GQA)
//   flash_attention_decode_paged_<name>          ... from a paged K/V cache
//   flash_attention_block_mask_<name>            its block mask (with .blockMask)
//
// and, once for all variants, the steps they share: flash_attention_bwd_prep,
// flash_attention_varlen_bwd_prep and flash_attention_decode_combine.
//
//   static tilec::attention::RegisterAttention registration({
//       .name = "relative_bias",
//       .summary = "scores fall off with the distance |i - j|",
//       .params = {floatParam("slope", 0.1, "penalty per position of distance")},
//       .variant = [](const Params &p) { ... return AttentionVariant{...}; },
//       .heavyScores = true,
//   });
//
// A generator program (tilec_add_generator in CMake) links it with the
// driver's main and gets the whole `tilec` command line for its kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_ATTENTION_REGISTRATION_H
#define TILEC_EXAMPLES_ATTENTION_REGISTRATION_H

#include "FlashAttention.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec::attention {

/// One variant's registration.
struct VariantRegistration {
  /// The kernels' suffix: flash_attention_fwd_<name>, ... (empty: the dense
  /// kernels, flash_attention_fwd, ...). Lowercase letters, digits and '_'.
  std::string name;
  std::string summary;
  /// The variant's own compile-time parameters (beside head_dim, block_m,
  /// block_n, dtype, ...); `tilec --set NAME=...` sets them.
  std::vector<ParamSpec> params;
  /// The variant for given parameters.
  std::function<AttentionVariant(const Params &)> variant;
  /// Tensors its rules read at run time (`at.input(name)`), added to the
  /// variant: the forward and backward kernels take them after their own
  /// parameters. Such variants get those kernels only (the packed-batch and
  /// decoding kernels index their rows differently and do not take inputs
  /// yet).
  std::vector<VariantInput> inputs = {};
  /// Per-score work (a score modifier with transcendentals, a mask beyond the
  /// causal one): the schedules of the heavier variants (see defaultSchedule).
  bool heavyScores = false;
  /// ... only where the dots run on mma.sync (sm_80), whose fragments leave
  /// fewer registers: a mask the fast sm_90a schedules carry but mma.sync's
  /// 128-row tiles would spill for (the sliding window's).
  bool heavyOnMmaSync = false;
  /// Adjusts the configuration from the parameters (GQA's group, say).
  std::function<void(AttentionConfig &, const Params &)> tune = {};
  /// The forward visits only the key blocks a block mask lists (a mask no
  /// key range describes: document ids, any data-dependent mask); also
  /// registers flash_attention_block_mask_<name>, which makes the block
  /// mask (FlashAttention.h, "Block masks").
  bool blockMask = false;
  /// Registers the decoding kernels too (the GQA variant's need not: every
  /// decoding kernel packs any group).
  bool decode = true;
  /// The forward runs as a persistent grid by default where the variant
  /// without a mask would (persistentByDefault) although it has one: its
  /// key range grows with the rows (the programs come longest first, in
  /// sections of heads; the causal mask's, measured in session 31 at
  /// d = 128, the only head dim it applies to for now).
  bool persistentWithMask = false;
};

/// Registers every kernel of `variant` (see the file comment); the shared
/// steps the first time. An invalid name or a name taken is reported by the
/// registry (the program stops with the reason). A mask or score modifier
/// of the wrong type (hand-written, not made by withMask / withScoreMod,
/// which report at their own line) is reported at `where`.
void registerAttentionVariant(const VariantRegistration &variant,
                              dsl::Where where = dsl::Where::current());

/// Registers at static initialization: `static RegisterAttention r({...});`.
struct RegisterAttention {
  explicit RegisterAttention(const VariantRegistration &variant,
                             dsl::Where where = dsl::Where::current()) {
    registerAttentionVariant(variant, where);
  }
};

/// Typed parameters for VariantRegistration::params.
ParamSpec intParam(const char *name, int64_t defaultValue, const char *help, int64_t min = 0);
ParamSpec floatParam(const char *name, double defaultValue, const char *help);

/// A checkSizes answer: empty when `group` divides the query heads.
std::string headsFitGroups(const Params &sizes, int64_t group);

} // namespace tilec::attention

#endif // TILEC_EXAMPLES_ATTENTION_REGISTRATION_H
