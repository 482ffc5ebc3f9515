// A replacement of the wc::alg seam that provides exactly what docs/algorithms.md ("The seam's
// contract") lists and includes only the harness headers it names: the algorithm families' kernels
// must compile against it (warpconf_seam_contract, the test seam.minimal_algorithms_header_compiles).
// A compile check: its bodies are the plainest code for each contract, and no test runs them.
#pragma once

#include "algorithms/operators.cuh"
#include "algorithms/softmax_arguments.cuh"
#include WARPCONF_INTRINSICS_HEADER

namespace minimal_algorithms {

__device__ inline int lane_id() { return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32; }

__device__ inline unsigned lanes_below(int lane) { return (1u << lane) - 1u; }

// Op over the participants of `lanes` in ascending lane order, every participant shuffling every value.
template <class T, class Op>
__device__ T fold(unsigned mask, unsigned lanes, T value, Op op) {
  const unsigned alive = wc::ballot_sync(mask, 1);
  T acc{};
  bool started = false;
  for (int k = 0; k < 32; ++k) {
    if (!((alive >> k) & 1u)) continue;
    const T x = wc::shfl_sync(mask, value, k);
    if ((lanes >> k) & 1u) {
      acc = started ? op(acc, x) : x;
      started = true;
    }
  }
  return acc;
}

template <class T>
__device__ float to_float(T v) {
  return static_cast<float>(v);
}

template <class Exp, class T>
__device__ void softmax(const T* in, T* out, int n) {
  const int lane = lane_id();
  float m = -INFINITY;
  for (int j = lane; j < n; j += 32) m = fmaxf(m, to_float(in[j]));
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, wc::shfl_xor_sync(0xFFFFFFFFu, m, offset));
  float s = 0.0f;
  for (int j = lane; j < n; j += 32) s += Exp::exp(to_float(in[j]) - m);
  for (int offset = 16; offset > 0; offset /= 2) s += wc::shfl_xor_sync(0xFFFFFFFFu, s, offset);
  const float r = Exp::reciprocal(s);
  for (int j = lane; j < n; j += 32) out[j] = T(Exp::exp(to_float(in[j]) - m) * r);
}

}  // namespace minimal_algorithms

namespace wc::alg {

template <class T, class Op>
__device__ T reduce(unsigned mask, T value, Op op) {
  return minimal_algorithms::fold(mask, ~0u, value, op);
}

template <class T, class Op>
__device__ T reduce_butterfly(unsigned mask, T value, Op op, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) value = op(value, wc::shfl_xor_sync(mask, value, offset, width));
  return value;
}

template <class T, class Op>
__device__ T reduce_down(unsigned mask, T value, Op op, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) value = op(value, wc::shfl_down_sync(mask, value, offset, width));
  return value;
}

template <class T, class Op>
__device__ T inclusive_scan(unsigned mask, T value, Op op, int width) {
  const int rank = minimal_algorithms::lane_id() % width;
  for (int offset = 1; offset < width; offset *= 2) {
    const T lower = wc::shfl_up_sync(mask, value, offset, width);
    if (rank >= offset) value = op(lower, value);
  }
  return value;
}

template <class T, class Op>
__device__ T exclusive_scan(unsigned mask, T value, Op op, int width) {
  const T lower = wc::shfl_up_sync(mask, wc::alg::inclusive_scan(mask, value, op, width), 1, width);
  return minimal_algorithms::lane_id() % width == 0 ? Op::template identity<T>() : lower;
}

template <class T, class Op>
__device__ T segmented_reduce(unsigned mask, T value, bool head, Op op) {
  const unsigned alive = wc::ballot_sync(mask, 1);
  const unsigned heads = wc::ballot_sync(mask, head) | (alive & (~alive + 1u));
  const int lane = minimal_algorithms::lane_id();
  const unsigned to_lane = minimal_algorithms::lanes_below(lane) | (1u << lane);
  const int start = 31 - __clz(heads & to_lane);
  const unsigned later = heads & ~to_lane;
  const unsigned segment = ~minimal_algorithms::lanes_below(start) & (later ? minimal_algorithms::lanes_below(__ffs(later) - 1) : ~0u);
  return minimal_algorithms::fold(mask, segment, value, op);
}

template <class T, class Store>
__device__ int compact(unsigned mask, T value, bool keep, Store store) {
  const unsigned kept = wc::ballot_sync(mask, keep);
  if (keep) store(__popc(kept & minimal_algorithms::lanes_below(minimal_algorithms::lane_id())), value);
  return __popc(kept);
}

template <class Add>
__device__ void histogram(unsigned mask, int bin, Add add) {
  const unsigned group = wc::match_any_sync(mask, bin);
  if (__ffs(group) - 1 == minimal_algorithms::lane_id()) add(bin, __popc(group));
}

template <class T>
struct ArgMax {
  T value;
  int lane;
};

template <class T>
__device__ ArgMax<T> argmax(unsigned mask, T value) {
  const T max = wc::alg::reduce(mask, value, maximum{});
  unsigned long long a = 0, b = 0;
  memcpy(&a, &value, sizeof(T));
  memcpy(&b, &max, sizeof(T));
  return {max, __ffs(wc::ballot_sync(mask, a == b)) - 1};
}

inline constexpr int kBlockReduceScratch = 33;

template <class T, class Op>
__device__ T block_reduce(T value, Op op, T* scratch) {
  const int threads = static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
  const int rank = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  const int warps = (threads + 31) / 32;
  const int lanes = min(32, threads - 32 * (rank / 32));
  const unsigned mask = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1u;
  const T partial = wc::alg::reduce(mask, value, op);
  if (rank % 32 == 0) scratch[rank / 32] = partial;
  __syncthreads();
  if (rank < warps) {
    const T total = wc::alg::reduce(warps == 32 ? 0xFFFFFFFFu : (1u << warps) - 1u, scratch[rank], op);
    if (rank == 0) scratch[32] = total;
  }
  __syncthreads();
  return scratch[32];
}

template <class Exp, int kCached, int kBatch, int kRegisters, class T>
__device__ void softmax_three_pass(const T* in, T* out, int n, bool, SharedRow) {
  minimal_algorithms::softmax<Exp>(in, out, n);
}

template <class Exp, int kCached, int kBatch, int kRegisters, class T>
__device__ void softmax_two_pass(const T* in, T* out, int n, bool, SharedRow) {
  minimal_algorithms::softmax<Exp>(in, out, n);
}

template <class Exp, int kCached, int kBatch, int kRegisters, class T>
__device__ void softmax_online(const T* in, T* out, int n, bool, SharedRow) {
  minimal_algorithms::softmax<Exp>(in, out, n);
}

}  // namespace wc::alg
