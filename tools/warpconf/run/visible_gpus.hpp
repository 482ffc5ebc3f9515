// The GPUs that CUDA will show a process started now, counted without CUDA (as configure counts them
// for resources.json, tools/cmake/resource_spec.cmake): from `nvidia-smi -L`, narrowed by
// CUDA_VISIBLE_DEVICES. A bundle's run spreads its tests over them, and health screens each of them.
#pragma once

#include <optional>
#include <string>

namespace wc::cli {

// How many CUDA ordinals (0, 1, ...) there are: the GPUs of `listing` (nvidia-smi -L's lines
// "GPU <n>: ..."), or where `visible` is set (CUDA_VISIBLE_DEVICES), as many as its leading entries
// that name a listed GPU by index or by UUID prefix: CUDA stops at the first that names none ("-1", "").
int visible_gpu_count(const std::string& listing, const std::optional<std::string>& visible);

// visible_gpu_count of `nvidia-smi -L` (from PATH: none where it is missing or cannot start) and of
// this process's CUDA_VISIBLE_DEVICES.
int visible_gpus_now();

}  // namespace wc::cli
