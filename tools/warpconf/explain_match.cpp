// `warpconf explain` for match_any and match_all; match_all lanes also carry the predicate.
#include <algorithm>

#include "families/match/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_match(const ExplainOptions& options) {
  const auto op = model::match_op_from_name(options.op);
  if (!op) return std::nullopt;
  const OptionReader read(options, {"--type", "--mask", "--exited", "--else-arm", "--values"});
  const std::string type_name = read.require("--type");
  const auto type = model::type_from_name(type_name);
  if (!type || std::find(model::kMatchTypes.begin(), model::kMatchTypes.end(), *type) == model::kMatchTypes.end())
    throw UsageError("--type: " + options.op + " takes i32 u32 long ulong i64 u64 f32 f64, not '" + type_name + "'");
  const CallScene call = read_scene(read);
  model::PerLane<uint64_t> values{};
  if (read.has("--values")) {
    values = parse_lane_values("--values", read.get("--values", ""), *type);
  } else {
    for (int lane = 0; lane < 32; ++lane) values[lane] = *model::parse_value(*type, std::to_string(100 + lane % 4));
  }
  Explanation e;
  e.call = std::string(model::intrinsic_name(*op)) + "(" + call.text() + ", " + std::string(model::info(*type).cpp) +
           " value" + (*op == model::MatchOp::all ? ", &pred)" : ")");
  e.value_text = [](uint64_t bits) { return hex(bits, 8); };
  e.lanes = model::match(*op, *type, call.scene, values);
  for (int lane = 0; lane < 32; ++lane) {
    model::LaneOutcome& o = e.lanes[lane];
    if (*op == model::MatchOp::all && model::has_value(o)) e.pred[lane] = (o.bits & model::kMatchPredBit) != 0;
    o.bits &= 0xFFFFFFFFu;  // the returned mask; the predicate is reported on its own
  }
  return e;
}

}  // namespace wc::cli
