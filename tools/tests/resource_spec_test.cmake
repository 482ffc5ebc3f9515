# warpconf_visible_gpus (tools/cmake/resource_spec.cmake): the CUDA ordinals of nvidia-smi -L's GPUs,
# narrowed by CUDA_VISIBLE_DEVICES as CUDA narrows them.
cmake_policy(VERSION 3.24)
include(${SOURCE_DIR}/tools/cmake/resource_spec.cmake)
set(two [=[GPU 0: NVIDIA H200 (UUID: GPU-aaaa1111-2222-3333-4444-555566667777)
GPU 1: NVIDIA H200 (UUID: GPU-bbbb1111-2222-3333-4444-555566667777)
]=])
set(mig [=[GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-cccc1111-2222-3333-4444-555566667777)
  MIG 3g.40gb     Device  0: (UUID: MIG-dddd1111-2222-3333-4444-555566667777)
]=])
set(empty "")
set(failures "")
# listing | narrowed | CUDA_VISIBLE_DEVICES | the ordinals wanted, "none" for none
foreach(case IN ITEMS "two|FALSE||0,1" "two|TRUE||none" "two|TRUE|1|0" "two|TRUE|1,0|0,1" "two|TRUE|-1|none"
                      "two|TRUE|0,5,1|0" "two|TRUE|2|none" "two|TRUE|GPU-bbbb|0" "two|TRUE|GPU-bbbb1111,GPU-aaaa|0,1"
                      "two|TRUE|GPU-eeee|none" "two|TRUE| 1 , 0 |0,1" "mig|FALSE||0" "mig|TRUE|MIG-dddd|0"
                      "empty|FALSE||none")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 listing)
  list(GET fields 1 narrowed)
  list(GET fields 2 visible)
  list(GET fields 3 want)
  warpconf_visible_gpus(ids "${${listing}}" ${narrowed} "${visible}")
  list(JOIN ids "," got)
  if(got STREQUAL "")
    set(got none)
  endif()
  if(NOT got STREQUAL want)
    string(APPEND failures "\n  ${listing}, CUDA_VISIBLE_DEVICES ${narrowed} '${visible}': got ${got}, want ${want}")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "warpconf_visible_gpus:${failures}")
endif()
