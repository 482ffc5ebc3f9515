# ctest's resource allocation for the GPU tests: <build>/resources.json lists this machine's GPUs,
# and a ctest include hands it to every ctest run in the build tree, so that tests with
# RESOURCE_GROUPS gpus:1 are spread over the GPUs. Used by the top-level CMakeLists.txt and by the
# scratch project of tools/tests/expect_resource_spread.cmake.

# The CUDA ordinals that tests can use, "0;1;...": the GPUs of `listing` (nvidia-smi -L), or where
# `narrowed` is true, as many as the leading entries of `visible` (CUDA_VISIBLE_DEVICES) that name a
# listed GPU by index or UUID prefix: CUDA stops at the first entry that names none ("-1", "").
function(warpconf_visible_gpus out listing narrowed visible)
  string(REGEX MATCHALL "(^|\n)GPU [0-9]+:" gpu_lines "${listing}")
  list(LENGTH gpu_lines listed)
  string(REGEX MATCHALL "UUID: (GPU|MIG)-[^)]+" uuids "${listing}")
  list(TRANSFORM uuids REPLACE "^UUID: " "")
  set(count ${listed})
  if(narrowed)
    set(count 0)
    string(REPLACE "," ";" entries "${visible}")
    foreach(entry IN LISTS entries)
      string(STRIP "${entry}" entry)
      set(names_a_gpu FALSE)
      if(entry MATCHES "^[0-9]+$")
        if(entry LESS listed)
          set(names_a_gpu TRUE)
        endif()
      elseif(entry MATCHES "^(GPU|MIG)-")
        foreach(uuid IN LISTS uuids)
          string(FIND "${uuid}" "${entry}" at)
          if(at EQUAL 0)
            set(names_a_gpu TRUE)
          endif()
        endforeach()
      endif()
      if(NOT names_a_gpu)
        break()
      endif()
      math(EXPR count "${count} + 1")
    endforeach()
  endif()
  set(ids "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(id RANGE ${last})
      list(APPEND ids ${id})
    endforeach()
  endif()
  set(${out} "${ids}" PARENT_SCOPE)
endfunction()

# Writes <dir>/resources.json (ctest resource spec 1.0) with `slots` slots on each GPU of `ids`, and
# registers the ctest include that points ctest at it; with no ids, removes both, so that ctest
# ignores RESOURCE_GROUPS (a spec with no GPU would leave every GPU test Not Run).
function(warpconf_resource_spec dir ids slots)
  set(spec "${dir}/resources.json")
  set(include_file "${dir}/warpconf_resource_spec.cmake")
  if(ids STREQUAL "")  # not if(NOT ids): "0" alone is false
    file(REMOVE "${spec}" "${include_file}")
    return()
  endif()
  set(gpus "")
  foreach(id IN LISTS ids)
    list(APPEND gpus "{\"id\": \"${id}\", \"slots\": ${slots}}")
  endforeach()
  list(JOIN gpus ", " gpus)
  file(WRITE "${spec}" "{\"version\": {\"major\": 1, \"minor\": 0}, \"local\": [{\"gpus\": [${gpus}]}]}\n")
  file(WRITE "${include_file}" "set(CTEST_RESOURCE_SPEC_FILE [==[${spec}]==])\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
