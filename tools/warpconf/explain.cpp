#include "warpconf/explain.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <set>
#include <vector>

#include "warpconf/numbers.hpp"

namespace wc::cli {
namespace {

using model::has_value;

using Explainer = std::optional<Explanation> (*)(const ExplainOptions&);
constexpr Explainer kExplainers[] = {explain_shuffle, explain_vote, explain_match, explain_reduce, explain_fns,
                                      explain_algorithm, explain_pattern, explain_softmax};

std::string rule_text(const model::LaneOutcome& o) {
  std::string text = std::string(o.rule->id) + ": " + std::string(o.rule->text);
  if (o.deviation) text += "; " + std::string(o.deviation->id) + ": " + std::string(o.deviation->text);
  return text;
}

}  // namespace

OptionReader::OptionReader(const ExplainOptions& options, std::initializer_list<const char*> accepted)
    : options_(options) {
  const std::set<std::string> allowed(accepted.begin(), accepted.end());
  for (const auto& [name, value] : options.given)
    if (!allowed.count(name)) throw UsageError(options.op + " does not take " + name);
}

bool OptionReader::has(const std::string& option) const { return options_.given.count(option) != 0; }

std::string OptionReader::get(const std::string& option, const std::string& fallback) const {
  const auto it = options_.given.find(option);
  return it == options_.given.end() ? fallback : it->second;
}

std::string OptionReader::require(const std::string& option) const {
  const auto it = options_.given.find(option);
  if (it == options_.given.end()) throw UsageError(options_.op + " needs " + option);
  return it->second;
}

void OptionReader::only_where(const std::string& option, bool applies, const std::string& where) const {
  if (has(option) && !applies) throw UsageError(option + " applies only " + where);
}

Explanation explain(const ExplainOptions& options) {
  for (Explainer explainer : kExplainers)
    if (auto e = explainer(options)) return *e;
  throw UsageError("unknown op '" + options.op + "'; known: " + known_ops());
}

std::string known_ops() {
  return "shfl, shfl_up, shfl_down, shfl_xor, all, any, uni, ballot, match_any, match_all, reduce_add, reduce_min, "
         "reduce_max, reduce_and, reduce_or, reduce_xor, fns, and the warp algorithms reduce, reduce_butterfly, "
         "reduce_down, inclusive_scan, exclusive_scan, and the warp patterns segmented_reduce, compact, histogram, argmax, and softmax";
}

std::string hex(uint64_t v, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

CallScene read_scene(const OptionReader& read) {
  const uint32_t mask = parse_mask("--mask", read.require("--mask"));
  CallScene call{mask, model::uniform_scene(mask, parse_mask("--exited", read.get("--exited", "0")))};
  call.scene.else_arm = parse_mask("--else-arm", read.get("--else-arm", "0"));
  return call;
}

std::string CallScene::text() const {
  return "mask=" + hex(mask, 8) + (scene.exited ? ", exited=" + hex(scene.exited, 8) : "") +
         (scene.else_arm ? ", else-arm=" + hex(scene.else_arm, 8) : "");
}

void print_text(const Explanation& e, std::ostream& out) {
  if (e.print) return e.print(out, false);
  out << e.call << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%4s  %-*s  %-14s %6s  %-12s %s\n", "lane", e.hex_digits + 2, "bits", "value",
                "source", "class", "rule");
  out << line;
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const model::LaneOutcome& o = e.lanes[lane];
    const std::string bits = has_value(o) ? hex(o.bits, e.hex_digits) : "-";
    std::string value = has_value(o) ? e.value_text(o.bits) : "-";
    if (e.pred.count(lane)) value += e.pred.at(lane) ? " pred=1" : " pred=0";
    const std::string source = o.source >= 0 ? std::to_string(o.source) : "-";
    std::snprintf(line, sizeof line, "%4d  %-*s  %-14s %6s  %-12s %s%s\n", lane, e.hex_digits + 2, bits.c_str(),
                  value.c_str(), source.c_str(), std::string(model::to_string(o.cls)).c_str(),
                  std::string(o.rule->id).c_str(), o.deviation ? (" + " + std::string(o.deviation->id)).c_str() : "");
    out << line;
  }
  if (e.steps_lane >= 0) {
    out << "order of operations, lane " << e.steps_lane << ":\n";
    for (const model::AlgorithmStep& step : e.steps) {
      out << "  " << step.call;
      if (step.source >= 0) out << ": reads lane " << step.source;
      if (step.open) out << ", which takes no part: undefined from here";
      else if (!step.combines) out << ", keeps " << e.value_text(step.before);
      else if (step.source >= 0) out << " (" << e.value_text(step.read) << "); " << e.value_text(step.before) << " -> " << e.value_text(step.after);
      else out << ": " << e.value_text(step.after);
      out << "\n";
    }
  }
  out << "rules:\n";
  std::set<std::string> seen;
  for (const model::LaneOutcome& o : e.lanes)
    for (const model::Rule* r : {o.rule, o.deviation})
      if (r && seen.insert(std::string(r->id)).second) out << "  " << r->id << ": " << r->text << "\n";
}

void print_json(const Explanation& e, std::ostream& out) {
  if (e.print) return e.print(out, true);
  nlohmann::json lanes = nlohmann::json::array();
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const model::LaneOutcome& o = e.lanes[lane];
    nlohmann::json j;
    j["lane"] = lane;
    j["bits"] = has_value(o) ? nlohmann::json(hex(o.bits, e.hex_digits)) : nlohmann::json(nullptr);
    j["value"] = has_value(o) ? nlohmann::json(e.value_text(o.bits)) : nlohmann::json(nullptr);
    j["source"] = o.source >= 0 ? nlohmann::json(o.source) : nlohmann::json(nullptr);
    j["class"] = std::string(model::to_string(o.cls));
    j["rule"] = rule_text(o);
    if (e.pred.count(lane)) j["pred"] = e.pred.at(lane);
    lanes.push_back(j);
  }
  nlohmann::json j{{"call", e.call}, {"lanes", lanes}};
  if (e.steps_lane >= 0) {
    nlohmann::json steps = nlohmann::json::array();
    for (const model::AlgorithmStep& step : e.steps)
      steps.push_back({{"call", step.call},
                       {"source", step.source >= 0 ? nlohmann::json(step.source) : nlohmann::json(nullptr)},
                       {"before", hex(step.before, e.hex_digits)},
                       {"read", step.source >= 0 && !step.open ? nlohmann::json(hex(step.read, e.hex_digits)) : nlohmann::json(nullptr)},
                       {"after", step.open ? nlohmann::json(nullptr) : nlohmann::json(hex(step.after, e.hex_digits))},
                       {"combines", step.combines},
                       {"undefined", step.open}});
    j["steps"] = {{"lane", e.steps_lane}, {"steps", steps}};
  }
  out << j.dump(2) << "\n";
}

}  // namespace wc::cli
