// A seam that does not compile: tools/mutation.sh must report the build failure, not a caught mutant.
#error "this intrinsics header is broken on purpose"
