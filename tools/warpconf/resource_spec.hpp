// The ctest resource spec that configure writes (<build>/resources.json, tools/cmake/resource_spec.cmake),
// as `warpconf run` reads it to know how many GPU tests ctest may run at once.
#pragma once

#include <istream>
#include <string>

namespace wc::cli {

// The GPU slots of a resource spec (WARPCONF_GPU_SLOTS, 8 by default, on each GPU):
// {"local": [{"gpus": [{"id": "0", "slots": 8}, ...]}]}. Throws UsageError naming `name` for anything else.
int spec_slots(std::istream& in, const std::string& name);

}  // namespace wc::cli
