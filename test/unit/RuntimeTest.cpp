//===- RuntimeTest.cpp - metadata, JSON and launch-argument checks --------===//
//
// Everything the runtime decides before it touches a GPU: reading the
// metadata tilec writes, and refusing launch arguments that do not fit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Json.h"
#include "tilec/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <utility>

using namespace tilec;
using namespace tilec::rt;

namespace {

/// Metadata as tilec writes it, with `grid` as the value of "grid".
std::string metadataWithGrid(const std::string &grid) {
  return R"json({
  "kernel": "attention",
  "arch": "sm_80",
  "num_warps": 4,
  "threads_per_block": 128,
  "shared_bytes": 70000,
  "params": [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": true},
             {"name": "scale", "kind": "scalar", "dtype": "f32", "rank": 0},
             {"name": "n", "kind": "scalar", "dtype": "i32", "rank": 0}],
  "function_args": ["!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64", "f32", "i32"],
  "grid": )json" + grid + "\n}";
}

const std::string kMetadata = metadataWithGrid(
    R"([{"param": "q", "axis": 1, "divisor": 64}, {"param": "q", "axis": 0}, {"constant": 1}])");

TEST(Json, ParsesNestedDocumentsAndReportsErrors) {
  std::string error;
  auto doc = json::parse(R"({"a": [1, 2.5, -3e2], "b": {"c": "x\"y"}, "d": true, "e": null})", error);
  ASSERT_TRUE(doc) << error;
  ASSERT_TRUE(doc->get("a") && doc->get("a")->isArray());
  EXPECT_EQ(doc->get("a")->array.size(), 3u);
  EXPECT_EQ(doc->get("a")->array[2].number, -300.0);
  EXPECT_EQ(doc->get("b")->get("c")->string, "x\"y");
  EXPECT_TRUE(doc->get("d")->boolean);
  EXPECT_EQ(doc->get("missing"), nullptr);
  EXPECT_FALSE(json::parse(R"({"a": [1, 2})", error));
  EXPECT_NE(error.find("expected ',' or ']'"), std::string::npos) << error;
  EXPECT_EQ(json::quote("a\"b"), "\"a\\\"b\"");
}

TEST(Metadata, ReadsWhatTilecWrites) {
  KernelMetadata meta;
  std::string error;
  ASSERT_TRUE(parseMetadata(kMetadata, meta, error)) << error;
  EXPECT_EQ(meta.kernel, "attention");
  EXPECT_EQ(meta.threadsPerBlock, 128);
  EXPECT_EQ(meta.sharedBytes, 70000);
  EXPECT_TRUE(meta.params[0].aligned);
  ASSERT_EQ(meta.params.size(), 3u);
  EXPECT_EQ(meta.params[0].kind, KernelParam::Kind::Tensor);
  EXPECT_EQ(meta.params[0].dtype, DType::BF16);
  EXPECT_EQ(meta.params[0].rank, 3u);
  EXPECT_EQ(meta.functionArgs.size(), 9u);
  ASSERT_TRUE(meta.grid);
  EXPECT_EQ((*meta.grid)[0].kind, GridDim::Kind::Shape);
  EXPECT_EQ((*meta.grid)[0].param, "q");
  EXPECT_EQ((*meta.grid)[0].axis, 1);
  EXPECT_EQ((*meta.grid)[0].divisor, 64);
  EXPECT_EQ((*meta.grid)[1].divisor, 1);
  EXPECT_EQ((*meta.grid)[2].kind, GridDim::Kind::Constant);
  EXPECT_EQ(toString(*meta.grid), "[cdiv(q.shape[1], 64), q.shape[0], 1]");
  EXPECT_FALSE(parseMetadata(R"({"kernel": "k"})", meta, error));
  EXPECT_NE(error.find("lacks"), std::string::npos) << error;
}

TEST(Metadata, ANullGridIsNoGrid) {
  KernelMetadata meta;
  std::string error;
  ASSERT_TRUE(parseMetadata(kMetadata, meta, error)) << error;
  ASSERT_TRUE(parseMetadata(metadataWithGrid("null"), meta, error)) << error;
  EXPECT_FALSE(meta.grid);
}

TEST(Metadata, RejectsMalformedGridsSayingWhy) {
  const std::pair<const char *, const char *> cases[] = {
      {R"("[cdiv(q.shape[1], 64), q.shape[0], 1]")", "'grid' is a formula"},
      {R"([{"constant": 1}, {"constant": 1}])", "'grid' must be null or an array of three"},
      {R"({"constant": 1})", "'grid' must be null or an array of three"},
      {R"([1, {"constant": 1}, {"constant": 1}])", "grid[0]: expected an object"},
      {R"([{"constant": 1}, {"param": "k", "axis": 0}, {"constant": 1}])",
       "grid[1]: 'k' is not a parameter of the kernel"},
      {R"([{"param": "q", "axis": 3}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'q' has rank 3, no axis 3"},
      {R"([{"param": "q", "axis": -1}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'q' has rank 3, no axis -1"},
      {R"([{"param": "q"}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'q' is a tensor; name an axis of it"},
      {R"([{"param": "scale"}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'scale' is a scalar, not an integer scalar"},
      {R"([{"param": "n", "axis": 0}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'n' is a scalar, it has no axis"},
      {R"([{"constant": 1}, {"constant": 1}, {"constant": 0}])",
       "grid[2]: the constant must be positive, got 0"},
      {R"([{"param": "n", "divisor": 0}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: the divisor must be positive, got 0"},
      {R"([{"constant": 1.5}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'constant' must be an integer"},
      {R"([{"param": "n", "divisor": "8"}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'divisor' must be an integer"},
      {R"([{"constant": 1, "param": "n"}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: give exactly one of 'constant' and 'param'"},
      {R"([{}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: give exactly one of 'constant' and 'param'"},
      {R"([{"constant": 1, "axes": 2}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: unknown member 'axes'"},
      {R"([{"constant": 1, "axis": 2}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'axis' needs 'param'"},
      {R"([{"param": 3}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'param' must be a parameter's name"},
      {R"([{"param": "q", "axis": 0, "less": -1}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'less' must be 0 or positive, with a parameter; got -1"},
      {R"([{"constant": 2, "less": 1}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'less' must be 0 or positive, with a parameter; got 1"},
      {R"([{"param": "n", "less": "1"}, {"constant": 1}, {"constant": 1}])",
       "grid[0]: 'less' must be an integer"},
  };
  for (const auto &[grid, why] : cases) {
    KernelMetadata meta;
    std::string error;
    EXPECT_FALSE(parseMetadata(metadataWithGrid(grid), meta, error)) << grid;
    EXPECT_NE(error.find(std::string("kernel metadata: ") + why), std::string::npos)
        << grid << ": " << error;
  }
}

class LaunchArguments : public ::testing::Test {
protected:
  LaunchArguments() {
    std::string error;
    EXPECT_TRUE(parseMetadata(kMetadata, meta, error)) << error;
  }
  TensorArg q(uint64_t address = 0x10000) {
    return TensorArg{address, {16, 1000, 64}, {64000, 64, 1}};
  }
  KernelMetadata meta;
};

TEST_F(LaunchArguments, AcceptsWhatFits) {
  EXPECT_EQ(checkArguments(meta, {q(), 0.125, 3000.0}), "");
}

TEST_F(LaunchArguments, GiveTheGridTheMetadataStates) {
  std::string error;
  std::optional<std::array<int64_t, 3>> grid = launchGrid(meta, {q(), 0.125, 3000.0}, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(*grid, (std::array<int64_t, 3>{16, 16, 1})); // cdiv(1000, 64), 16, 1
  meta.grid = GridRule{GridDim::scalar("n", 1024), GridDim::shape("q", 2), GridDim::fixed(2)};
  grid = launchGrid(meta, {q(), 0.125, 3000.0}, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(*grid, (std::array<int64_t, 3>{3, 64, 2}));
  EXPECT_FALSE(launchGrid(meta, {q()}, error));
  EXPECT_NE(error.find("takes 3 arguments"), std::string::npos) << error;
  // One program per sequence of a packed batch: the offsets' size less one;
  // none (launch nothing) where that is not positive.
  meta.grid = GridRule{GridDim::shape("q", 1, 64, 100), GridDim::sequences("q"),
                       GridDim::shape("q", 0, 1, 20)};
  grid = launchGrid(meta, {q(), 0.125, 3000.0}, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(*grid, (std::array<int64_t, 3>{15, 15, 0})); // cdiv(900, 64), 16 - 1, max(16 - 20, 0)
  meta.grid = GridRule{GridDim::shape("q", 7), GridDim::fixed(1), GridDim::fixed(1)};
  EXPECT_FALSE(launchGrid(meta, {q(), 0.125, 3000.0}, error));
  EXPECT_NE(error.find("grid[0]: 'q' has rank 3, no axis 7"), std::string::npos) << error;
  meta.grid.reset();
  EXPECT_FALSE(launchGrid(meta, {q(), 0.125, 3000.0}, error));
  EXPECT_NE(error.find("states no launch grid"), std::string::npos) << error;
}

TEST_F(LaunchArguments, RejectsWrongCountKindAndRank) {
  EXPECT_NE(checkArguments(meta, {q()}).find("takes 3 arguments, the launch gives 1"),
            std::string::npos);
  EXPECT_NE(checkArguments(meta, {PointerArg{0x10000}, 0.125, 3000.0}).find("expected a TensorArg"),
            std::string::npos);
  TensorArg flat{0x10000, {1000, 64}, {64, 1}};
  EXPECT_NE(checkArguments(meta, {flat, 0.125, 3000.0}).find("expected rank 3"), std::string::npos);
  EXPECT_NE(checkArguments(meta, {q(0), 0.125, 3000.0}).find("null device address"), std::string::npos);
}

TEST_F(LaunchArguments, EnforcesTheAlignmentTheKernelWasCompiledFor) {
  std::string misaligned = checkArguments(meta, {q(0x10002), 0.125, 3000.0});
  EXPECT_NE(misaligned.find("argument 0 ('q', a tensor)"), std::string::npos) << misaligned;
  EXPECT_NE(misaligned.find("--assume-aligned"), std::string::npos) << misaligned;
  TensorArg ragged{0x10000, {16, 1000, 60}, {60000, 60, 1}};
  EXPECT_NE(checkArguments(meta, {ragged, 0.125, 3000.0}), "");
  TensorArg strided{0x10000, {16, 1000, 64}, {64000, 128, 2}};
  EXPECT_NE(checkArguments(meta, {strided, 0.125, 3000.0}), "");
  meta.params[0].aligned = false;
  EXPECT_EQ(checkArguments(meta, {ragged, 0.125, 3000.0}), "");
}

TEST_F(LaunchArguments, EnforcesAUnitInnerStrideWhereTheKernelAssumesIt) {
  meta.params[0].aligned = false;
  TensorArg ragged{0x10002, {16, 1001, 3}, {3003, 3, 1}};
  TensorArg strided{0x10000, {16, 1001, 3}, {6006, 6, 2}};
  EXPECT_EQ(checkArguments(meta, {strided, 0.125, 3000.0}), "");
  meta.params[0].unitStride = true;
  EXPECT_EQ(checkArguments(meta, {ragged, 0.125, 3000.0}), ""); // no alignment asked
  std::string error = checkArguments(meta, {strided, 0.125, 3000.0});
  EXPECT_NE(error.find("argument 0 ('q', a tensor)"), std::string::npos) << error;
  EXPECT_NE(error.find("innermost stride 1, got stride 2"), std::string::npos) << error;
  TensorArg oneColumn{0x10000, {16, 1001, 1}, {2002, 2, 5}}; // no stride is read there
  EXPECT_EQ(checkArguments(meta, {oneColumn, 0.125, 3000.0}), "");

  KernelMetadata parsed;
  std::string parseError;
  std::string text = kMetadata;
  text.replace(text.find("\"aligned\": true"), 15, "\"unit_stride\": true");
  ASSERT_TRUE(parseMetadata(text, parsed, parseError)) << parseError;
  EXPECT_TRUE(parsed.params[0].unitStride);
  EXPECT_FALSE(parsed.params[0].aligned);
}

TEST_F(LaunchArguments, EnforcesTheSizesTheKernelWasCompiledFor) {
  KernelMetadata parsed;
  std::string parseError, text = kMetadata;
  text.replace(text.find("\"aligned\": true"), 15,
               "\"aligned\": true, \"sizes\": [null, null, 64]");
  ASSERT_TRUE(parseMetadata(text, parsed, parseError)) << parseError;
  EXPECT_EQ(parsed.params[0].sizes, (std::vector<int64_t>{-1, -1, 64}));
  EXPECT_EQ(checkArguments(parsed, {q(), 0.125, 3000.0}), "");
  TensorArg wide{0x10000, {16, 1000, 128}, {128000, 128, 1}};
  std::string error = checkArguments(parsed, {wide, 0.125, 3000.0});
  EXPECT_NE(error.find("argument 0 ('q', a tensor): dimension 2 = 128: the kernel was compiled "
                       "for 64"),
            std::string::npos)
      << error;
  // One size per dimension, each a whole number >= 0 or null.
  for (const char *bad : {"[null, 64]", "[null, null, -1]", "[null, null, \"64\"]", "64"}) {
    std::string malformed = kMetadata;
    malformed.replace(malformed.find("\"aligned\": true"), 15,
                      std::string("\"aligned\": true, \"sizes\": ") + bad);
    EXPECT_FALSE(parseMetadata(malformed, parsed, parseError)) << bad;
    EXPECT_NE(parseError.find("malformed \"sizes\""), std::string::npos) << parseError;
  }
}

/// Metadata of a kernel that reads tensor `k` through one tensor map, with
/// `maps` as the value of "tensor_maps".
std::string metadataWithMaps(const std::string &maps) {
  return R"json({
  "kernel": "attention_tma",
  "arch": "sm_90a",
  "num_warps": 4,
  "threads_per_block": 128,
  "shared_bytes": 70000,
  "params": [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": true},
             {"name": "k", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": false},
             {"name": "scale", "kind": "scalar", "dtype": "f32", "rank": 0}],
  "function_args": ["!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64",
                    "!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64", "f32",
                    "!llvm.ptr"],
  "grid": null,
  "tensor_maps": )json" + maps + "\n}";
}

const std::string kMapsMetadata =
    metadataWithMaps(R"([{"param": "k", "box": [1, 64, 64], "swizzle": 128}])");

TEST(Metadata, ReadsTensorMaps) {
  KernelMetadata meta;
  std::string error;
  ASSERT_TRUE(parseMetadata(kMapsMetadata, meta, error)) << error;
  ASSERT_EQ(meta.tensorMaps.size(), 1u);
  EXPECT_EQ(meta.tensorMaps[0].param, 1u);
  EXPECT_EQ(meta.tensorMaps[0].box, (std::vector<int64_t>{1, 64, 64}));
  EXPECT_EQ(meta.tensorMaps[0].swizzle, 128);
  ASSERT_TRUE(parseMetadata(metadataWithMaps(R"([{"param": "q", "box": [2, 8, 16], "swizzle": 0},
      {"param": "k", "box": [1, 128, 32], "swizzle": 64}])"),
                            meta, error))
      << error;
  ASSERT_EQ(meta.tensorMaps.size(), 2u);
  EXPECT_EQ(meta.tensorMaps[0].param, 0u);
  EXPECT_EQ(meta.tensorMaps[1].box, (std::vector<int64_t>{1, 128, 32}));
  EXPECT_EQ(meta.tensorMaps[1].swizzle, 64);
  // None: an empty list, or (as tilec writes it) no member at all.
  ASSERT_TRUE(parseMetadata(metadataWithMaps("[]"), meta, error)) << error;
  EXPECT_TRUE(meta.tensorMaps.empty());
  ASSERT_TRUE(parseMetadata(kMapsMetadata, meta, error)) << error;
  ASSERT_TRUE(parseMetadata(kMetadata, meta, error)) << error;
  EXPECT_TRUE(meta.tensorMaps.empty());
}

TEST(Metadata, EnforcesSizesTakenFromAnotherTensor) {
  // k's first dimension must be q's (as the fused backward's dq_arrivals
  // takes k's).
  std::string text = metadataWithMaps("[]");
  const std::string mapArg = ",\n                    \"!llvm.ptr\"";
  text.erase(text.find(mapArg), mapArg.size()); // no tensor map: no argument for it
  const std::string kParam = R"("name": "k", "kind": "tensor", "dtype": "bf16", "rank": 3, )";
  auto withSizesOf = [&](const std::string &sizesOf) {
    std::string t = text;
    t.replace(t.find(kParam), kParam.size(), kParam + "\"sizes_of\": " + sizesOf + ", ");
    return t;
  };
  KernelMetadata meta;
  std::string error;
  ASSERT_TRUE(parseMetadata(withSizesOf(R"([{"param": "q", "axis": 0}, null, null])"), meta, error))
      << error;
  ASSERT_EQ(meta.params[1].sizesOf.size(), 3u);
  EXPECT_EQ(meta.params[1].sizesOf[0].param, "q");
  EXPECT_TRUE(meta.params[1].sizesOf[1].param.empty());
  TensorArg q{0x10000, {6, 100, 64}, {6400, 64, 1}};
  TensorArg k{0x20000, {6, 77, 64}, {4928, 64, 1}}, fewer{0x20000, {5, 77, 64}, {4928, 64, 1}};
  EXPECT_EQ(checkArguments(meta, {q, k, 0.125}), "");
  error = checkArguments(meta, {q, fewer, 0.125});
  EXPECT_NE(error.find("argument 1 ('k', a tensor): dimension 0 = 5: the kernel needs the size "
                       "of 'q' dimension 0, 6"),
            std::string::npos)
      << error;
  for (const char *bad : {R"([{"param": "q"}, null, null])", "[null, null]",
                          R"([{"param": "q", "axis": -1}, null, null])"}) {
    EXPECT_FALSE(parseMetadata(withSizesOf(bad), meta, error)) << bad;
    EXPECT_NE(error.find("malformed \"sizes_of\""), std::string::npos) << error;
  }
  for (const char *bad : {R"([{"param": "scale", "axis": 0}, null, null])",
                          R"([{"param": "q", "axis": 3}, null, null])"}) {
    EXPECT_FALSE(parseMetadata(withSizesOf(bad), meta, error)) << bad;
    EXPECT_NE(error.find("which is not a tensor's dimension"), std::string::npos) << error;
  }
}

TEST(Metadata, RejectsMalformedTensorMapsSayingWhy) {
  const std::pair<const char *, const char *> cases[] = {
      {R"({"param": "k", "box": [1, 64, 64], "swizzle": 128})", "'tensor_maps' must be an array"},
      {R"([{"param": "v", "box": [1, 64, 64], "swizzle": 128}])",
       "tensor_maps[0]: 'v' is not a parameter of the kernel"},
      {R"([{"param": "scale", "box": [1, 64, 64], "swizzle": 128}])",
       "tensor_maps[0]: 'scale' is a scalar, not a tensor"},
      {R"([{"param": "k", "box": [64, 64], "swizzle": 128}])",
       "tensor_maps[0]: the box has rank 2, 'k' has rank 3"},
      {R"([{"param": "k", "box": [0, 64, 64], "swizzle": 128}])",
       "tensor_maps[0]: box[0] = 0 is outside [1, 256]"},
      {R"([{"param": "k", "box": [1, 300, 64], "swizzle": 128}])",
       "tensor_maps[0]: box[1] = 300 is outside [1, 256]"},
      {R"([{"param": "k", "box": [1, 64, 64], "swizzle": 48}])",
       "tensor_maps[0]: swizzle 48 is not 0, 32, 64 or 128 bytes"},
      {R"([{"param": "k", "box": [1, 64, 128], "swizzle": 128}])",
       "tensor_maps[0]: the box's innermost dimension is 256 bytes (128 x bf16), wider than "
       "the 128-byte swizzle span"},
      {R"([{"param": "k", "box": [1, 64, 32], "swizzle": 32}])",
       "tensor_maps[0]: the box's innermost dimension is 64 bytes (32 x bf16), wider than the "
       "32-byte swizzle span"},
      {R"([{"param": "k", "box": [1, 64, 4], "swizzle": 0}])",
       "tensor_maps[0]: the box's innermost dimension is 8 bytes (4 x bf16), not a multiple "
       "of 16"},
      {R"([{"param": "k", "box": [1, 64, 64], "swizzle": 128},
           {"param": "k", "box": [1, 64, 64]}])",
       "tensor_maps[1]: 'swizzle' must be an integer"},
      {R"([{"param": "k", "box": [1, 64.5, 64], "swizzle": 128}])",
       "tensor_maps[0]: 'box' must be an array of integers"},
      {R"([{"param": "k", "box": [1, 64, 64], "swizzle": 128, "axis": 0}])",
       "tensor_maps[0]: unknown member 'axis'"},
      {R"([{"box": [1, 64, 64], "swizzle": 128}])",
       "tensor_maps[0]: 'param' must be a tensor parameter's name"},
      {R"([7])", "tensor_maps[0]: expected an object"},
  };
  for (const auto &[maps, why] : cases) {
    KernelMetadata meta;
    std::string error;
    EXPECT_FALSE(parseMetadata(metadataWithMaps(maps), meta, error)) << maps;
    EXPECT_NE(error.find(std::string("kernel metadata: ") + why), std::string::npos)
        << maps << ": " << error;
  }
}

TEST(Metadata, TensorMapsOnlyOfTypesTMACopies) {
  KernelSignature params = {{"ids", KernelParam::Kind::Tensor, DType::I32, 2},
                            {"x", KernelParam::Kind::Tensor, DType::F32, 2},
                            {"s", KernelParam::Kind::Tensor, DType::F32, 0}};
  EXPECT_EQ(checkTensorMap({0, {8, 8}, 0}, params),
            "'ids' is i32; tensor maps are supported for bf16, f16 and f32");
  EXPECT_EQ(checkTensorMap({1, {8, 32}, 128}, params), "");
  EXPECT_EQ(checkTensorMap({1, {8, 64}, 128}, params),
            "the box's innermost dimension is 256 bytes (64 x f32), wider than the 128-byte "
            "swizzle span");
  EXPECT_EQ(checkTensorMap({2, {}, 0}, params), "'s' has rank 0; a tensor map has rank 1 to 5");
  EXPECT_EQ(checkTensorMap({3, {8}, 0}, params),
            "parameter 3 does not exist; the kernel has 3");
}

class TensorMapArguments : public ::testing::Test {
protected:
  TensorMapArguments() {
    std::string error;
    EXPECT_TRUE(parseMetadata(kMapsMetadata, meta, error)) << error;
  }
  TensorArg q() { return TensorArg{0x10000, {16, 1000, 64}, {64000, 64, 1}}; }
  std::string check(TensorArg k) { return checkArguments(meta, {q(), k, 0.125}); }
  KernelMetadata meta;
};

TEST_F(TensorMapArguments, AcceptsWhatTMACanRead) {
  EXPECT_EQ(check(TensorArg{0x20000, {16, 1000, 64}, {64000, 64, 1}}), "");
  // Padded rows and heads, an innermost size below the box's, an empty tensor.
  EXPECT_EQ(check(TensorArg{0x20010, {16, 1000, 60}, {70000, 64, 1}}), "");
  EXPECT_EQ(check(TensorArg{0x20000, {16, 0, 64}, {0, 64, 1}}), "");
}

TEST_F(TensorMapArguments, RejectsWhatTMACannotReadNamingTheArgument) {
  std::string misaligned = check(TensorArg{0x20008, {16, 1000, 64}, {64000, 64, 1}});
  EXPECT_NE(misaligned.find("attention_tma argument 1 ('k', a tensor): its tensor map "
                            "(tensor_maps[0], box [1, 64, 64]) needs a 16-byte aligned "
                            "address, got 0x20008"),
            std::string::npos)
      << misaligned;
  std::string strided = check(TensorArg{0x20000, {16, 1000, 64}, {128000, 128, 2}});
  EXPECT_NE(strided.find("argument 1 ('k', a tensor)"), std::string::npos) << strided;
  EXPECT_NE(strided.find("needs innermost stride 1, got 2"), std::string::npos) << strided;
  std::string narrow = check(TensorArg{0x20000, {16, 1000, 12}, {12000, 12, 1}});
  EXPECT_NE(narrow.find("argument 1 ('k', a tensor)"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("multiples of 16 bytes below 2^40, got strides[1] = 12 elements = 24 "
                        "bytes"),
            std::string::npos)
      << narrow;
  std::string huge = check(TensorArg{0x20000, {16, 1000, 64}, {int64_t{1} << 40, 64, 1}});
  EXPECT_NE(huge.find("got strides[0] = 1099511627776 elements"), std::string::npos) << huge;
  std::string negative = check(TensorArg{0x20000, {16, 1000, 64}, {64000, -64, 1}});
  EXPECT_NE(negative.find("got strides[1] = -64 elements"), std::string::npos) << negative;
}

TEST_F(TensorMapArguments, CountTheMapsAmongTheFunctionArguments) {
  meta.functionArgs.pop_back(); // as if the metadata did not list the map
  std::string error = check(TensorArg{0x20000, {16, 1000, 64}, {64000, 64, 1}});
  EXPECT_NE(error.find("the arguments expand to 16 function arguments (1 of them tensor "
                       "maps), the metadata lists 15"),
            std::string::npos)
      << error;
}

TEST_F(TensorMapArguments, RefuseMapsOfMetadataNotCheckedByParsing) {
  meta.tensorMaps[0].param = 2;
  std::string error = check(TensorArg{0x20000, {16, 1000, 64}, {64000, 64, 1}});
  EXPECT_NE(error.find("attention_tma: tensor_maps[0]: 'scale' is a scalar, not a tensor"),
            std::string::npos)
      << error;
}

TEST_F(TensorMapArguments, EncodeInnermostDimensionFirst) {
  TensorMapEncoding e;
  TensorArg k{0x20000, {16, 1000, 60}, {70000, 80, 1}};
  ASSERT_EQ(tensorMapEncoding(meta, 0, k, e), "");
  EXPECT_EQ(e.dataType, 9); // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  EXPECT_EQ(e.address, 0x20000u);
  EXPECT_EQ(e.globalDim, (std::vector<uint64_t>{60, 1000, 16}));
  EXPECT_EQ(e.globalStrides, (std::vector<uint64_t>{160, 140000}));
  EXPECT_EQ(e.boxDim, (std::vector<uint32_t>{64, 64, 1}));
  EXPECT_EQ(e.elementStrides, (std::vector<uint32_t>{1, 1, 1}));
  EXPECT_EQ(e.interleave, 0);
  EXPECT_EQ(e.swizzle, 3);     // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(e.l2Promotion, 3); // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  EXPECT_EQ(e.oobFill, 0);
  EXPECT_EQ(toString(e), "bf16 at 0x20000, globalDim [60, 1000, 16], globalStrides [160, "
                         "140000] bytes, boxDim [64, 64, 1], swizzle mode 3");
  // An empty dimension still encodes (as 1): its loop never reads the map.
  ASSERT_EQ(tensorMapEncoding(meta, 0, TensorArg{0x20000, {16, 0, 64}, {0, 64, 1}}, e), "");
  EXPECT_EQ(e.globalDim, (std::vector<uint64_t>{64, 1, 16}));
  EXPECT_EQ(e.globalStrides, (std::vector<uint64_t>{128, 0}));
  meta.params[1].dtype = DType::F16;
  meta.tensorMaps[0] = TensorMapParam{1, {2, 32, 16}, 32};
  ASSERT_EQ(tensorMapEncoding(meta, 0, k, e), "");
  EXPECT_EQ(e.dataType, 6); // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  EXPECT_EQ(e.swizzle, 1);  // CU_TENSOR_MAP_SWIZZLE_32B
  EXPECT_EQ(e.boxDim, (std::vector<uint32_t>{16, 32, 2}));
  meta.params[1].dtype = DType::F32;
  meta.tensorMaps[0] = TensorMapParam{1, {2, 32, 16}, 64};
  ASSERT_EQ(tensorMapEncoding(meta, 0, k, e), "");
  EXPECT_EQ(e.dataType, 7); // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  EXPECT_EQ(e.swizzle, 2);  // CU_TENSOR_MAP_SWIZZLE_64B
  EXPECT_EQ(e.globalStrides, (std::vector<uint64_t>{320, 280000}));
  EXPECT_NE(tensorMapEncoding(meta, 1, k, e).find("tensor_maps[1] does not exist"),
            std::string::npos);
}

} // namespace

namespace {

/// Metadata of a persistent kernel (tile-persistent-grid) with one tensor
/// map: `extra` lists the function arguments between the parameters' and
/// the map (the grid's three i32 when tilec wrote it).
std::string persistentMetadata(const std::string &extra) {
  return R"json({
  "kernel": "attention_persistent",
  "arch": "sm_90a",
  "num_warps": 8,
  "threads_per_block": 384,
  "shared_bytes": 197632,
  "persistent": true,
  "params": [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": true},
             {"name": "k", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": true},
             {"name": "scale", "kind": "scalar", "dtype": "f32", "rank": 0}],
  "function_args": ["!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64",
                    "!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64", "f32",)json" +
         extra + R"json(
                    "!llvm.ptr"],
  "grid": [{"param": "q", "axis": 1, "divisor": 128}, {"param": "q", "axis": 0}, {"constant": 1}],
  "tensor_maps": [{"param": "k", "box": [1, 64, 64], "swizzle": 128}]
}
)json";
}

} // namespace

// "tile_counter" (tilegpu-claim-tiles: the programs claim tiles from a
// counter of the module) is read, and only on a persistent kernel.
TEST(Metadata, TileCountersBelongToPersistentKernels) {
  KernelMetadata meta;
  std::string error;
  std::string text = persistentMetadata(R"("i32", "i32", "i32",)");
  std::string marked = text;
  marked.replace(marked.find(R"("persistent": true,)"), 19,
                 R"("persistent": true, "tile_counter": true,)");
  ASSERT_TRUE(parseMetadata(marked, meta, error)) << error;
  EXPECT_TRUE(meta.tileCounter);
  ASSERT_TRUE(parseMetadata(text, meta, error)) << error;
  EXPECT_FALSE(meta.tileCounter);
  std::string unmarked = marked;
  unmarked.replace(unmarked.find(R"("persistent": true,)"), 19, "");
  EXPECT_FALSE(parseMetadata(unmarked, meta, error));
  EXPECT_EQ(error, R"("tile_counter" needs "persistent")");
}

// A persistent kernel takes its grid as three i32 arguments between the
// parameters' and the tensor maps: the metadata says so, the launch
// arguments are counted with them, and metadata that lists no room for
// them is refused saying what the count includes.
TEST(Metadata, PersistentKernelsTakeTheGridBeforeTheirTensorMaps) {
  KernelMetadata meta;
  std::string error;
  ASSERT_TRUE(parseMetadata(persistentMetadata(R"("i32", "i32", "i32",)"), meta, error)) << error;
  EXPECT_TRUE(meta.persistent);
  TensorArg q{0x10000, {2, 300, 64}, {300 * 64, 64, 1}};
  TensorArg k{0x20000, {2, 300, 64}, {300 * 64, 64, 1}};
  EXPECT_EQ(checkArguments(meta, {q, k, 0.125}), "");
  std::optional<std::array<int64_t, 3>> grid = launchGrid(meta, {q, k, 0.125}, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(*grid, (std::array<int64_t, 3>{3, 2, 1})); // the logical grid, as for any kernel

  ASSERT_TRUE(parseMetadata(persistentMetadata(""), meta, error)) << error;
  std::string refused = checkArguments(meta, {q, k, 0.125});
  EXPECT_NE(refused.find("expand to 19 function arguments (1 of them tensor maps, 3 the grid), "
                         "the metadata lists 16"),
            std::string::npos)
      << refused;

  ASSERT_TRUE(parseMetadata(kMapsMetadata, meta, error)) << error;
  EXPECT_FALSE(meta.persistent); // absent: an ordinary grid
  EXPECT_FALSE(meta.tileCounter);
}
