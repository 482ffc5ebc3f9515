#!/bin/sh
# Runs a binary of a code path built apart (docs/code-paths.md) with the arguments that follow, or, where
# it is not built yet, says which target builds it: a failure where a GPU could run it (or
# WARPCONF_REQUIRE_GPU=1), Skipped (77) where there is none.
# Usage: run_built_path.sh PATH BUILD_DIR BINARY [ARGUMENT...]
if [ $# -lt 3 ]; then
  echo "usage: run_built_path.sh PATH BUILD_DIR BINARY [ARGUMENT...]" >&2
  exit 2
fi
path=$1 build=$2 binary=$3
shift 3
[ -x "$binary" ] && exec "$binary" "$@"
how="cmake --build $build --target warpconf_path_$path (warpconf run --path $path builds it)"
if [ "${WARPCONF_REQUIRE_GPU:-}" = 1 ] || nvidia-smi -L >/dev/null 2>&1; then
  echo "the $path path's $(basename "$binary") is not built: $how"
  exit 1
fi
echo "Skipped: no GPU, and the $path path's $(basename "$binary") is not built: $how"
exit 77
