// Random programs per second on one core, stage by stage, with no GPU: generate, interpret (the
// oracle's every lane and log slot), emit as PTX and emit as CUDA C++, for the classic and the ptx
// dialect. What the host side of a soak costs per program; compiling and running are the GPU runner's.
//   warpconf_programs_bench [COUNT [SEED]]   (COUNT programs of each dialect, default 2000)
#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/numbers.hpp"
#include "programs/emit.hpp"
#include "programs/generate.hpp"
#include "programs/model.hpp"
#include "programs/ptx_emit.hpp"

namespace {

using namespace wc::program;
// This thread's CPU time: the rate on one core whatever else the machine runs.
struct CpuClock {
  static double now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  }
};
using Clock = CpuClock;

double seconds_since(double start) { return Clock::now() - start; }

struct Stages {
  double generate = 0, interpret = 0, emit_ptx = 0, emit_cpp = 0;
  size_t outputs = 0, ptx_bytes = 0, ptx_programs = 0;
};

Stages measure(uint64_t seed, uint64_t count, const GenerateOptions& options) {
  Stages s;
  std::vector<Program> programs;
  programs.reserve(count);
  auto start = Clock::now();
  for (uint64_t index = 0; index < count; ++index) programs.push_back(generate(seed, index, options));
  s.generate = seconds_since(start);
  start = Clock::now();
  for (const Program& p : programs) s.outputs += outcomes(p, interpret(p)).size();
  s.interpret = seconds_since(start);
  // Modules of 64 programs, as the runners compile them; a classic program with cooperative groups has no PTX.
  std::vector<PtxProgram> emittable;
  for (const Program& p : programs)
    if (options.dialect == Dialect::ptx || ptx_refusal(p).empty()) emittable.push_back({&p, ""});
  s.ptx_programs = emittable.size();
  start = Clock::now();
  for (size_t begin = 0; begin < emittable.size(); begin += 64) {
    const std::vector<PtxProgram> module(emittable.begin() + static_cast<std::ptrdiff_t>(begin),
                                         emittable.begin() + static_cast<std::ptrdiff_t>(std::min(emittable.size(), begin + 64)));
    s.ptx_bytes += ptx_module(module).size();
  }
  s.emit_ptx = seconds_since(start);
  start = Clock::now();
  for (size_t begin = 0; begin < programs.size(); begin += 64) {
    std::vector<ModuleProgram> module;
    for (size_t k = begin; k < std::min(programs.size(), begin + 64); ++k) module.push_back({&programs[k], "", {}});
    module_source(module);
  }
  s.emit_cpp = seconds_since(start);
  return s;
}

void print(const char* dialect, uint64_t count, const Stages& s) {
  const auto rate = [](double n, double seconds) { return seconds > 0 ? n / seconds : 0.0; };
  const double n = static_cast<double>(count);
  std::printf("%s dialect, %llu programs (%zu emittable as PTX, %.1f KiB of PTX each), per second of one core's CPU time:\n", dialect,
              static_cast<unsigned long long>(count), s.ptx_programs,
              s.ptx_programs ? static_cast<double>(s.ptx_bytes) / 1024.0 / static_cast<double>(s.ptx_programs) : 0.0);
  std::printf("  generate   %10.0f programs/s\n", rate(n, s.generate));
  std::printf("  interpret  %10.0f programs/s (%zu outputs, %.0f outputs/s)\n", rate(n, s.interpret), s.outputs,
              rate(static_cast<double>(s.outputs), s.interpret));
  std::printf("  emit PTX   %10.0f programs/s\n", rate(static_cast<double>(s.ptx_programs), s.emit_ptx));
  std::printf("  emit C++   %10.0f programs/s\n", rate(n, s.emit_cpp));
  std::printf("  generate + interpret + emit PTX: %.0f programs/s\n",
              rate(n, s.generate + s.interpret + s.emit_ptx * n / std::max<double>(1.0, static_cast<double>(s.ptx_programs))));
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t count = 2000, seed = 0x5EED2026;
  try {
    if (argc > 3) throw wc::cli::UsageError("at most COUNT and SEED");
    if (argc > 1) count = static_cast<uint64_t>(wc::cli::parse_integer("COUNT", argv[1], 1, 100000000));
    if (argc > 2) seed = static_cast<uint64_t>(wc::cli::parse_integer("SEED", argv[2], 0, INT64_MAX));
  } catch (const wc::cli::UsageError& e) {
    std::fprintf(stderr, "warpconf_programs_bench: %s (usage: warpconf_programs_bench [COUNT [SEED]])\n", e.what());
    return 2;
  }
  print("classic", count, measure(seed, count, GenerateOptions{}));
  GenerateOptions ptx;
  ptx.dialect = Dialect::ptx;
  print("ptx", count, measure(seed, count, ptx));
  return 0;
}
