// Replays a fuzz target without libFuzzer, with the host compiler: every file of the given corpus
// folders and a fixed, deterministic set of mutations of each (bit flips, byte substitutions,
// truncations, line deletions, duplications and swaps, numbers replaced by boundary values, and
// seeded random edits). A crash or an exception other than the reader's bad-input exception (which
// the target catches) names the input and the command that replays it alone. Fails, too, when there
// is nothing to replay, and when every input was read or none was: a replay must exercise both paths.
//   usage: <replay> <corpus folder>... [--only N]
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_target.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace {

// The input being run, for the crash handler: written with write(2), which a signal handler may call.
std::string current_description;

extern "C" void report_crash(int signal_number) {
  const char prefix[] = "replay: crashed on ";
  [[maybe_unused]] ssize_t ignored = write(2, prefix, sizeof prefix - 1);
  ignored = write(2, current_description.data(), current_description.size());
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// Under ASan's detect_stack_use_after_return, a rejected input's exception leaves the fake frames it
// unwound marked in use, and ASan reclaims only those below the first function entry after a throw;
// over thousands of inputs the fake stack fills and every entry scans it (report_reader's replay:
// 60 s, 22 s with this). Called between inputs, where every frame below main's is dead.
void release_unwound_fake_frames() {
#if defined(__SANITIZE_ADDRESS__)
  __asan_handle_no_return();
#endif
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line + '\n');
  return lines;
}

std::string concatenate(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line;
  return text;
}

// Deterministic: the same corpus gives the same inputs in the same order on every machine.
class Xorshift {
 public:
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t state_ = 0x9e3779b97f4a7c15;
};

// Positions a seed's bit flips, byte substitutions and cuts visit at most, runs of digits replaced
// at most, spread evenly over it, and random edits: a large seed costs about a thousand inputs, not 5
// per byte (twice these took 123 s of the asan preset's 320 s of tests; libFuzzer explores beyond).
constexpr size_t kMaxPositions = 200;
constexpr size_t kMaxDigitRuns = 20;
constexpr int kRandomEdits = 150;

// Calls `visit(description, input)` for the seed and each of its mutations.
void mutations(const std::string& seed, const std::function<void(const std::string&, const std::string&)>& visit) {
  visit("as is", seed);
  const size_t stride = 1 + seed.size() / (kMaxPositions + 1);
  for (size_t i = 0; i < seed.size(); i += stride) {
    std::string flipped = seed;
    flipped[i] = static_cast<char>(flipped[i] ^ (1 << (i * 3 % 8)));
    visit("bit " + std::to_string(i * 3 % 8) + " of byte " + std::to_string(i) + " flipped", flipped);
  }
  static const std::string substitutes("\n|* 0F-\r:\0", 10);
  for (size_t i = 0; i < seed.size(); i += 5 * stride) {
    for (const char c : substitutes) {
      std::string changed = seed;
      changed[i] = c;
      visit("byte " + std::to_string(i) + " set to " + std::to_string(static_cast<int>(c)), changed);
    }
  }
  for (size_t length = 0; length < seed.size(); length += stride)
    visit("cut to " + std::to_string(length) + " bytes", seed.substr(0, length));

  const std::vector<std::string> lines = split_lines(seed);
  for (size_t i = 0; i < lines.size(); ++i) {
    auto edited = lines;
    edited.erase(edited.begin() + static_cast<std::ptrdiff_t>(i));
    visit("line " + std::to_string(i + 1) + " deleted", concatenate(edited));
    edited = lines;
    edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
    visit("line " + std::to_string(i + 1) + " doubled", concatenate(edited));
    if (i + 1 < lines.size()) {
      edited = lines;
      std::swap(edited[i], edited[i + 1]);
      visit("lines " + std::to_string(i + 1) + " and " + std::to_string(i + 2) + " swapped", concatenate(edited));
    }
  }

  static const char* const numbers[] = {"0", "1", "2", "00", "65535", "65536", "65537", "9999999", "10000000",
                                        "10000001", "2147483648", "18446744073709551616", "99999999999999999999"};
  std::vector<std::pair<size_t, size_t>> runs;  // [begin, end) of each run of digits
  for (size_t i = 0; i < seed.size();) {
    if (seed[i] < '0' || seed[i] > '9') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < seed.size() && seed[end] >= '0' && seed[end] <= '9') ++end;
    runs.emplace_back(i, end);
    i = end;
  }
  const size_t run_stride = 1 + runs.size() / (kMaxDigitRuns + 1);
  for (size_t r = 0; r < runs.size(); r += run_stride) {
    const auto [begin, end] = runs[r];
    for (const char* number : numbers)
      visit("digits at byte " + std::to_string(begin) + " set to " + number, seed.substr(0, begin) + number + seed.substr(end));
  }

  Xorshift random;
  static const std::string alphabet = "0123456789abcdefABCDEF|*- :#\n\tdpunx.";
  for (int round = 0; round < kRandomEdits; ++round) {
    std::string edited = seed;
    const size_t edits = 1 + random.below(4);
    for (size_t e = 0; e < edits; ++e) {
      const size_t at = random.below(edited.size() + 1);
      switch (random.below(3)) {
        case 0: edited.insert(at, 1, alphabet[random.below(alphabet.size())]); break;
        case 1: edited.erase(at, random.below(16)); break;
        default: edited.insert(at, edited.substr(random.below(edited.size() + 1), random.below(64))); break;
      }
    }
    visit("random edit round " + std::to_string(round), edited);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> seeds;
  long only = -1;
  std::string folders;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--only" && i + 1 < argc) {
      only = std::stol(argv[++i]);
      continue;
    }
    folders += " " + argument;
    for (const auto& entry : std::filesystem::directory_iterator(argument)) {
      if (entry.is_regular_file()) seeds.push_back(entry.path());
    }
  }
  std::sort(seeds.begin(), seeds.end());
  if (seeds.empty()) {
    std::fprintf(stderr, "replay: no seed files in%s\n", folders.c_str());
    return 1;
  }
  std::signal(SIGABRT, report_crash);
  std::signal(SIGSEGV, report_crash);

  long number = 0;
  size_t run = 0;
  bool failed = false;
  for (const auto& path : seeds) {
    std::ifstream in(path, std::ios::binary);
    const std::string seed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    mutations(seed, [&](const std::string& description, const std::string& input) {
      const long this_number = number++;
      if (failed || (only >= 0 && this_number != only)) return;
      current_description = "input " + std::to_string(this_number) + " (" + path.filename().string() + ": " + description +
                            "); alone: " + argv[0] + folders + " --only " + std::to_string(this_number) + "\n";
      release_unwound_fake_frames();
      try {
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "replay: %s escaped on %s", e.what(), current_description.c_str());
        failed = true;
      }
      ++run;
    });
  }
  if (failed) return 1;
  const size_t read = wc::fuzz::accepted_inputs;
  std::printf("replay: %zu inputs from %zu seed files: %zu read and checked, %zu rejected as bad input or empty\n", run,
              seeds.size(), read, run - read);
  if (only < 0 && (read == 0 || read == run)) {
    std::fprintf(stderr, "replay: every input was %s: the replay exercised one path only\n", read == 0 ? "rejected" : "read");
    return 1;
  }
  return 0;
}
