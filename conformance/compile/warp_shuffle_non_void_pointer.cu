// refused: non-void pointers are not allowed to prevent bug-prone code
// cuda::device::warp_shuffle_* take no pointer but void* (CCCL 3.0.1 warp_shuffle.rst: 'only void pointers
// are allowed'; the header's static_assert). The twin passes a void*, which compiles.
#include <cuda/warp>

#if WARPCONF_REFUSED
using Pointer = int*;
#else
using Pointer = void*;
#endif

__global__ void kernel(Pointer* out) { *out = cuda::device::warp_shuffle_idx(*out, 0).data; }
