// refused: kHooks and measure_perf() disagree
// A family descriptor with a hook it does not declare in kHooks must not compile (families/descriptor.hpp):
// the registries would skip it; its twin declares it.
#include <vector>

#include "families/descriptor.hpp"

namespace wc::families::undeclared {

struct Family {
  static constexpr std::string_view kName = "undeclared";
#if WARPCONF_REFUSED
  static constexpr Hook kHooks = kNoHook;
#else
  static constexpr Hook kHooks = kPerf;
#endif
  static void measure_perf(const perf::Run&, std::vector<perf::Figure>&);
};

static_assert(hooks_match<Family>());

}  // namespace wc::families::undeclared
