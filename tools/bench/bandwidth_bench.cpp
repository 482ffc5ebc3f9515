// Bandwidth of the warp algorithms on large inputs, against the device-to-device copy measured in
// the same run: the suite's reduction (wc::alg::block_reduce over per-thread sums) and CUB's
// DeviceReduce::Sum, and each softmax variant of the seam (one warp per row). Every kernel's result
// is checked before its figure is printed: a fast wrong kernel is a failure (exit status 1), not a
// figure. Each figure is the median over the repetitions (default 20) of the time per launch, with
// its median absolute deviation and the launches timed back to back per repetition.
// Usage: warpconf_bandwidth [repetitions]
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/softmax_launch.cuh"
#include "model/softmax.hpp"
#include "testing/compare.hpp"
#include WARPCONF_ALGORITHMS_HEADER

namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "warpconf_bandwidth: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

template <class T>
struct DeviceBuffer {
  T* data = nullptr;
  size_t size = 0;
  explicit DeviceBuffer(size_t n) : size(n) { check(cudaMalloc(&data, n * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  size_t bytes() const { return size * sizeof(T); }
};

// Median and median absolute deviation of a kernel's time per launch. Each repetition times, between
// two CUDA events, enough launches back to back to last about a millisecond, so that a kernel of a
// few microseconds is timed as it runs in a stream of work, not with a launch's start-up around it.
// launch(i) is the i-th launch: a benchmark whose data would fit in L2 rotates through copies of it.
struct Timing {
  double median_s = 0, mad_s = 0;
  int launches_per_repetition = 1;
};

Timing time_it(int repetitions, const std::function<void(int)>& launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  const auto timed = [&](int launches) {
    check(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; i < launches; ++i) launch(i);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms * 1e-3 / launches;
  };
  for (int i = 0; i < 3; ++i) launch(i);
  const int launches = static_cast<int>(std::clamp(1e-3 / timed(1), 1.0, 1000.0));
  std::vector<double> seconds;
  for (int i = 0; i < repetitions; ++i) seconds.push_back(timed(launches));
  check(cudaGetLastError(), "kernel");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  Timing t;
  t.launches_per_repetition = launches;
  t.median_s = median(seconds);
  std::vector<double> deviations;
  for (double s : seconds) deviations.push_back(std::fabs(s - t.median_s));
  t.mad_s = median(deviations);
  return t;
}

// One figure: the bytes the kernel must move, over its median time.
void print_figure(const char* what, double bytes, const Timing& t, double copy_gbps) {
  const double gbps = bytes / t.median_s * 1e-9;
  std::printf("%-50s %8.1f us (MAD %4.1f, x%-4d) %7.1f GB/s", what, t.median_s * 1e6, t.mad_s * 1e6,
              t.launches_per_repetition, gbps);
  if (copy_gbps > 0) std::printf("  %.3f of copy", gbps / copy_gbps);
  std::printf("\n");
}

constexpr int kThreads = 256;

// Each thread sums four-element vectors over a grid-stride loop, then the block by the seam's
// block_reduce; one partial per block.
template <class T, class Vector>
__global__ void reduce_partials(const Vector* in, size_t vectors, T* partials) {
  __shared__ T scratch[wc::alg::kBlockReduceScratch];
  T acc{};
  for (size_t i = blockIdx.x * size_t{kThreads} + threadIdx.x; i < vectors; i += size_t{gridDim.x} * kThreads) {
    const Vector v = in[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  acc = wc::alg::block_reduce(acc, wc::alg::plus{}, scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// The blocks' partials, in one block.
template <class T>
__global__ void reduce_final(const T* partials, int n, T* total) {
  __shared__ T scratch[wc::alg::kBlockReduceScratch];
  T acc{};
  for (int i = threadIdx.x; i < n; i += kThreads) acc += partials[i];
  acc = wc::alg::block_reduce(acc, wc::alg::plus{}, scratch);
  if (threadIdx.x == 0) *total = acc;
}

template <class T>
T fetch(const T* device_value) {
  T host;
  check(cudaMemcpy(&host, device_value, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return host;
}

// Fills with a counter-based pattern: small integers for int (their sum is exact modulo 2^32), and
// values in [0, 1) for float.
template <class T>
std::vector<T> pattern(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    if constexpr (std::is_same_v<T, float>)
      v[i] = static_cast<float>(x >> 40) * 0x1p-24f;
    else
      v[i] = static_cast<int>(x % 2001) - 1000;
  }
  return v;
}

// The check of a sum: int exactly (wrapping), float within the error bound of recursive summation
// in any order, gamma_n * sum |x_i| with n the number of elements.
template <class T>
bool sum_is_right(const std::vector<T>& host, T got, std::string& why) {
  if constexpr (std::is_same_v<T, float>) {
    long double exact = 0, magnitude = 0;
    for (float x : host) exact += x, magnitude += std::fabs(x);
    const long double u = 0x1p-24L, n = static_cast<long double>(host.size());
    const long double bound = std::min<long double>(n * u / (1 - std::min<long double>(n * u, 0.5L)), 1) * magnitude;
    why = "got " + std::to_string(got) + ", exact " + std::to_string(static_cast<double>(exact)) + ", bound " +
          std::to_string(static_cast<double>(bound));
    return std::fabs(static_cast<long double>(got) - exact) <= bound;
  } else {
    uint32_t exact = 0;
    for (int x : host) exact += static_cast<uint32_t>(x);
    why = "got " + std::to_string(got) + ", exact " + std::to_string(static_cast<int>(exact));
    return static_cast<uint32_t>(got) == exact;
  }
}

template <class T, class Vector>
bool bench_reduction(const char* type, size_t n, int repetitions, double copy_gbps, int sms) {
  const std::vector<T> host = pattern<T>(n);
  DeviceBuffer<T> in(n), total(1), cub_total(1);
  DeviceBuffer<T> partials(static_cast<size_t>(sms) * 8);
  check(cudaMemcpy(in.data, host.data(), in.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  const int blocks = sms * 8;
  const auto suite = [&](int) {
    reduce_partials<T, Vector><<<blocks, kThreads>>>(reinterpret_cast<const Vector*>(in.data), n / 4, partials.data);
    reduce_final<T><<<1, kThreads>>>(partials.data, blocks, total.data);
  };
  size_t temp_bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data, cub_total.data, n), "cub::DeviceReduce::Sum");
  DeviceBuffer<unsigned char> temp(temp_bytes);
  const auto library = [&](int) {
    check(cub::DeviceReduce::Sum(temp.data, temp_bytes, in.data, cub_total.data, n), "cub::DeviceReduce::Sum");
  };
  struct Kernel {
    const char* name;
    std::function<void(int)> launch;
    const T* result;
  };
  bool right = true;
  const std::vector<Kernel> kernels = {{"block_reduce", suite, total.data},
                                       {"cub::DeviceReduce::Sum", library, cub_total.data}};
  for (const Kernel& k : kernels) {
    const Timing t = time_it(repetitions, k.launch);
    const T got = fetch(k.result);
    std::string why;
    const std::string what = std::string(k.name) + "<" + type + "> " + std::to_string(n >> 20) + "Mi";
    if (!sum_is_right(host, got, why)) {
      std::printf("%-50s WRONG: %s\n", what.c_str(), why.c_str());
      right = false;
      continue;
    }
    print_figure(what.c_str(), static_cast<double>(in.bytes()), t, copy_gbps);
  }
  return right;
}

// Global-memory bytes a softmax variant must move: each row read once where a lane keeps its chunks
// in registers (gpu::softmax_cached_chunks) and once per pass elsewhere, and written once.
template <class T>
double softmax_traffic(wc::model::SoftmaxVariant variant, int rows, int cols) {
  const size_t row_bytes = static_cast<size_t>(cols) * sizeof(T);
  const size_t cached_bytes =
      std::min(row_bytes, static_cast<size_t>(wc::gpu::softmax_cached_chunks<T>(cols)) * 32 * 16);
  const size_t passes = variant == wc::model::SoftmaxVariant::three_pass ? 3 : 2;
  const size_t read = cached_bytes + (row_bytes - cached_bytes) * passes;
  return static_cast<double>(rows) * static_cast<double>(read + row_bytes);
}

// Rows of values uniform in [-8, 8), rounded to the type, from the same counter-based pattern.
std::vector<uint64_t> softmax_input(wc::model::Type type, size_t n) {
  const std::vector<float> unit = pattern<float>(n);
  std::vector<uint64_t> bits(n);
  for (size_t i = 0; i < n; ++i) bits[i] = wc::model::floating_bits(type, 16.0 * unit[i] - 8.0);
  return bits;
}

// Every variant and exp function on one shape: GB/s on the variant's own traffic and on one read and
// one write of the row (how torch.softmax is usually counted), each as a fraction of copy. Rows spread
// over the matrix are checked against the model's bound first.
template <class T>
bool bench_softmax(wc::model::Type type, int rows, int cols, int repetitions, double copy_gbps) {
  using namespace wc;
  const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  const std::vector<uint64_t> bits = softmax_input(type, n);
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;  // the host holds T's bits
  std::vector<Bits> host(bits.begin(), bits.end());
  // Copies of the rows, so that launches back to back never find their input in L2 (50 MB).
  const size_t pair_bytes = 2 * n * sizeof(T);
  const int copies = static_cast<int>(std::clamp<size_t>((size_t{512} << 20) / pair_bytes, 1, 16));
  std::vector<std::unique_ptr<DeviceBuffer<T>>> ins, outs;
  for (int c = 0; c < copies; ++c) {
    ins.push_back(std::make_unique<DeviceBuffer<T>>(n));
    outs.push_back(std::make_unique<DeviceBuffer<T>>(n));
    check(cudaMemcpy(ins.back()->data, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::vector<Bits> result(n);
  const std::string shape = std::to_string(rows) + "x" + std::to_string(cols) + " " + std::string(model::info(type).cpp);
  bool right = true;
  for (model::SoftmaxVariant variant : model::kSoftmaxVariants)
    for (model::ExpFunction exp : model::kExpFunctions) {
      const auto launch = [&](int i) {
        gpu::launch_softmax<T>(variant, exp, ins[i % copies]->data, outs[i % copies]->data, rows, cols, nullptr);
      };
      launch(0);
      check(cudaDeviceSynchronize(), "softmax");
      check(cudaMemcpy(result.data(), outs[0]->data, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
      testing::CheckReport report;
      const model::SoftmaxSpec spec{variant, exp, type};
      for (int r = 0; r < rows; r += std::max(1, rows / 64)) {
        const size_t first = static_cast<size_t>(r) * static_cast<size_t>(cols);
        const std::vector<uint64_t> row(bits.begin() + first, bits.begin() + first + cols);
        const std::vector<uint64_t> got(result.begin() + first, result.begin() + first + cols);
        const std::vector<uint8_t> wrote(cols, 1);
        const std::vector<model::LaneOutcome> want = model::softmax_outcomes(spec, row, cols);
        testing::compare_outputs(r, want.data(), want.size(), got.data(), wrote.data(), report);
      }
      const std::string what = "softmax " + std::string(model::op_name(variant)) + " " +
                               std::string(model::op_name(exp)) + " " + shape;
      if (!report.clean()) {
        std::printf("%-50s WRONG: %llu of %llu checked elements outside the bound\n", what.c_str(),
                    static_cast<unsigned long long>(report.bad_lanes()),
                    static_cast<unsigned long long>(report.tally.compared()));
        right = false;
        continue;
      }
      const Timing t = time_it(repetitions, launch);
      const double own = softmax_traffic<T>(variant, rows, cols);
      const double one_pass = static_cast<double>(pair_bytes);
      print_figure(what.c_str(), own, t, copy_gbps);
      std::printf("%-50s %30s %7.1f GB/s  %.3f of copy (one read, one write)\n", "", "",
                  one_pass / t.median_s * 1e-9, one_pass / t.median_s * 1e-9 / copy_gbps);
    }
  return right;
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 20;
  if (argc > 2 || repetitions < 1) {
    std::fprintf(stderr, "usage: warpconf_bandwidth [repetitions >= 1]\n");
    return 2;
  }
  cudaDeviceProp prop{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    std::fprintf(stderr, "warpconf_bandwidth: no CUDA device\n");
    return 1;
  }
  std::printf("%s, sm_%d%d, %d SMs; median of %d repetitions after 3 warm-up runs\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount, repetitions);

  constexpr size_t kElements = size_t{1} << 28;  // 1 GiB of 4-byte values
  DeviceBuffer<float> from(kElements), to(kElements);
  check(cudaMemset(from.data, 0, from.bytes()), "cudaMemset");
  const Timing copy = time_it(repetitions, [&](int) {
    check(cudaMemcpyAsync(to.data, from.data, from.bytes(), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
  });
  const double copy_gbps = 2.0 * static_cast<double>(from.bytes()) / copy.median_s * 1e-9;
  print_figure("device-to-device copy (read + write) 1Gi", 2.0 * static_cast<double>(from.bytes()), copy, 0);

  bool right = bench_reduction<float, float4>("float", kElements, repetitions, copy_gbps, prop.multiProcessorCount);
  right = bench_reduction<int, int4>("int", kElements, repetitions, copy_gbps, prop.multiProcessorCount) && right;
  right = bench_softmax<float>(wc::model::Type::f32, 4096, 1024, repetitions, copy_gbps) && right;
  right = bench_softmax<float>(wc::model::Type::f32, 4096, 4096, repetitions, copy_gbps) && right;
  right = bench_softmax<__nv_bfloat16>(wc::model::Type::bf16, 8192, 32768, repetitions, copy_gbps) && right;
  return right ? 0 : 1;
}
