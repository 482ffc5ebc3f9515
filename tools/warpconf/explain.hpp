// `warpconf explain`: what the model says one call gives each lane, and the rule that decided it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "core/lanes.hpp"
#include "core/scene.hpp"
#include "families/algorithm/model.hpp"

namespace wc::cli {

// The options of `warpconf explain` as typed; only those given are present.
struct ExplainOptions {
  std::string op;
  std::map<std::string, std::string> given;  // "--type" -> "f32", ...
  bool json = false;
};

// One explained call.
struct Explanation {
  std::string call;   // the call as C++ would spell it, with its mask and exited lanes
  int hex_digits = 8; // width of the result's bit pattern
  std::function<std::string(uint64_t bits)> value_text;
  model::WarpOutcome lanes;
  std::map<int, bool> pred;  // match_all: the predicate each calling lane gets
  std::function<void(std::ostream&, bool json)> print;  // an op whose results are not one a lane prints itself
  int steps_lane = -1;                       // the lane whose order of operations `steps` shows
  std::vector<model::AlgorithmStep> steps;
};

// Text of an option, or its default; throws UsageError for options the op does not take.
class OptionReader {
 public:
  OptionReader(const ExplainOptions& options, std::initializer_list<const char*> accepted);
  bool has(const std::string& option) const;
  std::string get(const std::string& option, const std::string& fallback) const;
  std::string require(const std::string& option) const;
  // Throws UsageError where `option` was given but does not apply to this call: "`option` applies
  // only <where>".
  void only_where(const std::string& option, bool applies, const std::string& where) const;

 private:
  const ExplainOptions& options_;
};

// "0x0000ffff": a bit pattern with `digits` hex digits.
std::string hex(uint64_t bits, int digits);

// The mask every lane of --mask passes, and the scene it makes with --exited and --else-arm.
struct CallScene {
  uint32_t mask;
  model::Scene scene;
  std::string text() const;  // "mask=0x0000ffff" and the exited and else-arm lanes where there are any
};
CallScene read_scene(const OptionReader&);

// Throws UsageError for an unknown op or bad option.
Explanation explain(const ExplainOptions&);

// Each family's explainer; nothing when `op` is not one of its ops.
std::optional<Explanation> explain_shuffle(const ExplainOptions&);
std::optional<Explanation> explain_vote(const ExplainOptions&);
std::optional<Explanation> explain_match(const ExplainOptions&);
std::optional<Explanation> explain_reduce(const ExplainOptions&);
std::optional<Explanation> explain_fns(const ExplainOptions&);
std::optional<Explanation> explain_algorithm(const ExplainOptions&);
std::optional<Explanation> explain_pattern(const ExplainOptions&);
std::optional<Explanation> explain_softmax(const ExplainOptions&);

void print_text(const Explanation&, std::ostream&);
void print_json(const Explanation&, std::ostream&);

// The ops `explain` knows, for the help text.
std::string known_ops();

}  // namespace wc::cli
