// refused: _Width must be a power of 2 and less or equal to the warp size
// Width is a template argument that must be a power of two from 1 to 32 (warp_shuffle.rst, Constrains;
// the header's static_assert): 12 is refused where the raw intrinsics take it at run time. The twin: 16.
#include <cuda/warp>

#if WARPCONF_REFUSED
constexpr int kWidth = 12;
#else
constexpr int kWidth = 16;
#endif

__global__ void kernel(int* out) { *out = cuda::device::warp_shuffle_down<kWidth>(*out, 1).data; }
