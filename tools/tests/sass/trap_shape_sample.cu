// A stand-in for a trap-shape probe kernel (fixtures/core/probe.cuh) and its probed call, which the
// tests of tools/sass/check_probe_warpsync.sh build into cubins for the relocations the check reads.
// SAMPLE_CALL picks the probed call: kShfl, kElect, kNone (the mask's ballot alone) or kTrap (the
// __trap() of a call the architecture lacks).
namespace wc::gpu {

constexpr int kShfl = 1, kElect = 2, kNone = 3, kTrap = 4;

template <int Call>
__device__ __noinline__ unsigned probed_call(unsigned mask, int lane) {
  if constexpr (Call == kShfl) return __shfl_sync(mask, lane, 0);
  if constexpr (Call == kElect) {
    unsigned leader;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, %1;\n\t}" : "=r"(leader) : "r"(mask));
    return leader;
  }
  if constexpr (Call == kNone) return mask + static_cast<unsigned>(lane);
  if constexpr (Call == kTrap) __trap();
  return 0;
}

template <int Call>
__global__ void __launch_bounds__(64) trap_shape_kernel(unsigned* out, const int* lim) {
  const int tx = static_cast<int>(threadIdx.x);
  const unsigned mask = __ballot_sync(0xffffffffu, tx < 16);
  if (tx <= *lim) out[tx] = probed_call<Call>(mask, tx % 32);
}

template __global__ void trap_shape_kernel<SAMPLE_CALL>(unsigned*, const int*);

}  // namespace wc::gpu
