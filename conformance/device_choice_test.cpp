// Device choice without a GPU: ctest's resource assignment, WARPCONF_DEVICE, and every malformed
// value a process may be handed, each failing with a reason that names the variable and value.
#include "core/device_choice.hpp"

#include <gtest/gtest.h>

#include <ostream>

namespace wc {
namespace {

using gpu::DeviceEnvironment;

// ctest's variables for a test with RESOURCE_GROUPS gpus:1, handed `gpus` as its GPU.
DeviceEnvironment assigned(const std::string& gpus) {
  return {
      {"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "gpus"}, {"CTEST_RESOURCE_GROUP_0_GPUS", gpus}};
}

DeviceEnvironment with(DeviceEnvironment env, const std::string& name, const std::string& value) {
  env[name] = value;
  return env;
}

DeviceEnvironment without(DeviceEnvironment env, const std::string& name) {
  env.erase(name);
  return env;
}

struct Chosen {
  const char* name;
  DeviceEnvironment env;
  int ordinal;
  const char* assigned_by;
};

std::ostream& operator<<(std::ostream& os, const Chosen& c) { return os << c.name; }

class DeviceChoiceChooses : public ::testing::TestWithParam<Chosen> {};

TEST_P(DeviceChoiceChooses, the_named_device) {
  const gpu::DeviceChoice c = gpu::choose_device(GetParam().env, 4);
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.ordinal, GetParam().ordinal);
  EXPECT_EQ(c.assigned_by, GetParam().assigned_by);
}

INSTANTIATE_TEST_SUITE_P(
    DeviceChoice, DeviceChoiceChooses,
    ::testing::Values(
        Chosen{"nothing_set", {}, 0, "default"},
        Chosen{"empty_WARPCONF_DEVICE", {{"WARPCONF_DEVICE", ""}}, 0, "default"},
        Chosen{"WARPCONF_DEVICE", {{"WARPCONF_DEVICE", "3"}}, 3, "WARPCONF_DEVICE"},
        Chosen{"ctest", assigned("id:1,slots:1"), 1, "ctest-resource"},
        Chosen{"ctest_several_slots", assigned("id:2,slots:8"), 2, "ctest-resource"},
        Chosen{"ctest_group_of_several_types",
               with(assigned("id:3,slots:1"), "CTEST_RESOURCE_GROUP_0", "cores,gpus,threads"), 3, "ctest-resource"},
        Chosen{"both_agree", with(assigned("id:2,slots:1"), "WARPCONF_DEVICE", "2"), 2, "WARPCONF_DEVICE"},
        // Without the count ctest assigned nothing, whatever else is set.
        Chosen{"no_group_count", without(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_COUNT"), 0, "default"}),
    [](const ::testing::TestParamInfo<Chosen>& info) { return std::string(info.param.name); });

struct Refused {
  const char* name;
  DeviceEnvironment env;
  const char* reason;  // the whole one-line reason
};

std::ostream& operator<<(std::ostream& os, const Refused& r) { return os << r.name; }

class DeviceChoiceRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(DeviceChoiceRefuses, with_a_reason) {
  const gpu::DeviceChoice c = gpu::choose_device(GetParam().env, 2);
  EXPECT_EQ(c.error, GetParam().reason);
}

INSTANTIATE_TEST_SUITE_P(
    DeviceChoice, DeviceChoiceRefuses,
    ::testing::Values(
        Refused{"slots_missing", assigned("id:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=id:1 is not id:<ordinal>,slots:<count>"},
        Refused{"reversed_order", assigned("slots:1,id:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=slots:1,id:1 is not id:<ordinal>,slots:<count>"},
        Refused{"spaces", assigned("id: 1,slots:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=id: 1,slots:1 is not id:<ordinal>,slots:<count>"},
        Refused{"empty_gpus", assigned(""), "CTEST_RESOURCE_GROUP_0_GPUS= is not id:<ordinal>,slots:<count>"},
        Refused{"gpus_of_40011_characters", assigned("id:" + std::string(40000, 'a') + ",slots:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS is 40011 characters long: not id:<ordinal>,slots:<count>"},
        Refused{"non_numeric_id", assigned("id:gpu_a,slots:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=id:gpu_a,slots:1: id 'gpu_a' is not a CUDA ordinal"},
        Refused{
            "several_ids", assigned("id:0,slots:1;id:1,slots:1"),
            "CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1;id:1,slots:1 names several GPUs; a warpconf test runs on one"},
        Refused{"id_not_visible", assigned("id:2,slots:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=id:2,slots:1 names no device: 2 visible, ordinals 0 to 1 (the resource "
                "spec lists other GPUs: configure again with this CUDA_VISIBLE_DEVICES)"},
        Refused{"id_overflows", assigned("id:99999999999999999999,slots:1"),
                "CTEST_RESOURCE_GROUP_0_GPUS=id:99999999999999999999,slots:1: id '99999999999999999999' is not a CUDA "
                "ordinal"},
        Refused{"gpus_variable_missing", without(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_0_GPUS"),
                "CTEST_RESOURCE_GROUP_0_GPUS is not set, yet CTEST_RESOURCE_GROUP_0=gpus"},
        Refused{"group_variable_missing", without(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_0"),
                "CTEST_RESOURCE_GROUP_COUNT=1 but CTEST_RESOURCE_GROUP_0 is not set"},
        Refused{"group_without_gpus", with(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_0", "gpusx,threads"),
                "CTEST_RESOURCE_GROUP_0=gpusx,threads has no gpus: the test's RESOURCE_GROUPS must be gpus:1"},
        Refused{"two_groups", with(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_COUNT", "2"),
                "CTEST_RESOURCE_GROUP_COUNT=2: a warpconf test runs on one GPU, its RESOURCE_GROUPS must be gpus:1"},
        Refused{"count_not_a_number", with(assigned("id:1,slots:1"), "CTEST_RESOURCE_GROUP_COUNT", "one"),
                "CTEST_RESOURCE_GROUP_COUNT=one: a warpconf test runs on one GPU, its RESOURCE_GROUPS must be gpus:1"},
        Refused{"WARPCONF_DEVICE_not_visible",
                {{"WARPCONF_DEVICE", "2"}},
                "WARPCONF_DEVICE=2 names no device: 2 visible, ordinals 0 to 1"},
        Refused{"WARPCONF_DEVICE_negative",
                {{"WARPCONF_DEVICE", "-1"}},
                "WARPCONF_DEVICE=-1 names no device: 2 visible, ordinals 0 to 1"},
        Refused{"WARPCONF_DEVICE_trailing_text",
                {{"WARPCONF_DEVICE", "1x"}},
                "WARPCONF_DEVICE=1x names no device: 2 visible, ordinals 0 to 1"},
        Refused{"both_differ", with(assigned("id:1,slots:1"), "WARPCONF_DEVICE", "0"),
                "WARPCONF_DEVICE=0 and ctest's CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 name different GPUs: unset "
                "WARPCONF_DEVICE under ctest's resource allocation"}),
    [](const ::testing::TestParamInfo<Refused>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace wc
