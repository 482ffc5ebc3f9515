#include "warpconf/run/visible_gpus.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/process.hpp"

namespace wc::cli {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::string stripped(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// Whether an entry of CUDA_VISIBLE_DEVICES names one of `listed` GPUs: an index below it, or a prefix
// of one of `uuids` ("GPU-..." or "MIG-...").
bool names_a_gpu(const std::string& entry, int listed, const std::vector<std::string>& uuids) {
  if (!entry.empty() && entry.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    const unsigned long long index = std::strtoull(entry.c_str(), nullptr, 10);
    return errno == 0 && index < static_cast<unsigned long long>(listed);
  }
  if (!starts_with(entry, "GPU-") && !starts_with(entry, "MIG-")) return false;
  for (const std::string& uuid : uuids)
    if (starts_with(uuid, entry)) return true;
  return false;
}

}  // namespace

int visible_gpu_count(const std::string& listing, const std::optional<std::string>& visible) {
  int listed = 0;
  std::vector<std::string> uuids;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const size_t digits = line.find_first_not_of("0123456789", 4);
    if (starts_with(line, "GPU ") && digits > 4 && digits < line.size() && line[digits] == ':') ++listed;
    // "... (UUID: GPU-xxxx)" of a GPU, "... (UUID: MIG-xxxx)" of a MIG instance
    const size_t uuid = line.find("UUID: ");
    if (uuid != std::string::npos) {
      const std::string rest = line.substr(uuid + 6);
      if (starts_with(rest, "GPU-") || starts_with(rest, "MIG-")) uuids.push_back(rest.substr(0, rest.find(')')));
    }
  }
  if (!visible) return listed;
  int count = 0;
  std::istringstream entries(*visible);
  for (std::string entry; std::getline(entries, entry, ',') && names_a_gpu(stripped(entry), listed, uuids);) ++count;
  return count;
}

int visible_gpus_now() {
  std::string listing;
  try {
    listing = check::run_process_output({"nvidia-smi", "-L"}).output;
  } catch (const std::runtime_error&) {
    // No nvidia-smi, as on a machine without the driver: no GPU listed.
  }
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  return visible_gpu_count(listing, visible ? std::optional<std::string>(visible) : std::nullopt);
}

}  // namespace wc::cli
