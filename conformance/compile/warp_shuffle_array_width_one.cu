// refused: cannot be used to initialize an entity of type
// A known deviation of CCCL 3.0.1: its documentation lets the calls 'exchange data of any data size,
// including raw arrays', but with Width 1 the header returns warp_shuffle_result<_Up>{__data, true},
// which cannot initialise an array member (docs/discrepancies.md). The twin, Width 2, compiles.
#include <cuda/warp>

#if WARPCONF_REFUSED
constexpr int kWidth = 1;
#else
constexpr int kWidth = 2;
#endif

__global__ void kernel(int* out) {
  int values[3] = {out[0], out[1], out[2]};
  const auto r = cuda::device::warp_shuffle_idx<kWidth>(values, 0);
  out[0] = r.data[2];
}
