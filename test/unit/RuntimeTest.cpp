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

} // namespace
