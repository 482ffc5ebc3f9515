// refused: kHooks and corpus() disagree
// A family descriptor whose declared corpus hook is misspelled must not compile (families/descriptor.hpp);
// its twin, spelled right, compiles.
#include <vector>

#include "families/descriptor.hpp"

namespace wc::families::misspelled {

struct Family {
  static constexpr std::string_view kName = "misspelled";
  static constexpr Hook kHooks = kCorpus;
#if WARPCONF_REFUSED
  static std::vector<golden::CorpusFamily> corpse();
#else
  static std::vector<golden::CorpusFamily> corpus();
#endif
};

static_assert(hooks_match<Family>());

}  // namespace wc::families::misspelled
