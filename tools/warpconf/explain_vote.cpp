// `warpconf explain` for the votes: all, any, uni, ballot. --pred is the mask of lanes whose
// predicate is true.

#include "families/vote/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_vote(const ExplainOptions& options) {
  const auto op = model::vote_op_from_name(options.op);
  if (!op) return std::nullopt;
  const OptionReader read(options, {"--mask", "--exited", "--else-arm", "--pred"});
  const CallScene call = read_scene(read);
  const uint32_t pred = parse_mask("--pred", read.get("--pred", "0"));
  model::PerLane<int32_t> predicate{};
  for (int lane = 0; lane < 32; ++lane) predicate[lane] = model::has_lane(pred, lane) ? 1 : 0;
  Explanation e;
  e.call = std::string(model::intrinsic_name(*op)) + "(" + call.text() + ", predicates=" + hex(pred, 8) + ")";
  e.value_text = [ballot = *op == model::VoteOp::ballot](uint64_t bits) {
    return ballot ? hex(bits, 8) : std::to_string(bits);
  };
  e.lanes = model::vote(*op, call.scene, predicate);
  return e;
}

}  // namespace wc::cli
