//===- RuntimeTest.cpp - metadata, JSON and launch-argument checks --------===//
//
// Everything the runtime decides before it touches a GPU: reading the
// metadata tilec writes, and refusing launch arguments that do not fit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Json.h"
#include "tilec/Runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::rt;

namespace {

const char *kMetadata = R"json({
  "kernel": "attention",
  "arch": "sm_80",
  "num_warps": 4,
  "threads_per_block": 128,
  "shared_bytes": 70000,
  "params": [{"name": "q", "kind": "tensor", "dtype": "bf16", "rank": 3, "aligned": true},
             {"name": "scale", "kind": "scalar", "dtype": "f32", "rank": 0}],
  "function_args": ["!llvm.ptr<1>", "i32", "i32", "i32", "i64", "i64", "i64", "f32"],
  "grid": "[cdiv(q.shape[1], 64), q.shape[0], 1]"
})json";

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
  ASSERT_EQ(meta.params.size(), 2u);
  EXPECT_EQ(meta.params[0].kind, KernelParam::Kind::Tensor);
  EXPECT_EQ(meta.params[0].dtype, DType::BF16);
  EXPECT_EQ(meta.params[0].rank, 3u);
  EXPECT_EQ(meta.functionArgs.size(), 8u);
  EXPECT_FALSE(parseMetadata(R"({"kernel": "k"})", meta, error));
  EXPECT_NE(error.find("lacks"), std::string::npos) << error;
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
  EXPECT_EQ(checkArguments(meta, {q(), 0.125}), "");
}

TEST_F(LaunchArguments, RejectsWrongCountKindAndRank) {
  EXPECT_NE(checkArguments(meta, {q()}).find("takes 2 arguments, the launch gives 1"),
            std::string::npos);
  EXPECT_NE(checkArguments(meta, {PointerArg{0x10000}, 0.125}).find("expected a TensorArg"),
            std::string::npos);
  TensorArg flat{0x10000, {1000, 64}, {64, 1}};
  EXPECT_NE(checkArguments(meta, {flat, 0.125}).find("expected rank 3"), std::string::npos);
  EXPECT_NE(checkArguments(meta, {q(0), 0.125}).find("null device address"), std::string::npos);
}

TEST_F(LaunchArguments, EnforcesTheAlignmentTheKernelWasCompiledFor) {
  std::string misaligned = checkArguments(meta, {q(0x10002), 0.125});
  EXPECT_NE(misaligned.find("argument 0 ('q', a tensor)"), std::string::npos) << misaligned;
  EXPECT_NE(misaligned.find("--assume-aligned"), std::string::npos) << misaligned;
  TensorArg ragged{0x10000, {16, 1000, 60}, {60000, 60, 1}};
  EXPECT_NE(checkArguments(meta, {ragged, 0.125}), "");
  TensorArg strided{0x10000, {16, 1000, 64}, {64000, 128, 2}};
  EXPECT_NE(checkArguments(meta, {strided, 0.125}), "");
  meta.params[0].aligned = false;
  EXPECT_EQ(checkArguments(meta, {ragged, 0.125}), "");
}

} // namespace
