// `warpconf explain` for the votes: all, any, uni, ballot. --pred is the mask of lanes whose
// predicate is true.
#include <cstdio>

#include "model/vote.hpp"
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
  char pred_text[16];
  std::snprintf(pred_text, sizeof pred_text, "0x%08x", pred);
  e.call = std::string(model::intrinsic_name(*op)) + "(" + call.text() + ", predicates=" + pred_text + ")";
  e.value_text = [ballot = *op == model::VoteOp::ballot](uint64_t bits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, ballot ? "0x%08llx" : "%llu", static_cast<unsigned long long>(bits));
    return std::string(buf);
  };
  e.lanes = model::vote(*op, call.scene, predicate);
  return e;
}

}  // namespace wc::cli
