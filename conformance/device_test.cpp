// device.present: names the GPU under test, and fails when WARPCONF_REQUIRE_GPU=1 and no GPU is
// usable, so that driver-validation CI cannot pass with every GPU test skipped.
#include <gtest/gtest.h>

#include "core/device.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

class device : public check::GpuTest {};

TEST_F(device, present) {
  EXPECT_GE(gpu::compute_capability(gpu::device().info), 75) << "CUDA 13 supports compute capability 7.5 and up";
}

}  // namespace
}  // namespace wc
