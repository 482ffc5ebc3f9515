// What a fuzz target of this folder shares with the replay main: the libFuzzer entry point, and a
// count of the inputs the reader read, so that a replay that read nothing fails.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace wc::fuzz {

// Inputs the reader read (and whose checks held); it rejected the others as bad input, or found
// nothing in them.
extern size_t accepted_inputs;

}  // namespace wc::fuzz
