// The resource spec as warpconf run reads it: the specs of tools/tests/data/resource_specs, which
// resources.ctest_reads_the_specs shows ctest takes (accepted_*), refuses (ctest_refuses_*) or takes
// without running a GPU test (no_test_runs_*): warpconf takes the first and refuses the others.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "report_data.hpp"
#include "warpconf/run/resource_spec.hpp"
#include "warpconf/run/visible_gpus.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;

const fs::path kSpecs = fs::path(kData).parent_path() / "resource_specs";

TEST(ResourceSpec, takes_what_ctest_takes_and_refuses_what_it_refuses_or_runs_no_gpu_test_with) {
  int specs = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(kSpecs)) {
    ++specs;
    const std::string name = e.path().filename().string();
    files::InputFile in(e.path().string());
    if (name.rfind("accepted_", 0) == 0) {
      EXPECT_GE(cli::spec_slots(in, name), 1) << name;
      continue;
    }
    try {
      cli::spec_slots(in, name);
      ADD_FAILURE() << "took " << name;
    } catch (const cli::UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(name + ": not a ctest resource spec: ", 0), 0u) << e.what();
    }
  }
  EXPECT_GE(specs, 20);
}

TEST(ResourceSpec, counts_the_gpus_slots_one_where_a_gpu_gives_none) {
  for (const auto& [spec, slots] : std::vector<std::pair<std::string, int>>{
           {"accepted_two_gpus.json", 16},
           {"accepted_one_slot_by_default.json", 1},
           {"accepted_whole_numbers_written_as_reals.json", 2},
           {"accepted_other_resources_and_members.json", 1}}) {
    files::InputFile in((kSpecs / spec).string());
    EXPECT_EQ(cli::spec_slots(in, spec), slots) << spec;
  }
}

// Each refusal says what ctest would say is wrong, in one line.
TEST(ResourceSpec, says_what_is_wrong) {
  for (const auto& [spec, why] : std::vector<std::pair<std::string, std::string>>{
           {"ctest_refuses_no_version.json", "no version (ctest reads {\"major\": 1, \"minor\": 0})"},
           {"ctest_refuses_version_1_1.json", "version {\"major\":1,\"minor\":1}, ctest reads {\"major\": 1, \"minor\": 0}"},
           {"ctest_refuses_two_local_entries.json", "local holds 2 entries, ctest reads one"},
           {"ctest_refuses_resource_type_not_a_list.json", "local[0].threads is not an array"},
           {"ctest_refuses_uppercase_id.json", "local[0].gpus[0].id is not a string of lowercase letters, digits and underscores"},
           {"ctest_refuses_fractional_slots.json", "local[0].gpus[0].slots is not a whole number from 0 to 4294967295"},
           {"no_test_runs_without_gpus.json", "local[0].gpus lists no GPU: no GPU test could run"},
           {"no_test_runs_on_a_gpu_without_a_slot.json", "local[0].gpus[0] has no slot: no GPU test could run on it"}}) {
    files::InputFile in((kSpecs / spec).string());
    try {
      cli::spec_slots(in, "resources.json");
      ADD_FAILURE() << "took " << spec;
    } catch (const cli::UsageError& e) {
      EXPECT_EQ(std::string(e.what()), "resources.json: not a ctest resource spec: " + why);
    }
  }
}

// The spec a bundle's run writes is configure's, byte for byte (tools/cmake/resource_spec.cmake), and
// warpconf run takes it: every GPU with its slots.
TEST(ResourceSpec, written_for_a_bundle_as_configure_writes_it) {
  EXPECT_EQ(cli::resource_spec_text(2, cli::kGpuSlots),
            R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 8}, {"id": "1", "slots": 8}]}]})"
            "\n");
  for (int gpus : {1, 2, 8}) {
    std::istringstream in(cli::resource_spec_text(gpus, cli::kGpuSlots));
    EXPECT_EQ(cli::spec_slots(in, "resources.json"), gpus * cli::kGpuSlots) << gpus;
  }
}

const std::string kTwoGpus =
    "GPU 0: NVIDIA H200 (UUID: GPU-aaaa1111-2222-3333-4444-555566667777)\n"
    "GPU 1: NVIDIA H200 (UUID: GPU-bbbb1111-2222-3333-4444-555566667777)\n";
const std::string kMig =
    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-cccc1111-2222-3333-4444-555566667777)\n"
    "  MIG 3g.40gb     Device  0: (UUID: MIG-dddd1111-2222-3333-4444-555566667777)\n";

struct Visible {
  const std::string* listing;
  std::optional<std::string> cuda_visible_devices;
  int gpus;
};

// The cases of resources.visible_gpus (tools/tests/resource_spec_test.cmake), which configure's count
// passes: a bundle's run counts the GPUs as configure does.
TEST(VisibleGpus, are_counted_as_configure_counts_them) {
  const std::string none;
  for (const Visible& v : std::vector<Visible>{{&kTwoGpus, std::nullopt, 2},
                                               {&kTwoGpus, "", 0},
                                               {&kTwoGpus, "1", 1},
                                               {&kTwoGpus, "1,0", 2},
                                               {&kTwoGpus, "-1", 0},
                                               {&kTwoGpus, "0,5,1", 1},
                                               {&kTwoGpus, "2", 0},
                                               {&kTwoGpus, "GPU-bbbb", 1},
                                               {&kTwoGpus, "GPU-bbbb1111,GPU-aaaa", 2},
                                               {&kTwoGpus, "GPU-eeee", 0},
                                               {&kTwoGpus, " 1 , 0 ", 2},
                                               {&kTwoGpus, "99999999999999999999999", 0},
                                               {&kMig, std::nullopt, 1},
                                               {&kMig, "MIG-dddd", 1},
                                               {&none, std::nullopt, 0},
                                               {&none, "0", 0}})
    EXPECT_EQ(cli::visible_gpu_count(*v.listing, v.cuda_visible_devices), v.gpus)
        << *v.listing << "CUDA_VISIBLE_DEVICES " << (v.cuda_visible_devices ? "'" + *v.cuda_visible_devices + "'" : "unset");
}

}  // namespace
}  // namespace wc
