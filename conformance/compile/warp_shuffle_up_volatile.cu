// refused: no suitable user-defined conversion
// A known deviation of CCCL 3.0.1: warp_shuffle_up returns warp_shuffle_result<_Tp> where warp_shuffle_idx
// returns warp_shuffle_result<remove_cv_t<_Tp>>, so for a volatile int (Width 1, the one width whose memcpy
// of a volatile object compiles) up is refused where idx compiles (docs/discrepancies.md). The twin is idx.
#include <cuda/warp>

__global__ void kernel(int* out) {
  volatile int value = *out;
#if WARPCONF_REFUSED
  *out = cuda::device::warp_shuffle_up<1>(value, 0).data;
#else
  *out = cuda::device::warp_shuffle_idx<1>(value, 0).data;
#endif
}
