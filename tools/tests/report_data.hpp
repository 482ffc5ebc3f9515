// The recorded runs the report and run tests read (tools/tests/data/report).
#pragma once

#include <string>

namespace wc {

inline const std::string kData = WARPCONF_REPORT_DATA;
// The device id the report gives the H100 of those records.
inline const std::string kH100 = "GPU-5e3a9c1d-7b2f-4c1e-9a0b-1f2e3d4c5b6a 580.159.04 nvcc 13.0.88 sass sass";

}  // namespace wc
