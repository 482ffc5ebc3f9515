// `warpconf explain fns --mask M --base B --arg OFFSET`: every lane's __fns(M, base, offset); base and
// offset take one int for every lane or 32. Lanes in --exited make no call.
#include <climits>

#include "families/fns/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_fns(const ExplainOptions& options) {
  if (options.op != "fns") return std::nullopt;
  const OptionReader read(options, {"--mask", "--base", "--arg", "--exited"});
  const uint32_t mask = parse_mask("--mask", read.require("--mask"));
  const auto base = parse_lane_ints("--base", read.get("--base", "0"), 0, UINT_MAX);
  const auto offset = parse_lane_ints("--arg", read.get("--arg", "0"), INT_MIN, INT_MAX);
  const uint32_t exited = parse_mask("--exited", read.get("--exited", "0"));
  Explanation e;
  e.call = "__fns(" + hex(mask, 8) + ", base, offset)";
  e.value_text = [](uint64_t bits) { return bits == 0xFFFFFFFFu ? std::string("not found") : std::to_string(bits); };
  model::PerLane<uint64_t> masks;
  masks.fill(mask);
  e.lanes = model::fns(model::uniform_scene(model::kFullMask, exited), masks, base, offset);
  return e;
}

}  // namespace wc::cli
