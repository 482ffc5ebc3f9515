// Where a run's lanes were verified: per device, the lanes each family compared on each SM, summed
// from the check records' `sm_lanes` (docs/results-schema.md), and the SMs each family missed.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace wc::cli {

// Lanes compared, by SM.
using LanesBySm = std::map<uint32_t, uint64_t>;

// One device's SM x family matrix.
struct SmCoverage {
  int multiprocessors = 0;                     // the device's SM count (its device record); 0 where unknown
  std::map<std::string, LanesBySm> families;   // the families whose checks recorded where they ran
  std::set<std::string> unplaced;              // families that compared lanes in checks that recorded no SM
  // A check record of `family` (not a planted bug's): its sm_lanes, or its compared lanes as unplaced.
  void add_check(const std::string& family, const nlohmann::json& record);
  void merge(const SmCoverage&);
  // Whether any of its checks recorded where its lanes ran: only then has it something to say.
  bool placed() const { return !families.empty(); }
};

// The SMs of [0, multiprocessors) on which `lanes` holds none.
std::vector<uint32_t> missed_sms(const LanesBySm& lanes, int multiprocessors);
// The SM ids at or past `multiprocessors`: %smid is not promised to be contiguous.
std::vector<uint32_t> sms_past_count(const LanesBySm& lanes, int multiprocessors);

// The matrix's SMs: 0 to multiprocessors - 1, and any id past them that a family compared lanes on.
std::vector<uint32_t> matrix_sms(const SmCoverage&);

// "3-7,12": ascending ids, consecutive ones as a range; "" for none.
std::string id_ranges(const std::vector<uint32_t>& ascending);

// Whether every family placed compared lanes on every one of the device's SMs (a known SM count).
bool every_sm_covered(const SmCoverage&);

// "every one of 132 SMs verified lanes of each of 9 families", or "of 132 SMs, vote missed 3-7,12;
// shuffle missed 131"; then what cannot be placed or counted: "; not placed: softmax", "; SM ids past the
// count: 140", "; SM count unknown".
std::string coverage_text(const SmCoverage&);

// {"multiprocessors", "families": {family: [[sm, lanes], ...]}, "not_placed": [...], "missed": {family: "3-7"},
// "every_sm_covered", "summary"}
nlohmann::json coverage_json(const SmCoverage&);
// Reads coverage_json's members back; throws UsageError naming the member it cannot read.
SmCoverage coverage_from_json(const nlohmann::json&, const std::string& where);

// A record's sm_lanes as LanesBySm; throws UsageError where it is not a list of [sm, lanes] pairs of
// counts, an SM past 2^23 - 1 (what a placement word holds) or an SM given twice.
LanesBySm sm_lanes_of(const nlohmann::json& sm_lanes);

}  // namespace wc::cli
