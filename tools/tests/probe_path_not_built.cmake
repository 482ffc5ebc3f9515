# `warpconf probe --path PATH` from a build tree that lacks PATH's binaries: exit status 1 and one line
# naming the target that builds them, before any probe runs. CLI is copied into DIR/tools/ beside an
# empty CMakeCache.txt: a build tree with no paths/ folder, whatever the real build holds.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/tools")
file(WRITE "${DIR}/CMakeCache.txt" "")
file(COPY "${CLI}" DESTINATION "${DIR}/tools")
get_filename_component(program "${CLI}" NAME)
set(CLI "${DIR}/tools/${program}")
set(ARGS probe --path ${PATH})
set(STATUS 1)
set(WANT "--target warpconf_path_${PATH}")
include(${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)
