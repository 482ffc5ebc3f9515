// `warpconf explain softmax --variant three_pass|two_pass|online --exp expf|__expf --type f32|f16|bf16
// --values v0,v1,...`: per element the exact softmax, the bound and the rule; and the row-sum bound.
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "families/softmax/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {
namespace {

std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// How an element the contract fixes is compared, or "" where it is within a bound.
std::string bound_text(const model::SoftmaxElement& e) {
  if (e.exactly) return "bit for bit";
  return std::isnan(e.exact) ? "any NaN" : "";
}

void print_softmax(const model::SoftmaxSpec& spec, const std::vector<uint64_t>& bits, const std::string& call,
                   std::ostream& out, bool json) {
  const model::SoftmaxRow row = model::softmax_reference(spec, model::softmax_values(spec.type, bits));
  const int digits = model::info(spec.type).bits / 4;
  if (json) {
    nlohmann::json elements = nlohmann::json::array();
    for (size_t j = 0; j < bits.size(); ++j) {
      const model::SoftmaxElement& e = row.elements[j];
      elements.push_back({{"element", j},
                          {"input", model::format_value(spec.type, bits[j])},
                          {"exact", e.exactly ? nlohmann::json(model::format_value(spec.type, e.bits))
                                              : nlohmann::json(number(e.exact))},
                          {"bound", bound_text(e).empty() ? nlohmann::json(e.allowed) : nlohmann::json(bound_text(e))},
                          {"rule", std::string(e.rule->id) + ": " + std::string(e.rule->text)}});
    }
    out << nlohmann::json{{"call", call},
                          {"elements", elements},
                          {"row_sum_bound", row.nan_row ? nlohmann::json(nullptr) : nlohmann::json(row.row_sum_allowed)},
                          {"nan_row", row.nan_row}}
               .dump(2)
        << "\n";
    return;
  }
  out << call << "\n";
  char line[320];
  std::snprintf(line, sizeof line, "%7s  %-*s  %-14s %-18s %-12s %s\n", "element", digits + 2, "input", "value", "exact",
                "bound", "rule");
  out << line;
  for (size_t j = 0; j < bits.size(); ++j) {
    const model::SoftmaxElement& e = row.elements[j];
    std::snprintf(line, sizeof line, "%7zu  %-*s  %-14s %-18s %-12s %s\n", j, digits + 2, hex(bits[j], digits).c_str(),
                  model::format_value(spec.type, bits[j]).c_str(),
                  e.exactly ? model::format_value(spec.type, e.bits).c_str() : number(e.exact).c_str(),
                  bound_text(e).empty() ? number(e.allowed).c_str() : bound_text(e).c_str(), std::string(e.rule->id).c_str());
    out << line;
  }
  if (row.nan_row)
    out << "row sum: NaN (every element is NaN)\n";
  else
    out << "row sum: |sum_j y_j - 1| <= " << number(row.row_sum_allowed) << "\n";
}

}  // namespace

std::optional<Explanation> explain_softmax(const ExplainOptions& options) {
  if (options.op != "softmax") return std::nullopt;
  const OptionReader read(options, {"--variant", "--exp", "--type", "--values"});
  const std::string variant_name = read.require("--variant");
  const auto variant = model::softmax_variant_from_name(variant_name);
  if (!variant) throw UsageError("--variant: unknown variant '" + variant_name + "'; known: three_pass two_pass online");
  const std::string exp_name = read.get("--exp", "expf");
  const auto exp = model::exp_function_from_name(exp_name);
  if (!exp) throw UsageError("--exp: '" + exp_name + "' is not expf or __expf");
  const std::string type_name = read.get("--type", "f32");
  const auto type = model::type_from_name(type_name);
  if (!type || !model::is_softmax_type(*type)) throw UsageError("--type: softmax takes f32 f16 bf16, not '" + type_name + "'");
  std::vector<uint64_t> bits;
  for (const std::string& text : split_commas(read.require("--values"))) {
    const auto v = model::parse_value(*type, text);
    if (!v) throw UsageError("--values: '" + text + "' is not a value of " + type_name);
    bits.push_back(*v);
  }
  const model::SoftmaxSpec spec{*variant, *exp, *type};
  Explanation e;
  e.call = "softmax_" + std::string(model::op_name(*variant)) + "<" + std::string(model::op_name(*exp)) + ">(" +
           std::string(model::info(*type).cpp) + " row of " + std::to_string(bits.size()) + ")";
  e.print = [spec, bits, call = e.call](std::ostream& out, bool json) { print_softmax(spec, bits, call, out, json); };
  return e;
}

}  // namespace wc::cli
