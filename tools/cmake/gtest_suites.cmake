# The ctest tests of one GoogleTest binary, as text for a ctest file: one test per suite of
# `listing` (its --gtest_list_tests output). Used when ctest starts in a build tree
# (add_gtest_suites.cmake) and at install, for a bundle's tests/CTestTestfile.cmake (bundle_tests.cmake).
# `command`: the binary as add_test's argument text, a bracket argument holding an absolute path in a
# build tree, "${warpconf_tests}/<name>" in a bundle (expanded when ctest reads the file).
# Suites whose name contains "OnGpu" (and `device`) are labelled gpu and sass, the others `label`.
# GPU suites and their variants ask ctest for one GPU each (RESOURCE_GROUPS gpus:1; resources.json).
# Each GPU suite is registered again on the code paths the binary itself serves (docs/code-paths.md):
# jit-native/<suite>, and, where `own_jit75` is true (a bundle, whose binaries embed compute_75 PTX),
# jit-75/<suite>; the process fails unless it proves that it ran that path. The file also sets
# WARPCONF_GPU_SUITES, the GPU suites, for the paths whose binaries are built apart. Where `sanitizer`
# names compute-sanitizer, each GPU suite also runs as sanitize/<tool>/<suite> under its memcheck,
# racecheck and synccheck (sanitize/racecheck/KnownBadBlockOnGpu passes only when racecheck reports its
# planted race).
# The environment of a test on code path `path` (docs/code-paths.md): WARPCONF_CODE_PATH, which the process
# must prove it ran, and for a JIT path the driver forced to compile the PTX (into the driver's cache,
# which `warpconf run` makes empty for each run).
function(warpconf_path_environment out path)
  set(environment "WARPCONF_CODE_PATH=${path}")
  if(path MATCHES "^jit-")
    string(PREPEND environment "CUDA_FORCE_PTX_JIT=1;")
  endif()
  set(${out} "${environment}" PARENT_SCOPE)
endfunction()

# A GPU suite's COST on code path `path`: where ctest has no timings yet (a fresh build tree), it starts
# the suites of the JIT paths first, whose processes compile their kernels at load (the softmax suites
# 19-83 s on an H100, against 1-14 s on sass), then the debug paths'.
function(warpconf_path_cost out path)
  if(path MATCHES "^jit-")
    set(${out} 30 PARENT_SCOPE)
  else()
    set(${out} 5 PARENT_SCOPE)
  endif()
endfunction()

function(warpconf_suite_tests out command label sanitizer own_jit75 listing)
  string(REPLACE "\n" ";" lines "${listing}")
  set(content "")
  set(gpu_suites "")
  set(own_paths jit-native)
  if(own_jit75)
    list(APPEND own_paths jit-75)
  endif()
  foreach(line IN LISTS lines)
    # Suites start in column 0 and end with '.'; their tests are indented.
    if(NOT line MATCHES "^([^ #][^ ]*)\\.")
      continue()
    endif()
    set(suite "${CMAKE_MATCH_1}")
    set(suite_label "${label}")
    set(resources "")
    if(suite MATCHES "OnGpu" OR suite STREQUAL "device")
      set(suite_label "gpu;sass")
      set(resources " RESOURCE_GROUPS gpus:1")
    endif()
    string(APPEND content "add_test([==[${suite}]==] ${command} [==[--gtest_filter=${suite}.*]==])\n"
                          "set_tests_properties([==[${suite}]==] PROPERTIES LABELS [==[${suite_label}]==] TIMEOUT 300 "
                          "SKIP_RETURN_CODE 77${resources})\n")
    if(NOT suite_label STREQUAL "gpu;sass")
      continue()
    endif()
    list(APPEND gpu_suites "${suite}")
    foreach(path IN LISTS own_paths)
      warpconf_path_environment(environment ${path})
      warpconf_path_cost(cost ${path})
      string(APPEND content
             "add_test([==[${path}/${suite}]==] ${command} [==[--gtest_filter=${suite}.*]==])\n"
             "set_tests_properties([==[${path}/${suite}]==] PROPERTIES LABELS ${path} TIMEOUT 900 SKIP_RETURN_CODE 77 "
             "RESOURCE_GROUPS gpus:1 COST ${cost} "
             "ENVIRONMENT [==[${environment}]==])\n")
    endforeach()
    if(NOT sanitizer)
      continue()
    endif()
    foreach(tool IN ITEMS memcheck racecheck synccheck)
      string(APPEND content
             "add_test([==[sanitize/${tool}/${suite}]==] [==[${sanitizer}]==] --tool ${tool} "
             "--error-exitcode 1 --print-limit 20 ${command} [==[--gtest_filter=${suite}.*]==])\n"
             "set_tests_properties([==[sanitize/${tool}/${suite}]==] PROPERTIES LABELS sanitize TIMEOUT 3600 "
             "SKIP_RETURN_CODE 77 RESOURCE_GROUPS gpus:1 ENVIRONMENT WARPCONF_SANITIZED=1)\n")
      # The planted MissingBarrier reuses shared memory without a barrier: racecheck must report it.
      if(tool STREQUAL "racecheck" AND suite STREQUAL "KnownBadBlockOnGpu")
        string(APPEND content
               "set_tests_properties([==[sanitize/${tool}/${suite}]==] PROPERTIES PASS_REGULAR_EXPRESSION "
               "[==[Race reported between [^=]*known_bad::MissingBarrier]==])\n")
      endif()
    endforeach()
  endforeach()
  string(APPEND content "set(WARPCONF_GPU_SUITES [==[${gpu_suites}]==])\n")
  set(${out} "${content}" PARENT_SCOPE)
endfunction()
