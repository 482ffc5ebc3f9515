// Metamorphic relations on the GPU: one quantity computed two ways in one kernel. Both results must
// equal the model's, so a wrong intrinsic fails even where the two ways would agree with each other.
#include <gtest/gtest.h>

#include "families/reduce/family.hpp"
#include "families/relation/family.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

struct RelationParam {
  gpu::Relation relation;
  model::Type type;
};

std::ostream& operator<<(std::ostream& os, const RelationParam& p) {
  return os << gpu::relation_name(p.relation) << " <" << model::info(p.type).cpp << ">";
}

std::vector<RelationParam> every_relation() {
  std::vector<RelationParam> out;
  for (gpu::Relation r : gpu::kRelations) {
    out.push_back({r, model::Type::u32});
    if (r == gpu::Relation::reduce_add_is_butterfly || r == gpu::Relation::reduce_min_is_butterfly ||
        r == gpu::Relation::reduce_max_is_butterfly)
      out.push_back({r, model::Type::i32});
  }
  return out;
}

class RelationOnGpu : public check::GpuTest, public ::testing::WithParamInterface<RelationParam> {};

TEST_P(RelationOnGpu, holds_and_agrees_with_the_model) {
  const RelationParam p = GetParam();
  if (gpu::uses_reduce(p.relation))
    if (auto why = check::not_supported_recorded(gpu::kReduceComputeCapability, "relation", "__reduce_*_sync"))
      GTEST_SKIP() << *why;
  sweeps::expect_gpu_agrees(sweeps::relation_batch(p.relation, p.type), 8);
}

std::string param_name(const ::testing::TestParamInfo<RelationParam>& info) {
  return std::string(gpu::relation_id(info.param.relation)) + "_" + std::string(model::info(info.param.type).name);
}

INSTANTIATE_TEST_SUITE_P(EveryRelation, RelationOnGpu, ::testing::ValuesIn(every_relation()), param_name);

}  // namespace
}  // namespace wc
