// refused: no suitable constructor exists to convert from "uint32_t"
// A known deviation of CCCL 3.0.1 (NVIDIA/cccl#8209): cuda::ptx::shfl_sync_* returns `bit_cast<uint32_t>(__ret)`
// from a function returning _Tp, so only a type a uint32_t converts to compiles: a 4-byte struct, the
// size its documentation asks, is refused; a float compiles, its value converted (the twin; the
// family's GPU tests show the converted values).
#include <cuda/warp>

struct TwoShorts {
  short low, high;
};

#if WARPCONF_REFUSED
using Data = TwoShorts;
#else
using Data = float;
#endif

__global__ void kernel(Data* out) { *out = cuda::ptx::shfl_sync_idx(*out, 0u, 0x1fu, 0xffffffffu); }
