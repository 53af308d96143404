//===- Registration.cpp - a variant's every kernel from one definition ----===//

#include "Registration.h"
#include "Rules.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace tilec::attention {

using namespace tilec::dsl;

ParamSpec intParam(const char *name, int64_t defaultValue, const char *help, int64_t min) {
  return {.name = name, .type = ParamSpec::Type::Int, .defaultValue = std::to_string(defaultValue),
          .help = help, .min = min};
}

ParamSpec floatParam(const char *name, double defaultValue, const char *help) {
  char value[64]; // the shortest of these that reads back the same
  for (int digits : {6, 15, 17}) {
    std::snprintf(value, sizeof value, "%.*g", digits, defaultValue);
    if (std::strtod(value, nullptr) == defaultValue)
      break;
  }
  return {.name = name, .type = ParamSpec::Type::Float, .defaultValue = value, .help = help};
}

std::string headsFitGroups(const Params &sizes, int64_t group) {
  int64_t heads = sizes.getInt("heads");
  if (heads % group == 0)
    return "";
  return "--size heads=" + std::to_string(heads) + " is not a multiple of group=" +
         std::to_string(group) + " (query heads per K/V head)";
}

namespace {

/// The decoding kernel of a variant, `flash_attention_decode<suffix>`
/// (split KV, packed GQA): the decoding parameters plus `extra`.
void registerDecode(const std::string &suffix, const std::string &summary,
                    const std::vector<ParamSpec> &extra,
                    std::function<AttentionVariant(const Params &)> variant) {
  std::vector<ParamSpec> params = attentionDecodeParams();
  params.insert(params.end(), extra.begin(), extra.end());
  auto schedule = [](const Params &p) {
    return defaultDecodeSchedule(scheduleHeadDim(p), p.target());
  };
  auto config = [=](const Params &p) {
    AttentionConfig cfg = tileConfigFrom(p, schedule(p));
    cfg.group = p.getInt("group");
    return cfg;
  };
  Registry::global().add({
      .name = "flash_attention_decode" + suffix,
      .summary = "decoding (split KV, packed GQA): " + summary,
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionDecode(k, config(p), variant(p));
      },
      .sizes = attentionDecodeSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionDecode(config(p), variant(p), sizes, seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("o_part", 0), GridDim::shape("q", 0),
                        GridDim::shape("q", 1, config(p).blockM)};
      },
      .numWarps = [=](const Params &p) { return schedule(p).warps; },
      .alignedByDefault = true,
      .aInShared = [=](const Params &p) { return schedule(p).qInShared; },
      .pipelineStages = [=](const Params &p) { return schedule(p).stages; },
      .sm90Pipeline = [=](const Params &p) { return schedule(p).sm90; },
  });
  std::vector<ParamSpec> pagedParams = attentionPagedDecodeParams();
  pagedParams.insert(pagedParams.end(), extra.begin(), extra.end());
  auto pagedSchedule = [](const Params &p) {
    return defaultDecodeSchedule(scheduleHeadDim(p), p.target(), /*paged=*/true);
  };
  auto pagedConfig = [=](const Params &p) {
    AttentionConfig cfg = tileConfigFrom(p, pagedSchedule(p));
    cfg.group = p.getInt("group");
    if (!p.getInt("block_n")) // a key block lies in one page
      cfg.blockN = std::min(cfg.blockN, p.getInt("page_size"));
    return cfg;
  };
  Registry::global().add({
      .name = "flash_attention_decode_paged" + suffix,
      .summary = "decoding from a paged K/V cache (block table): " + summary,
      .params = pagedParams,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionDecodePaged(k, pagedConfig(p), variant(p), p.getInt("page_size"));
      },
      .sizes = attentionDecodeSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionDecodePaged(pagedConfig(p), variant(p), p.getInt("page_size"), sizes,
                                        seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("o_part", 0), GridDim::shape("q", 0),
                        GridDim::shape("q", 1, pagedConfig(p).blockM)};
      },
      .numWarps = [=](const Params &p) { return pagedSchedule(p).warps; },
      .alignedByDefault = true,
      .aInShared = [=](const Params &p) { return pagedSchedule(p).qInShared; },
      .pipelineStages = [=](const Params &p) { return pagedSchedule(p).stages; },
      .sm90Pipeline = [=](const Params &p) { return pagedSchedule(p).sm90; },
  });
}

/// The block mask of a variant (FlashAttention.h, "Block masks").
void registerBlockMask(const std::string &suffix, const std::string &summary,
                       const std::vector<ParamSpec> &params,
                       std::function<AttentionVariant(const Params &)> variant) {
  for (bool byKeys : {false, true})
    Registry::global().add({
        .name = std::string("flash_attention_block_mask") + (byKeys ? "_by_keys" : "") + suffix,
        .summary = byKeys ? "the query blocks that see each key block (for "
                            "flash_attention_bwd_dkdv" + suffix + "): " + summary
                          : "the key blocks each query block of flash_attention_fwd" + suffix +
                                " (and _bwd_dq" + suffix + ") visits: " + summary,
        .params = params,
        .build = [=](KernelBuilder &k, const Params &p) {
          buildAttentionBlockMask(k, variant(p), byKeys);
        },
        .sizes = attentionSizes(),
        .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
          return planAttentionBlockMask(variant(p), sizes, seed, byKeys);
        },
        .grid = [](const Params &) {
          return GridRule{GridDim::shape("block_counts", 1), GridDim::shape("block_counts", 0),
                          GridDim::fixed(1)};
        },
    });
}

/// Merges the split outputs of every decoding kernel.
void registerDecodeCombine() {
  // (It pads head dims: split_columns would change nothing.)
  std::vector<ParamSpec> params = withoutParams(attentionDecodeParams(), {"split_columns"});
  auto config = [](const Params &p) {
    AttentionConfig cfg = tileConfigFrom(p, AttentionSchedule{16, 16, 4, false});
    cfg.group = p.getInt("group");
    return cfg;
  };
  Registry::global().add({
      .name = "flash_attention_decode_combine",
      .summary = "second step of every decoding kernel: merges the splits' (O, LSE)",
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionDecodeCombine(k, config(p));
      },
      .sizes = attentionDecodeSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionDecodeCombine(config(p), sizes, seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("o", 1, config(p).blockM), GridDim::shape("o", 0),
                        GridDim::fixed(1)};
      },
      // Not aligned: lse_part's rows (group·seq_q) need not be 16-byte
      // multiples; it reads a few kilobytes per program.
  });
}

/// The forward, backward and packed-batch kernels of a variant (and, with
/// `decode`, its decoding kernels): the shared parameters plus `extra`, a
/// variant made from the parameters, and default schedules (`heavyScores`:
/// see defaultSchedule; `persistentWithMask`: persistentByDefault's maskToo).
void registerAttention(const std::string &suffix, const std::string &summary,
                       std::vector<ParamSpec> extra,
                       std::function<AttentionVariant(const Params &)> variant,
                       bool heavyScores, bool heavyOnMmaSync, bool persistentWithMask,
                       std::function<void(AttentionConfig &, const Params &)> tune,
                       bool decode, bool packed) {
  if (decode)
    registerDecode(suffix, summary, extra, variant);
  std::vector<ParamSpec> params = attentionParams();
  params.insert(params.end(), extra.begin(), extra.end());
  auto schedule = [heavyScores, heavyOnMmaSync, variant](const Params &p) {
    bool heavy = heavyScores || (heavyOnMmaSync && !p.target().wgmma);
    AttentionSchedule s = defaultSchedule(scheduleHeadDim(p), heavy, p.target());
    const int64_t d = p.getInt("head_dim"), dv = p.getInt("head_dim_v");
    s.splitColumns = splitColumnsByDefault(d, dv ? dv : d, heavy, p.target());
    if (s.splitColumns && p.get("split_columns") != "off") {
      const AttentionVariant v = variant(p);
      scheduleSplitColumns(s, d, dv ? dv : d, !v.mask && !v.scoreMod && !v.blockMask);
    }
    return s;
  };
  auto configWith = [=](const Params &p, const AttentionSchedule &s) {
    AttentionConfig cfg = configFrom(p, s);
    // Over a block mask's lists at d = 256 the overlapped loop was 5 %
    // slower than one dot a step (document masks, N = 4k-16k; bench/RESULTS.md
    // session 24); key ranges gain 3-8 % from it.
    if (p.get("overlap") == "auto" && scheduleHeadDim(p) > 128 && variant(p).blockMask)
      cfg.overlap = false;
    if (tune)
      tune(cfg, p);
    return cfg;
  };
  auto config = [=](const Params &p) { return configWith(p, schedule(p)); };
  // The forward's own: with seq_schedule=long, the long sequences' schedule
  // where there is one (longSequenceSchedule) and no tile size is given.
  auto fwdSchedule = [=](const Params &p) {
    AttentionSchedule s = schedule(p);
    if (p.get("seq_schedule") == "long" && !p.getInt("block_m") && !p.getInt("block_n") &&
        !p.getInt("row_groups"))
      longSequenceSchedule(s, scheduleHeadDim(p), configWith(p, s).group, p.target(),
                           variant(p));
    return s;
  };
  auto fwdConfig = [=](const Params &p) { return configWith(p, fwdSchedule(p)); };
  std::vector<ParamSpec> fwdParams = params;
  fwdParams.push_back(seqScheduleParam());
  // The forward also takes key blocks that are not powers of two, in
  // power-of-two parts (AttentionConfig::keyParts; its builder refuses
  // parts under 16 keys).
  for (ParamSpec &spec : fwdParams)
    if (spec.name == "block_n") {
      spec.powerOfTwo = false; // (its builder asks for a power of two or a multiple of 16)
      spec.help = "keys per loop step: a power of two, or a multiple of 16 taken as "
                  "power-of-two parts (176 = 128 + 32 + 16) (0: by head_dim)";
    }
  // The packed kernel keeps the dense schedules but one: on mma.sync at
  // d = 128 its sequence offsets (live beside the 128-row tile's registers)
  // made it spill, 64-row programs do not.
  auto varlenSchedule = [=](const Params &p) {
    AttentionSchedule s = schedule(p);
    if (!p.target().wgmma && scheduleHeadDim(p) > 64)
      s.blockM = std::min<int64_t>(s.blockM, 64);
    return s;
  };
  auto varlenConfig = [=](const Params &p) {
    AttentionConfig cfg = configFrom(p, varlenSchedule(p));
    if (tune)
      tune(cfg, p);
    return cfg;
  };
  if (packed)
    Registry::global().add({
      .name = "flash_attention_varlen" + suffix,
      .summary = "packed sequences of any lengths (cu_seqlens): " + summary,
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionVarlen(k, varlenConfig(p), variant(p));
      },
      .sizes = attentionVarlenSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionVarlen(varlenConfig(p), variant(p), sizes, seed);
      },
      .checkSizes = [=](const Params &p, const Params &sizes) {
        return headsFitGroups(sizes, varlenConfig(p).group);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::scalar("max_seqlen_q", varlenConfig(p).blockM),
                        GridDim::shape("q", 0), GridDim::sequences("cu_seqlens_q")};
      },
      .numWarps = [=](const Params &p) { return varlenSchedule(p).warps; },
      .alignedByDefault = true,
      .aInShared = [=](const Params &p) { return varlenSchedule(p).qInShared; },
      .pipelineStages = [=](const Params &p) { return varlenSchedule(p).stages; },
      .sm90Pipeline = [=](const Params &p) { return varlenSchedule(p).sm90; },
  });
  Registry::global().add({
      .name = "flash_attention_fwd" + suffix,
      .summary = summary,
      .params = fwdParams,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildFlashAttention(k, fwdConfig(p), variant(p));
      },
      .sizes = attentionSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttention(fwdConfig(p), variant(p), sizes, seed);
      },
      .checkSizes = [=](const Params &p, const Params &sizes) {
        return headsFitGroups(sizes, fwdConfig(p).group);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("q", 1, fwdConfig(p).blockM), GridDim::shape("q", 0),
                        GridDim::fixed(1)};
      },
      .numWarps = [=](const Params &p) { return fwdSchedule(p).warps; },
      .alignedByDefault = true,
      .aInShared = [=](const Params &p) { return fwdSchedule(p).qInShared; },
      .pipelineStages = [=](const Params &p) { return fwdSchedule(p).stages; },
      .sm90Pipeline = [=](const Params &p) { return fwdSchedule(p).sm90; },
      .persistent = [=](const Params &p) {
        // Only the default tiles (as measured).
        bool defaultTiles = !p.getInt("block_m") && !p.getInt("block_n") &&
                            !p.getInt("row_groups") && p.get("overlap") == "auto";
        bool heavy = heavyScores || (heavyOnMmaSync && !p.target().wgmma);
        return defaultTiles && fwdSchedule(p).sm90 == Sm90Pipeline::WarpSpecialized &&
               persistentByDefault(p.getInt("head_dim"), p.getInt("head_dim_v"), heavy,
                                   p.target(), variant(p), persistentWithMask);
      },
      .tileCounter = [=](const Params &p) { return tileCounterByDefault(variant(p)); },
      .tileSlots = [=](const Params &p) {
        return tileSlotsByDefault(p.getInt("head_dim"), p.getInt("head_dim_v"), variant(p));
      },
  });

  std::vector<ParamSpec> bwdParams = attentionBackwardParams();
  bwdParams.insert(bwdParams.end(), extra.begin(), extra.end());
  // Which kernel a schedule is for: the dense backward's, the packed
  // batch's (their own schedules on mma.sync), or the fused kernel's
  // (dK/dV's tiles without the sm_90a choices below, which are for
  // dK/dV and dQ alone).
  enum class Form { Dense, Packed, Fused };
  auto bwdSchedule = [=](BackwardKernel kernel, const Params &p, Form form = Form::Dense) {
    AttentionVariant v = variant(p);
    // A block mask's dQ reads its lists and the mask's inputs beside the
    // tiles: it takes the smaller key blocks of the modifier's schedule (the
    // 128-key ones spill on wgmma at d = 64).
    bool modifierLike = bool(v.scoreMod) || (kernel == BackwardKernel::Q && v.blockMask);
    const int64_t d = scheduleHeadDim(p);
    AttentionSchedule s = defaultBackwardSchedule(kernel, d, modifierLike, p.target(),
                                                  form == Form::Packed);
    // A block mask's lists live beside the tiles: dP after P (spills
    // otherwise, sm_90a). Score modifiers: dP beside S was no faster
    // (session 16, before their dK/dV took transposed tiles).
    if (v.blockMask || v.scoreMod)
      s.dpBesideS = false;
    // The heavier masks on mma.sync are tight on registers already (the
    // forward's fast schedule spilled beside them): lse after the mask.
    if (heavyOnMmaSync && !p.target().wgmma)
      s.lseByFma = false;
    // Tiles given on the command line (block_m, block_n) keep the tile
    // schedule's warps; the sm_90a choices below are for the defaults.
    const bool defaultTiles = !p.getInt("block_m") && !p.getInt("block_n");
    // dQ without a score modifier or block lists: its K and V rings filled
    // by TMA on the tilegpu path (measured, bench/RESULTS.md session 16:
    // -5 to -8 % dQ time at d = 64 from N = 4k), and without a mask at
    // d = 128 on 128x128 tiles over two warpgroups (-6 to -11 % from 4k;
    // with a mask they lose: query blocks twice as long on the diagonal).
    // Not for packed batches (not measured).
    if (kernel == BackwardKernel::Q && p.target().wgmma && form == Form::Dense && !v.scoreMod &&
        !v.blockMask) {
      if (d == 64)
        s.sm90 = Sm90Pipeline::TMA;
      if (d == 128 && !v.mask && defaultTiles) {
        s.blockM = 128;
        s.blockN = 128;
        s.warps = 8;
        s.sm90 = Sm90Pipeline::TMA;
      }
    }
    // dK/dV at d = 64 and 128 without a score modifier or block lists:
    // FlashAttention-3's shape, 64 query rows per step on 128 keys per
    // program over two warpgroups, Q and dO rings by TMA on the tilegpu path
    // (bench/RESULTS.md, session 17: -24 % dK/dV time at N = 16k, dense).
    // Masks come built as [keys, queries] (maskTransposed: transposing the
    // i1 tile spilled 296 bytes here); query-head groups share each query
    // loop (a loop per head took a ring each: 265 KB). A producer
    // warpgroup fills the rings (no block barrier per step): at d = 128
    // the consumers fit 240 registers with the statistics read where used,
    // or in the fused kernel lse at the step's top (below), not both at the
    // top (reading them late cost 2-12 % elsewhere): dense backward +6-8 %
    // (session 18), masked and GQA since their epilogue stopped spilling
    // (session 19); at d = 64 as it is: backward +5-15 % (session 18).
    // Beside the heavier masks (heavyOnMmaSync: the sliding window's) the
    // producer warpgroup lost (dK/dV +19 % at d = 128, +7-49 % at d = 64):
    // TMA by the consumers at d = 128, the 64-key schedule at d = 64.
    // The fused kernel takes the same shape with a producer warpgroup, its
    // dQ share of each step a wgmma on two column blocks (dSᵀ from shared
    // memory, stored by stmatrix) added into dq_acc by TMA reductions
    // (FlashAttention-3's): at d = 64 +4-6 % over the two kernels from 4k
    // (session 27). Where its dQ share goes (DqOrder; H100, session 39):
    // at d = 64 its dot before dK's and its store while dK's dot runs
    // (FlashAttention-3's order), +1-3 % over dQ after dK; at d = 128 both
    // before dK's dot (within 1 % of FlashAttention-3's order there, and
    // dQ's accumulator is not live beside dK's in flight).
    const bool fa3Shape = form == Form::Fused ? (d == 64 || d == 128) && !heavyOnMmaSync
                                              : d == 128 || (d == 64 && !heavyOnMmaSync);
    if (kernel == BackwardKernel::KV && p.target().wgmma &&
        (form == Form::Dense || form == Form::Fused) && !v.scoreMod && !v.blockMask &&
        fa3Shape && defaultTiles) {
      s.blockM = 64;
      s.blockN = 128;
      s.warps = 8;
      s.qInShared = true; // K and V, the A operands of the step's first dots
      s.groupsInOneLoop = true;
      s.sm90 = heavyOnMmaSync ? Sm90Pipeline::TMA : Sm90Pipeline::ProducerWarpgroup;
      // At d = 128 the fused kernel reads lse at the step's top, its load
      // under the scores' dots (+2-6 % over at_use, H100, session 51; ncu
      // had the FFMAs waiting on it at 11 % of samples, session 49).
      if (!heavyOnMmaSync && d == 128)
        s.statistics = form == Form::Fused ? StatisticsRead::LseAtTop : StatisticsRead::AtUse;
      else
        s.statistics = StatisticsRead::StepTop;
      if (form == Form::Fused)
        s.dqOrder = d == 128 ? DqOrder::BeforeDK : DqOrder::DotBeforeDK;
      // The fused kernel at d = 64 takes FlashAttention-3's 128 query rows
      // a step with the scores as [queries, keys] (queriesAsM): half the
      // steps' fixed work a row, wgmma's N 128 for Pᵀ·dO and dSᵀ·Q, and
      // dS·K from the registers; over 64 transposed rows +12-21 % dense
      // and GQA, causal +8-19 % (H100, session 40; the masks' key
      // positions compared by their registers' constants, else causal
      // spilled 24 bytes). dK/dV alone lost 4-7 % at 128 rows.
      if (form == Form::Fused && d == 64 && p.get("score_layout") != "keys_by_queries") {
        s.blockM = 128;
        s.queriesAsM = true;
      }
    }
    if (form == Form::Fused && p.get("score_layout") == "queries_by_keys")
      s.queriesAsM = true; // (any shape; 128 rows above only in FlashAttention-3's)
    // Score modifiers: dQ's rings by TMA on the tilegpu path, and at
    // d = 128 dK/dV's too, which leaves room for 32 query rows per step
    // (tile-to-llvm spills there beside soft-capping's derivative).
    // Soft-capping's backward: +14-16 % at d = 128, +3 % at d = 64, where
    // dK/dV by TMA alone loses 2 % (bench/RESULTS.md, session 16).
    if (p.target().wgmma && form == Form::Dense && v.scoreMod && !v.blockMask) {
      if (kernel == BackwardKernel::Q && d <= 128)
        s.sm90 = Sm90Pipeline::TMA;
      if (kernel == BackwardKernel::KV && d == 128 && defaultTiles) {
        s.blockM = 32;
        s.sm90 = Sm90Pipeline::TMA;
      }
    }
    if (kernel == BackwardKernel::KV && p.all().count("statistics") &&
        p.get("statistics") != "auto") {
      const std::string &read = p.get("statistics");
      s.statistics = read == "step_top" ? StatisticsRead::StepTop
                     : read == "at_use" ? StatisticsRead::AtUse
                                        : StatisticsRead::LseAtTop;
    }
    return s;
  };
  auto bwdConfig = [=](BackwardKernel kernel, const Params &p, Form form = Form::Dense) {
    AttentionConfig cfg = tileConfigFrom(p, bwdSchedule(kernel, p, form));
    if (tune)
      tune(cfg, p);
    cfg.bisectQueryRanges = p.all().count("query_ranges") && p.get("query_ranges") == "bisect";
    return cfg;
  };
  constexpr BackwardKernel KV = BackwardKernel::KV, Q = BackwardKernel::Q;
  // The dK/dV kernels' (and the fused one's) query blocks of a key block.
  std::vector<ParamSpec> kvParams = bwdParams;
  kvParams.push_back(
      {.name = "query_ranges",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "scan",
       .help = "how a program finds the query blocks that see its key block, and those that "
               "need no mask: scan (the variant's key range at every query block) or bisect "
               "(where the variant's bounds never decrease from one query block to the next "
               "— causal, windows, prefix-LM, all keys — bisection, log2 of the blocks; "
               "elsewhere scan)",
       .choices = {"scan", "bisect"}});
  KernelDef kv{
      .name = "flash_attention_bwd_dkdv" + suffix,
      .summary = "backward of flash_attention_fwd" + suffix + ": dK, dV per key block",
      .params = kvParams,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionBackwardKV(k, bwdConfig(KV, p), variant(p));
      },
      .sizes = attentionSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionBackwardKV(bwdConfig(KV, p), variant(p), sizes, seed);
      },
      .checkSizes = [=](const Params &p, const Params &sizes) {
        return headsFitGroups(sizes, bwdConfig(KV, p).group);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("k", 1, bwdConfig(KV, p).blockN), GridDim::shape("k", 0),
                        GridDim::fixed(1)};
      },
      .numWarps = [=](const Params &p) { return bwdSchedule(KV, p).warps; },
      .alignedByDefault = true,
      .aInShared = [=](const Params &p) { return bwdSchedule(KV, p).qInShared; },
      .sm90Pipeline = [=](const Params &p) { return bwdSchedule(KV, p).sm90; },
  };
  KernelDef q = kv;
  q.name = "flash_attention_bwd_dq" + suffix;
  q.summary = "backward of flash_attention_fwd" + suffix + ": dQ per query block";
  q.build = [=](KernelBuilder &k, const Params &p) {
    buildAttentionBackwardQ(k, bwdConfig(Q, p), variant(p));
  };
  q.plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
    return planAttentionBackwardQ(bwdConfig(Q, p), variant(p), sizes, seed);
  };
  q.grid = [=](const Params &p) {
    return GridRule{GridDim::shape("q", 1, bwdConfig(Q, p).blockM), GridDim::shape("q", 0),
                    GridDim::fixed(1)};
  };
  q.numWarps = [=](const Params &p) { return bwdSchedule(Q, p).warps; };
  q.aInShared = [=](const Params &p) { return bwdSchedule(Q, p).qInShared; };
  q.sm90Pipeline = [=](const Params &p) { return bwdSchedule(Q, p).sm90; };

  // The packed batch's backward: the offsets after the tensors.
  KernelDef varlenKV = kv;
  varlenKV.name = "flash_attention_varlen_bwd_dkdv" + suffix;
  varlenKV.summary = "backward of flash_attention_varlen" + suffix + ": dK, dV per key block";
  varlenKV.sizes = attentionVarlenSizes();
  varlenKV.build = [=](KernelBuilder &k, const Params &p) {
    buildAttentionVarlenBackwardKV(k, bwdConfig(KV, p, Form::Packed), variant(p));
  };
  varlenKV.plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
    return planAttentionVarlenBackwardKV(bwdConfig(KV, p, Form::Packed), variant(p), sizes, seed);
  };
  varlenKV.grid = [=](const Params &p) {
    return GridRule{GridDim::scalar("max_seqlen_k", bwdConfig(KV, p, Form::Packed).blockN),
                    GridDim::shape("k", 0), GridDim::sequences("cu_seqlens_k")};
  };
  varlenKV.numWarps = [=](const Params &p) { return bwdSchedule(KV, p, Form::Packed).warps; };
  varlenKV.aInShared = [=](const Params &p) { return bwdSchedule(KV, p, Form::Packed).qInShared; };
  varlenKV.sm90Pipeline = [=](const Params &p) { return bwdSchedule(KV, p, Form::Packed).sm90; };
  KernelDef varlenQ = q;
  varlenQ.name = "flash_attention_varlen_bwd_dq" + suffix;
  varlenQ.summary = "backward of flash_attention_varlen" + suffix + ": dQ per query block";
  varlenQ.sizes = attentionVarlenSizes();
  varlenQ.build = [=](KernelBuilder &k, const Params &p) {
    buildAttentionVarlenBackwardQ(k, bwdConfig(Q, p, Form::Packed), variant(p));
  };
  varlenQ.plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
    return planAttentionVarlenBackwardQ(bwdConfig(Q, p, Form::Packed), variant(p), sizes, seed);
  };
  varlenQ.grid = [=](const Params &p) {
    return GridRule{GridDim::scalar("max_seqlen_q", bwdConfig(Q, p, Form::Packed).blockM),
                    GridDim::shape("q", 0), GridDim::sequences("cu_seqlens_q")};
  };
  varlenQ.numWarps = [=](const Params &p) { return bwdSchedule(Q, p, Form::Packed).warps; };
  varlenQ.aInShared = [=](const Params &p) { return bwdSchedule(Q, p, Form::Packed).qInShared; };
  varlenQ.sm90Pipeline = [=](const Params &p) { return bwdSchedule(Q, p, Form::Packed).sm90; };
  // dK, dV and dQ in one pass over the scores, dQ added atomically (not
  // bitwise repeatable: the dK/dV + dQ pair is the deterministic mode).
  // Its dQ share keeps more live than dK/dV alone: dP beside S everywhere
  // (mma.sync too: fewer spills there in this kernel) but beside a mask at
  // d = 128 on wgmma (where the rows of dQ through shared memory leave no
  // register for it), and on wgmma half the query rows per step beside a
  // block mask's lists or a GQA group's loop (no spills;
  // scripts/ptxas-check.sh).
  auto fusedConfig = [=](const Params &p) {
    AttentionConfig cfg = bwdConfig(KV, p, Form::Fused);
    const std::string &dqOrder = p.get("dq_order");
    if (dqOrder != "auto")
      cfg.dqOrder = dqOrder == "after_dk"    ? DqOrder::AfterDK
                    : dqOrder == "before_dk" ? DqOrder::BeforeDK
                                             : DqOrder::DotBeforeDK;
    cfg.dqByLastProgram = p.get("dq_convert") == "last_program";
    // One barrier of both consumer warpgroups a step at d = 128 in
    // FlashAttention-3's shape: +1 % dense, +1-1.5 % causal over two (H100,
    // session 52); at d = 64 it spills (520 bytes), so two stays there.
    const std::string &barriers = p.get("consumer_barriers");
    const Sm90Pipeline fusedPipeline = bwdSchedule(KV, p, Form::Fused).sm90;
    cfg.oneConsumerBarrier =
        barriers == "one" || (barriers == "auto" && cfg.headDim == 128 &&
                              fusedPipeline == Sm90Pipeline::ProducerWarpgroup);
    if (fusedPipeline != Sm90Pipeline::Default)
      return cfg; // FlashAttention-3's shape (above)
    AttentionVariant v = variant(p);
    cfg.dpBesideS = !(p.target().wgmma && cfg.qkColumns() > 64 && v.mask && !v.blockMask);
    if (p.target().wgmma && !p.getInt("block_m") && (v.blockMask || cfg.group > 1) &&
        cfg.blockM >= 32) // (16 rows are the dots' least)
      cfg.blockM /= 2;
    // tile-to-llvm (its dQ rows go by bulk reductions): a score modifier
    // at d = 128 keeps that lowering's 16 query rows per step.
    if (p.target().wgmma && !p.getInt("block_m") && v.scoreMod && cfg.qkColumns() == 128)
      cfg.blockM = 16;
    return cfg;
  };
  // dK/dV's and the fused kernel's (copied from kv below; the dQ and packed
  // kernels, copied above, read their statistics at their steps' top).
  kv.params.push_back(
      {.name = "statistics",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "auto",
       .help = "where a step over keys by queries reads its queries' lse and delta, each "
               "broadcast over them: step_top (both before the step's dots, live across "
               "them), at_use (each where it is used: fewest live registers, the loads' "
               "latency exposed) or lse_top (lse before the dots, delta before the "
               "exponentials, its load beside them) (auto: at d = 128 in FlashAttention-3's "
               "shape with a producer warpgroup on sm_90a lse_top for the fused kernel and "
               "at_use for dK/dV's, else step_top; a score modifier's or queries_by_keys "
               "step reads both at its top)",
       .choices = {"auto", "step_top", "at_use", "lse_top"}});
  KernelDef fused = kv;
  fused.sm90Pipeline = [=](const Params &p) { return bwdSchedule(KV, p, Form::Fused).sm90; };
  fused.name = "flash_attention_bwd_fused" + suffix;
  fused.params.push_back(
      {.name = "dq_order",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "auto",
       .help = "where each step's dQ share goes beside dK's dot: after_dk (its dot and store "
               "after it), before_dk (both before it), dot_before_dk (its dot before, its store "
               "after, while dK's dot runs; FlashAttention-3's order) (auto: by head_dim)",
       .choices = {"auto", "after_dk", "before_dk", "dot_before_dk"}});
  fused.params.push_back(
      {.name = "dq_convert",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "kernel",
       .help = "how dq_acc becomes dq: kernel (flash_attention_bwd_dq_convert, launched after "
               "this one) or last_program (the last program of each key/value head to finish "
               "converts its query heads' rows and zeroes them; the kernel then also takes dq "
               "and dq_arrivals, one i32 counter a key/value head, zero before the first launch "
               "and again after each)",
       .choices = {"kernel", "last_program"}});
  fused.params.push_back(
      {.name = "score_layout",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "auto",
       .help = "each step's scores as queries_by_keys (as in the forward: P and dS reach dV's "
               "and dK's dots through shared memory, dS is dQ's A operand from the registers) "
               "or keys_by_queries (transposed: Pᵀ and dSᵀ are dV's and dK's A operands from "
               "the registers) (auto: queries_by_keys in FlashAttention-3's shape at d = 64 on "
               "sm_90a, with 128 query rows a step, as it takes there when asked; a score "
               "modifier's step keeps its own)",
       .choices = {"auto", "keys_by_queries", "queries_by_keys"}});
  fused.params.push_back(
      {.name = "consumer_barriers",
       .type = ParamSpec::Type::Choice,
       .defaultValue = "auto",
       .help = "how often a step's warpgroups meet on sm_90a (tilegpu lowering): two (after "
               "dSᵀ's store and after dQ's staging stores, one dSᵀ buffer) or one (after dSᵀ's "
               "store: dSᵀ in two buffers by the step's parity, and the warps that do not "
               "issue dQ's reduction only arrive on its staging barrier; FlashAttention-3's: "
               "+1 % at d = 128, spills at d = 64) (auto: one at d = 128 in FlashAttention-3's "
               "shape with a producer warpgroup on sm_90a, else two)",
       .choices = {"auto", "two", "one"}});
  fused.summary = "backward of flash_attention_fwd" + suffix +
                  ": dK, dV per key block, dQ (unscaled: dS·K) added atomically into f32 dq_acc";
  fused.build = [=](KernelBuilder &k, const Params &p) {
    buildAttentionBackwardFused(k, fusedConfig(p), variant(p));
  };
  fused.plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
    return planAttentionBackwardFused(fusedConfig(p), variant(p), sizes, seed);
  };
  fused.grid = [=](const Params &p) {
    return GridRule{GridDim::shape("k", 1, fusedConfig(p).blockN), GridDim::shape("k", 0),
                    GridDim::fixed(1)};
  };
  fused.numWarps = [=](const Params &p) { return bwdSchedule(KV, p, Form::Fused).warps; };
  fused.aInShared = [=](const Params &p) { return bwdSchedule(KV, p, Form::Fused).qInShared; };
  // A persistent grid claiming its tiles from a counter where that measured
  // faster (fusedBackwardPersistentByDefault): the warp-specialized kernel
  // with its default tiles, dQ order, score layout and dQ conversion.
  fused.persistent = [=](const Params &p) {
    bool defaults = !p.getInt("block_m") && !p.getInt("block_n") &&
                    p.get("dq_order") == "auto" && p.get("dq_convert") == "kernel" &&
                    p.get("score_layout") == "auto";
    Sm90Pipeline sm90 = bwdSchedule(KV, p, Form::Fused).sm90;
    return defaults &&
           (sm90 == Sm90Pipeline::WarpSpecialized || sm90 == Sm90Pipeline::ProducerWarpgroup) &&
           fusedBackwardPersistentByDefault(fusedConfig(p), p.target(), variant(p),
                                            persistentWithMask);
  };
  fused.tileCounter = [](const Params &) { return true; };
  for (KernelDef *def : {&kv, &q, &fused, &varlenKV, &varlenQ})
    if (packed || (def != &varlenKV && def != &varlenQ))
      Registry::global().add(std::move(*def));
}

/// delta = rowsum(dO ∘ O), the same for every variant.
void registerBackwardPrep() {
  // (They pad head dims: split_columns would change nothing.)
  std::vector<ParamSpec> params = withoutParams(attentionBackwardParams(), {"split_columns"});
  auto schedule = [](const Params &p) {
    return defaultBackwardSchedule(BackwardKernel::Prep, scheduleHeadDim(p), false,
                                   p.target());
  };
  auto config = [=](const Params &p) { return tileConfigFrom(p, schedule(p)); };
  Registry::global().add({
      .name = "flash_attention_bwd_prep",
      .summary = "first step of every attention backward: delta = rowsum(dO * O)",
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) { buildAttentionBackwardPrep(k, config(p)); },
      .sizes = attentionSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionBackwardPrep(config(p), sizes, seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("o", 1, config(p).blockM), GridDim::shape("o", 0),
                        GridDim::fixed(1)};
      },
      .numWarps = [=](const Params &p) { return schedule(p).warps; },
      // Not aligned: the forward's lse rows ([B·H, seq_q]) need not be 16-byte
      // multiples, and nothing here streams.
  });
  Registry::global().add({
      .name = "flash_attention_bwd_dq_convert",
      .summary = "last step of the fused attention backward: dq = dq_acc times the softmax "
                 "scale in the inputs' type, dq_acc = 0 for the next",
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionBackwardConvertDQ(k, config(p));
      },
      .sizes = attentionSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionBackwardConvertDQ(config(p), sizes, seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::shape("dq", 1, config(p).blockM), GridDim::shape("dq", 0),
                        GridDim::fixed(1)};
      },
      .numWarps = [=](const Params &p) { return schedule(p).warps; },
      .alignedByDefault = true,
  });
  Registry::global().add({
      .name = "flash_attention_varlen_bwd_prep",
      .summary = "first step of every packed (varlen) backward: delta = rowsum(dO * O)",
      .params = params,
      .build = [=](KernelBuilder &k, const Params &p) {
        buildAttentionVarlenBackwardPrep(k, config(p));
      },
      .sizes = attentionVarlenSizes(),
      .plan = [=](const Params &p, const Params &sizes, uint64_t seed) {
        return planAttentionVarlenBackwardPrep(config(p), sizes, seed);
      },
      .grid = [=](const Params &p) {
        return GridRule{GridDim::scalar("max_seqlen_q", config(p).blockM), GridDim::shape("o", 0),
                        GridDim::sequences("cu_seqlens_q")};
      },
      .numWarps = [=](const Params &p) { return schedule(p).warps; },
      // Not aligned: a sequence's rows of lse start anywhere.
  });
}


} // namespace

void registerAttentionVariant(const VariantRegistration &r, dsl::Where where) {
  // The steps every variant's kernels share, once.
  static std::once_flag shared;
  std::call_once(shared, [] {
    registerBackwardPrep();
    registerDecodeCombine();
  });
  bool validName = std::all_of(r.name.begin(), r.name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
  if (!validName || !r.variant) {
    std::fprintf(stderr, "tilec: attention variant '%s' not registered: %s\n", r.name.c_str(),
                 !validName ? "its name takes lowercase letters, digits and '_' only"
                            : "it has no .variant");
    return;
  }
  // The variant with the registration's inputs and block mask, its rules'
  // results checked (reported at the registration's line).
  auto variant = [make = r.variant, inputs = r.inputs, blockMask = r.blockMask,
                  where](const Params &p) {
    AttentionVariant v = make(p);
    v.inputs.insert(v.inputs.end(), inputs.begin(), inputs.end());
    v.blockMask = v.blockMask || blockMask;
    const char *registered = "of the variant registered here";
    // A mask's result against an i1 stand-in along its keys: a row of
    // [queries, keys], a column of the transposed mask's [keys, queries].
    auto checkedMask = [where, registered](auto mask, bool transposed) {
      return [mask, transposed, where, registered](const BlockContext &c) {
        return detail::checkedRule(
            c, mask(c), transposed ? c.cols.col() == c.cols.col() : c.cols.row() == c.cols.row(),
            false, where, registered);
      };
    };
    if (v.mask)
      v.mask = checkedMask(v.mask, /*transposed=*/false);
    if (v.maskTransposed)
      v.maskTransposed = checkedMask(v.maskTransposed, /*transposed=*/true);
    if (v.scoreMod)
      v.scoreMod = [mod = v.scoreMod, where, registered](Tile s, const BlockContext &c) {
        return detail::checkedRule(c, mod(s, c), s, true, where, registered);
      };
    return v;
  };
  if (r.blockMask)
    registerBlockMask("_" + r.name, r.summary, r.params, variant);
  // Runtime inputs: the forward and backward kernels only (see
  // VariantRegistration::inputs).
  std::vector<ParamSpec> specs = attentionParams();
  specs.insert(specs.end(), r.params.begin(), r.params.end());
  bool plain = r.inputs.empty() && r.variant(Params(specs)).inputs.empty();
  registerAttention(r.name.empty() ? "" : "_" + r.name, r.summary, r.params, variant,
                    r.heavyScores, r.heavyOnMmaSync, r.persistentWithMask, r.tune,
                    r.decode && plain, plain);
}

} // namespace tilec::attention
