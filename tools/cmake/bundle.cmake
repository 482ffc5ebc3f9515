# The bundle (README "A bundle for nodes without a toolkit"): what `cmake --install` and `cpack` put
# in a folder that runs the suite wherever it is copied, with ctest from PATH, without the CUDA
# toolkit and without the source tree:
#   warpconf-bundle.json  what the bundle holds, its CUDA architectures among it; the marker that
#                         core/installation.hpp and `warpconf run` look for, checked by
#                         core/bundle_manifest.hpp (a file of another shape is refused)
#   bin/warpconf
#   tests/                the GoogleTest binaries, and a CTestTestfile.cmake whose paths are relative
#                         to it (bundle_tests.cmake writes it at install)
#   golden/               the committed goldens, deviations, contracts and perf baselines
# Left out: the tests that read the source tree (harness_tests, the tool tests), golden_tests
# (it links every family's kernels to check the model against the goldens, which golden.check does
# in the bundle), the sanitize variant (compute-sanitizer is the toolkit's) and perf.compare (it
# writes its pending baseline into golden/, which a bundle may not be able to write). Included from tools/CMakeLists.txt, after every
# test binary was declared.

# CMAKE_CUDA_ARCHITECTURES as SASS and PTX: "90-real" is sm_90 code, "75-virtual" compute_75 PTX,
# "90" both; the other entries (all, all-major, native) name no architecture and are kept as given.
set(bundle_sass "")
set(bundle_ptx "")
if(WARPCONF_GPU)
  foreach(entry IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(entry MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
      if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
        list(APPEND bundle_sass "\"sm_${CMAKE_MATCH_1}\"")
      endif()
      if(NOT CMAKE_MATCH_2 STREQUAL "-real")
        list(APPEND bundle_ptx "\"compute_${CMAKE_MATCH_1}\"")
      endif()
    endif()
  endforeach()
  string(REPLACE ";" "," bundle_architectures "${CMAKE_CUDA_ARCHITECTURES}")
  set(bundle_nvcc "\"${CMAKE_CUDA_COMPILER_VERSION}\"")
  set(bundle_gpu true)
else()
  set(bundle_architectures "")
  set(bundle_nvcc null)
  set(bundle_gpu false)
endif()
string(REPLACE ";" ", " bundle_sass "${bundle_sass}")
string(REPLACE ";" ", " bundle_ptx "${bundle_ptx}")
# Not at the top of the build tree, where it would make the build tree a bundle (core/installation.hpp).
set(bundle_manifest ${CMAKE_CURRENT_BINARY_DIR}/bundle/warpconf-bundle.json)
file(CONFIGURE OUTPUT ${bundle_manifest} CONTENT [==[{
  "schema": "warpconf.bundle/1",
  "warpconf": "@WARPCONF_GIT@",
  "gpu": @bundle_gpu@,
  "nvcc": @bundle_nvcc@,
  "architectures": "@bundle_architectures@",
  "sass": [@bundle_sass@],
  "ptx": [@bundle_ptx@],
  "tests": "tests",
  "golden": "golden"
}
]==] @ONLY)

# What the bundle installs and nothing else (the bundle build preset's target): the suite's other
# targets (tool tests, benchmarks, the SASS check's second build of the kernels) would multiply their
# device code by the bundle's architectures for nothing.
get_property(bundle_tests GLOBAL PROPERTY WARPCONF_BUNDLE_TESTS)
add_custom_target(warpconf_bundle)
add_dependencies(warpconf_bundle warpconf)
foreach(entry IN LISTS bundle_tests)
  string(REGEX REPLACE "\\|.*" "" binary "${entry}")
  add_dependencies(warpconf_bundle ${binary})
endforeach()

install(TARGETS warpconf RUNTIME DESTINATION bin)
install(FILES ${bundle_manifest} DESTINATION .)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/golden/ DESTINATION golden PATTERN pending EXCLUDE)
if(WARPCONF_GPU)
  set(bundle_probe_families "${probe_families}")
else()
  set(bundle_probe_families "")
endif()
install(CODE "set(WARPCONF_BUNDLE_TESTS [==[${bundle_tests}]==])
set(WARPCONF_BUNDLE_GPU ${WARPCONF_GPU})
set(WARPCONF_BUNDLE_PROBE_FAMILIES [==[${bundle_probe_families}]==])
include([==[${PROJECT_SOURCE_DIR}/tools/cmake/bundle_tests.cmake]==])")

# cpack: the same folder as a .tar.gz, warpconf-<git describe>-<processor>/ at its top.
set(CPACK_GENERATOR TGZ)
set(CPACK_PACKAGE_NAME warpconf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_FILE_NAME warpconf-${WARPCONF_GIT}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
