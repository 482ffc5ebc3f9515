// `warpconf golden check` on copies of the committed sm_90 goldens with one thing changed: each
// change must be found, named by file and line or by case and lane, with the right exit status.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/corpus.hpp"
#include "core/files.hpp"
#include "core/judge.hpp"
#include "core/known_deviations.hpp"
#include "families/registry.hpp"
#include "formats/golden.hpp"
#include "formats/programs.hpp"
#include "harness/scratch_dir.hpp"
#include "cli_run.hpp"
#include "warpconf/cli/cli.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;

class GoldenCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = harness::fresh_test_dir("golden");
    fs::copy_file(committed("deviations.txt"), dir_ / "deviations.txt");
    setenv("WARPCONF_RESULTS", (dir_ / "results.jsonl").c_str(), 1);
  }
  void TearDown() override { unsetenv("WARPCONF_RESULTS"); }

  static fs::path committed(const std::string& name) { return fs::path(check::golden_root()) / "sm_90" / name; }

  golden::GoldenFile read(const std::string& family) {
    return golden::read_golden_file(committed(family + ".golden").string());
  }
  void write(const std::string& family, const golden::GoldenFile& file) {
    std::ofstream os(dir_ / (family + ".golden"));
    golden::write_golden(os, file);
  }
  CliRun check(const std::string& family) { return run_cli({"golden", "check", dir_.string(), "--family", family}); }

  fs::path dir_;
};

TEST_F(GoldenCheck, passes_on_an_unchanged_copy) {
  write("shuffle", read("shuffle"));
  const CliRun o = check("shuffle");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
}

TEST_F(GoldenCheck, one_flipped_bit_of_a_defined_lane_fails_naming_the_case_and_lane) {
  golden::GoldenFile file = read("shuffle");
  size_t flipped_case = 0, flipped_lane = 0;
  bool found = false;
  for (golden::CaseLine& line : file.cases) {
    for (size_t k = 0; k < line.outputs.size() && !found; ++k)
      if (line.classes[k] == 'd' && line.outputs[k]) {
        *line.outputs[k] ^= 1;
        flipped_case = line.index;
        flipped_lane = k;
        found = true;
      }
    if (found) break;
  }
  ASSERT_TRUE(found) << "the shuffle golden has no defined lane";
  write("shuffle", file);
  const CliRun o = check("shuffle");
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("case " + std::to_string(flipped_case) + " ["), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("lane " + std::to_string(flipped_lane) + ": got"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("1 bad lanes"), std::string::npos) << o.out;
}

TEST_F(GoldenCheck, a_golden_of_another_corpus_version_is_refused) {
  golden::GoldenFile file = read("vote");
  file.header.corpus_version = golden::kCorpusVersion + 1;
  write("vote", file);
  const CliRun o = check("vote");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("vote.golden:9: recorded with corpus version"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("re-record"), std::string::npos) << o.err;
}

TEST_F(GoldenCheck, inputs_edited_by_hand_are_named_by_line) {
  golden::GoldenFile file = read("vote");
  file.cases[7].inputs += " edited";
  write("vote", file);
  const CliRun o = check("vote");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("vote.golden:21: case 7 has other inputs"), std::string::npos) << o.err;
}

TEST_F(GoldenCheck, a_truncated_golden_is_named_by_file_and_line) {
  std::ifstream in(committed("vote.golden"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string whole = text.str();
  std::ofstream(dir_ / "vote.golden") << whole.substr(0, whole.size() / 2);
  const CliRun o = check("vote");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find((dir_ / "vote.golden").string() + ":"), std::string::npos) << o.err;
}

TEST_F(GoldenCheck, a_listed_deviation_that_no_longer_occurs_fails) {
  // Every fns.int-min lane given the documented value: conforming, so the listed deviation is stale.
  golden::GoldenFile file = read("fns");
  const std::vector<golden::CorpusFamily> all = families::corpus();
  const golden::CorpusFamily& fns = *std::find_if(all.begin(), all.end(), [](const auto& f) { return f.name == "fns"; });
  size_t index = 0, changed = 0;
  for (const golden::CorpusBatch& b : fns.batches)
    for (size_t c = 0; c < b.cases; ++c, ++index) {
      const std::vector<model::LaneOutcome> want = b.outcomes(c, {});
      for (size_t k = 0; k < want.size(); ++k)
        if (want[k].rule != nullptr && want[k].rule->id == "fns.int-min" && model::has_value(want[k])) {
          file.cases[index].outputs[k] = want[k].bits;
          ++changed;
        }
    }
  ASSERT_GT(changed, 0u) << "the fns corpus has no INT_MIN offset";
  write("fns", file);
  const CliRun o = check("fns");
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("listed deviation fns.int-min no longer occurs"), std::string::npos) << o.out;
}

// The first output of the given class, changed: its case index and output.
std::pair<size_t, size_t> change_first(golden::GoldenFile& file, char cls) {
  for (golden::CaseLine& line : file.cases)
    for (size_t k = 0; k < line.outputs.size(); ++k)
      if (line.classes[k] == cls && line.outputs[k]) {
        *line.outputs[k] ^= 0x10;
        return {line.index, k};
      }
  ADD_FAILURE() << "no output of class " << cls;
  return {0, 0};
}

TEST_F(GoldenCheck, accept_refuses_a_recording_with_a_lane_that_disagrees_with_the_model) {
  golden::GoldenFile file = read("shuffle");
  change_first(file, 'd');
  const fs::path pending = dir_ / "pending", target = dir_ / "accepted";
  fs::create_directories(pending);
  std::ofstream(pending / "shuffle.golden") << golden::write_golden(file);
  const CliRun o = run_cli({"golden", "accept", pending.string(), "--golden", target.string()});
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("shuffle: refused"), std::string::npos) << o.out;
  EXPECT_FALSE(fs::exists(target / "shuffle.golden"));
  EXPECT_TRUE(fs::exists(pending / "shuffle.golden"));
}

TEST_F(GoldenCheck, accept_moves_a_good_recording_and_shows_its_diff) {
  golden::GoldenFile file = read("shuffle");
  change_first(file, 'u');
  const fs::path pending = dir_ / "pending", target = dir_ / "accepted";
  fs::create_directories(target);
  fs::copy_file(committed("shuffle.golden"), target / "shuffle.golden");
  fs::create_directories(pending);
  std::ofstream(pending / "shuffle.golden") << golden::write_golden(file);
  const CliRun o = run_cli({"golden", "accept", pending.string(), "--golden", target.string()});
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("0 differing outputs the documents fix, 1 differing undefined or float outputs"),
            std::string::npos) << o.out;
  EXPECT_TRUE(golden::read_golden_file((target / "shuffle.golden").string()) == file) << "the pending file, moved";
  EXPECT_FALSE(fs::exists(pending / "shuffle.golden"));
}

// A recording is accepted whole or not at all: every family is read and judged before one moves
// (accept once moved shuffle, then refused vote, and left the golden folder half new).
TEST_F(GoldenCheck, accept_moves_no_family_where_one_is_refused_or_cannot_be_read) {
  golden::GoldenFile shuffle = read("shuffle"), vote = read("vote");
  change_first(shuffle, 'u');
  const fs::path pending = dir_ / "pending", target = dir_ / "accepted";
  fs::create_directories(target);
  fs::copy_file(committed("shuffle.golden"), target / "shuffle.golden");
  fs::create_directories(pending);
  std::ofstream(pending / "shuffle.golden") << golden::write_golden(shuffle);
  const auto expect_nothing_moved = [&](const CliRun& o) {
    EXPECT_TRUE(golden::read_golden_file((target / "shuffle.golden").string()) == read("shuffle")) << "the old golden";
    EXPECT_TRUE(fs::exists(pending / "shuffle.golden")) << o.out << o.err;
    EXPECT_TRUE(fs::exists(pending / "vote.golden")) << o.out << o.err;
    EXPECT_FALSE(fs::is_regular_file(target / "vote.golden"));
  };
  golden::GoldenFile bad_vote = vote;
  change_first(bad_vote, 'd');
  std::ofstream(pending / "vote.golden") << golden::write_golden(bad_vote);
  CliRun o = run_cli({"golden", "accept", pending.string(), "--golden", target.string()});
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("vote: refused"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("warpconf golden accept: nothing moved: every family of " + pending.string() +
                       " is accepted, or none"),
            std::string::npos)
      << o.out;
  expect_nothing_moved(o);
  // A golden it replaces that cannot be read (a folder) stops it before anything moves too.
  std::ofstream(pending / "vote.golden") << golden::write_golden(vote);
  fs::create_directory(target / "vote.golden");
  o = run_cli({"golden", "accept", pending.string(), "--golden", target.string()});
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_EQ(o.err, "warpconf golden accept: " + (target / "vote.golden").string() + ": cannot read: Is a directory\n");
  expect_nothing_moved(o);
  fs::remove(target / "vote.golden");
  o = run_cli({"golden", "accept", pending.string(), "--golden", target.string()});
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_TRUE(golden::read_golden_file((target / "shuffle.golden").string()) == shuffle);
  EXPECT_TRUE(golden::read_golden_file((target / "vote.golden").string()) == vote);
  EXPECT_FALSE(fs::exists(pending));
}

TEST_F(GoldenCheck, diff_counts_an_undefined_lane_as_a_behaviour_change_and_names_it) {
  golden::GoldenFile file = read("shuffle");
  const auto [changed_case, changed_output] = change_first(file, 'u');
  const fs::path a = dir_ / "a", b = dir_ / "b";
  fs::create_directories(a);
  fs::create_directories(b);
  fs::copy_file(committed("shuffle.golden"), a / "shuffle.golden");
  std::ofstream(b / "shuffle.golden") << golden::write_golden(file);
  const CliRun o = run_cli({"golden", "diff", a.string(), b.string(), "--family", "shuffle"});
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("0 that the documents fix, 1 undefined or float (behaviour changes)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("case " + std::to_string(changed_case) + " ["), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("output " + std::to_string(changed_output) + " (undefined)"), std::string::npos) << o.out;
  const CliRun strict = run_cli({"golden", "diff", a.string(), b.string(), "--family", "shuffle", "--strict"});
  EXPECT_EQ(strict.status, 1) << strict.out;
}

// A results file it cannot write is bad input, refused with one line before the check runs: it was
// status 1 once the whole check had run, its records lost.
TEST_F(GoldenCheck, a_results_file_it_cannot_write_is_bad_input_before_the_check) {
  write("vote", read("vote"));
  const fs::path results = dir_ / "no-such-folder" / "results.jsonl" / "x";
  setenv("WARPCONF_RESULTS", results.c_str(), 1);
  std::ofstream(dir_ / "no-such-folder") << "a file where a folder should be";
  const CliRun o = check("vote");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err, "warpconf golden check: the result records (WARPCONF_RESULTS): cannot write " + results.string() +
                       ": Not a directory\n");
}

// A folder whose name is not UTF-8 cannot be named in a result record (JSON): bad input, where check
// and diff once aborted writing the record.
TEST_F(GoldenCheck, a_folder_whose_name_is_not_utf8_is_bad_input) {
  const fs::path odd = dir_ / "golden-\xff";
  fs::create_directories(odd);
  fs::copy_file(committed("vote.golden"), odd / "vote.golden");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"golden", "check", odd.string(), "--family", "vote"},
                                              {"golden", "diff", odd.string(), odd.string(), "--family", "vote"}}) {
    const CliRun o = run_cli(args);
    EXPECT_EQ(o.status, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("the folder: '" + dir_.string() + "/golden-\\xff' is not valid UTF-8"), std::string::npos)
        << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

// Folders that hold no golden are inputs of nothing (2); folders that share no family asked for
// compared nothing (1): neither passes.
TEST_F(GoldenCheck, nothing_to_compare_never_passes) {
  const fs::path empty = dir_ / "empty", a = dir_ / "a", b = dir_ / "b";
  for (const fs::path& d : {empty, a, b}) fs::create_directories(d);
  fs::copy_file(committed("vote.golden"), a / "vote.golden");
  fs::copy_file(committed("fns.golden"), b / "fns.golden");
  const auto expect = [](const CliRun& o, int status, const std::string& said) {
    EXPECT_EQ(o.status, status) << o.out << o.err;
    EXPECT_NE((status == 2 ? o.err : o.out).find(said), std::string::npos) << o.out << o.err;
  };
  expect(run_cli({"golden", "diff", empty.string(), empty.string()}), 2, "no .golden file in " + empty.string());
  expect(run_cli({"golden", "diff", a.string(), empty.string()}), 2, "no .golden file in " + empty.string());
  expect(run_cli({"golden", "diff", a.string(), b.string()}), 1, "nothing compared");
  expect(run_cli({"golden", "check", empty.string()}), 2, "no .golden file in " + empty.string());
  expect(run_cli({"golden", "check", a.string(), "--family", "fns"}), 1, "nothing compared");
  expect(run_cli({"golden", "verify", (dir_ / "mistyped").string()}), 2, "cannot read the folder");
  expect(run_cli({"golden", "verify", empty.string()}), 2, "no .golden file in " + empty.string());
}

// A message that quotes a file name with a line break in it is still one line.
TEST_F(GoldenCheck, a_file_name_with_a_line_break_is_named_on_one_line) {
  std::ofstream(dir_ / "vote\nshuffle.golden") << "x";
  const CliRun o = run_cli({"golden", "check", dir_.string()});
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("vote shuffle.golden: no family vote shuffle in the corpus"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST_F(GoldenCheck, an_unknown_family_is_bad_input) {
  const CliRun o = run_cli({"golden", "check", dir_.string(), "--family", "shuffles"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("no family shuffles"), std::string::npos) << o.err;
}

// The programs golden: the committed one agrees with the generator and the oracle; a changed
// ptx-defined word, a dropped output and a seed whose programs differ are each found.
class ProgramsGoldenCheck : public GoldenCheck {
 protected:
  golden::ProgramsFile committed_programs() { return golden::read_programs_file(committed("programs.txt").string()); }
  CliRun check_programs(const golden::ProgramsFile& file) {
    std::ofstream(dir_ / "programs.txt") << golden::write_programs(file);
    return run_cli({"golden", "check", dir_.string(), "--family", "program"});
  }
};

TEST_F(ProgramsGoldenCheck, passes_on_an_unchanged_copy) {
  const CliRun o = check_programs(committed_programs());
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("program: 200 programs, 600 lines"), std::string::npos) << o.out;
}

TEST_F(ProgramsGoldenCheck, a_flipped_ptx_defined_word_fails_naming_program_thread_and_slot) {
  const golden::ProgramsFile file = committed_programs();
  // Flip each recorded word of the first lines until one is ptx-defined (an undefined one passes).
  for (size_t l = 0; l < file.lines.size() && l < 30; ++l)
    for (size_t k = 0; k < file.lines[l].outputs.size(); ++k) {
      if (!file.lines[l].outputs[k].word) continue;
      golden::ProgramsFile changed = file;
      golden::ProgramOutput& out = changed.lines[l].outputs[k];
      *out.word ^= 1;
      const CliRun o = check_programs(changed);
      if (o.status == 0) continue;
      EXPECT_EQ(o.status, 1) << o.out << o.err;
      EXPECT_NE(o.out.find("program " + std::to_string(file.lines[l].index) + " on " + file.lines[l].path + ": thread " +
                           std::to_string(out.thread) + " slot " + std::to_string(out.slot) + ": recorded"),
                std::string::npos)
          << o.out;
      EXPECT_NE(o.out.find("(ptx-defined)"), std::string::npos) << o.out;
      return;
    }
  FAIL() << "no ptx-defined output in the first 30 lines of the committed programs golden";
}

TEST_F(ProgramsGoldenCheck, a_dropped_output_fails) {
  golden::ProgramsFile file = committed_programs();
  auto line = std::find_if(file.lines.begin(), file.lines.end(), [](const golden::ProgramLine& l) { return !l.outputs.empty(); });
  ASSERT_NE(line, file.lines.end());
  const golden::ProgramOutput dropped = line->outputs.front();
  line->outputs.erase(line->outputs.begin());
  const CliRun o = check_programs(file);
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("thread " + std::to_string(dropped.thread) + " slot " + std::to_string(dropped.slot) +
                       ": the oracle leaves it open, the golden does not hold it"),
            std::string::npos)
      << o.out;
}

TEST_F(ProgramsGoldenCheck, a_golden_whose_programs_the_generator_no_longer_makes_fails) {
  golden::ProgramsFile file = committed_programs();
  ++file.header.seed;
  const CliRun o = check_programs(file);
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("record it again"), std::string::npos) << o.out;
}

// golden/not-recorded.txt: "<folder> <family> <why>" per family whose golden awaits a GPU, as the
// folder name and family it lists; a line without its reason, or naming a folder or family twice, fails.
std::map<std::string, std::set<std::string>> awaiting_a_recording() {
  std::map<std::string, std::set<std::string>> awaiting;
  std::istringstream lines(files::read_input(check::golden_root() + "/not-recorded.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string folder, family, why;
    words >> folder >> family;
    std::getline(words >> std::ws, why);
    EXPECT_FALSE(why.empty()) << "not-recorded.txt: '" << line << "' says not why";
    EXPECT_TRUE(awaiting[folder].insert(family).second) << "not-recorded.txt: " << folder << " " << family << " twice";
  }
  return awaiting;
}

// The corpus run on a GPU says where its blocks ran, and the judge counts each compared lane on its
// block's SM, as the batch checks do; outputs read from a golden file say nothing of where they ran.
TEST_F(GoldenCheck, the_judge_places_compared_lanes_on_the_sm_of_their_block) {
  const std::vector<golden::CorpusFamily> families = families::corpus();
  const auto vote = std::find_if(families.begin(), families.end(), [](const golden::CorpusFamily& f) { return f.name == "vote"; });
  ASSERT_NE(vote, families.end());
  const std::string path = committed("vote.golden").string();
  golden::FamilyOutputs outputs = golden::outputs_of(*vote, read("vote"), path);
  const golden::FamilyVerdict unplaced = golden::judge(*vote, outputs, {}, nullptr, nullptr);
  EXPECT_FALSE(unplaced.model.placed);
  EXPECT_TRUE(unplaced.model.sm_lanes.empty());
  // Two cases a block; every block on SM 3 but the first batch's first, on SM 131.
  for (size_t b = 0; b < outputs.size(); ++b) {
    outputs[b].cases_per_block = 2;
    outputs[b].placement.assign((vote->batches[b].cases + 1) / 2, gpu::placement_word(3, 0));
  }
  outputs.front().placement.front() = gpu::placement_word(131, 4);
  const golden::FamilyVerdict placed = golden::judge(*vote, outputs, {}, nullptr, nullptr);
  EXPECT_TRUE(placed.model.placed);
  ASSERT_EQ(placed.model.sm_lanes.size(), 132u);
  EXPECT_GT(placed.model.sm_lanes[131], 0u);
  EXPECT_EQ(placed.model.sm_lanes[3] + placed.model.sm_lanes[131], placed.model.tally.compared())
      << "every compared lane on the SM of its block";
}

// The corpus comes from the family folders; the goldens are recorded by hand, on a GPU. A family
// with a corpus and no golden (or a golden of no family) on a recorded architecture fails here,
// unless golden/not-recorded.txt says why it awaits one; a family listed there and recorded fails too.
// On the jit-75 code path the families that need more than compute_75 PTX are NotSupported: no golden.
TEST(GoldenFamilies, every_family_with_a_corpus_has_a_golden_on_every_recorded_architecture) {
  std::vector<std::string> corpus_names, compute_75_names;
  for (const golden::CorpusFamily& f : families::corpus()) {
    corpus_names.push_back(f.name);
    if (std::none_of(f.batches.begin(), f.batches.end(),
                     [](const golden::CorpusBatch& b) { return b.needs_compute_capability > 75; }))
      compute_75_names.push_back(f.name);
  }
  std::map<std::string, std::set<std::string>> awaiting = awaiting_a_recording();
  size_t architectures = 0;
  for (const fs::directory_entry& dir : fs::directory_iterator(check::golden_root())) {
    const std::string folder = dir.path().filename().string();
    if (!dir.is_directory() || folder.rfind("sm_", 0) != 0) continue;
    std::set<std::string> recorded;
    for (const fs::directory_entry& file : fs::directory_iterator(dir.path()))
      if (file.path().extension() == ".golden") recorded.insert(file.path().stem().string());
    if (recorded.empty()) continue;
    ++architectures;
    const std::set<std::string> listed = awaiting[folder];
    awaiting.erase(folder);
    for (const std::string& family : listed)
      EXPECT_EQ(recorded.count(family), 0u) << folder << "/" << family << ".golden is recorded: remove its line from not-recorded.txt";
    recorded.insert(listed.begin(), listed.end());
    const bool jit_75 = folder.find("-jit-75") != std::string::npos;
    const std::vector<std::string>& want = jit_75 ? compute_75_names : corpus_names;
    EXPECT_EQ(recorded, std::set<std::string>(want.begin(), want.end()))
        << dir.path().string() << ": the goldens (with the families not-recorded.txt lists) and the families' corpora differ";
  }
  for (const auto& [folder, families] : awaiting)
    ADD_FAILURE() << "not-recorded.txt names " << folder << ", no recorded folder under " << check::golden_root();
  EXPECT_GT(architectures, 0u) << "no recorded architecture under " << check::golden_root();
}

}  // namespace
}  // namespace wc
