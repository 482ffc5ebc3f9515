// The ctest resource spec that configure writes (<build>/resources.json, tools/cmake/resource_spec.cmake),
// as `warpconf run` reads it to know how many GPU tests ctest may run at once, and writes it for a bundle.
#pragma once

#include <istream>
#include <string>

namespace wc::cli {

// The GPU slots of a resource spec (WARPCONF_GPU_SLOTS, 8 by default, on each GPU):
// {"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 8}, ...]}]}.
// Refuses, with a UsageError naming `name`, what ctest refuses (CTest's resource spec format 1.0: a
// version 1.0; "local" an array of at most one object; each member of it named like a resource type,
// [a-z_][a-z0-9_]*, an array of objects with an "id" of [a-z0-9_]+ and "slots", where given, a whole
// number from 0 to 2^32 - 1, else 1) and what would leave the GPU tests unrun: no "gpus", or a GPU
// without a slot. The slots add up to at least 1.
int spec_slots(std::istream& in, const std::string& name);

// Configure's default WARPCONF_GPU_SLOTS: GPU tests that ctest runs at once on one GPU.
inline constexpr int kGpuSlots = 8;

// The spec that configure writes for `gpus` GPUs (the CUDA ordinals 0 to gpus - 1), `slots` on each.
std::string resource_spec_text(int gpus, int slots);

}  // namespace wc::cli
