#include "warpconf/cli/cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/code_paths.hpp"
#include "core/environment.hpp"
#include "core/explain.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "core/seed.hpp"
#include "families/registry.hpp"
#include "warpconf/golden/golden.hpp"
#include "warpconf/run/health.hpp"
#include "warpconf/cli/options.hpp"
#include "warpconf/perf/perf.hpp"
#include "warpconf/probe/probe.hpp"
#include "warpconf/screen/screen.hpp"
#include "warpconf/program/program.hpp"
#include "warpconf/toolchain/toolchain.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/run/run.hpp"

namespace wc::cli {
namespace {

// `explain`'s options after the op, "--name value" or "--name=value"; which names an op takes is
// its family's to say (cli::OptionReader), so that a family adds options without touching this file.
std::map<std::string, std::string> explain_options(const std::vector<std::string>& tokens) {
  std::map<std::string, std::string> given;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    if (token.size() < 3 || token.compare(0, 2, "--") != 0)
      throw UsageError("'" + token + "' is not an option: options are --name VALUE");
    const size_t equals = token.find('=');
    const std::string name = token.substr(0, equals);
    if (equals == std::string::npos && i + 1 == tokens.size()) throw UsageError(name + " needs a value");
    const std::string value = equals == std::string::npos ? tokens[++i] : token.substr(equals + 1);
    if (!given.emplace(name, value).second) throw UsageError(name + " is given twice");
  }
  return given;
}

// "warpconf golden check": the commands of `app` that were read, for the line of a refusal.
std::string command_name(const CLI::App& app) {
  std::string name = "warpconf";
  for (const CLI::App* cmd = &app;;) {
    const std::vector<const CLI::App*> read = cmd->get_subcommands([](const CLI::App* sub) { return sub->parsed(); });
    if (read.empty()) return name;
    cmd = read.front();
    name += " " + cmd->get_name();
  }
}

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"warpconf: conformance and regression tests for CUDA warp intrinsics"};
  app.require_subcommand(1);
  CLI::App* explain_cmd = app.add_subcommand("explain", families::explain_help());
  ExplainOptions options;
  explain_cmd->add_option("OP", options.op, "the op: " + families::explained_ops())->required();
  explain_cmd->allow_extras();
  explain_cmd->add_flag("--json", options.json, "print one JSON object with a lanes array");
  CLI::App* results_cmd = app.add_subcommand(
      "results", "Sum a results file (one JSON record per check, docs/results-schema.md) per family: records, "
                 "cases, lanes per class, bad lanes, verdicts and known deviations.");
  std::string results_file;
  bool results_json = false;
  results_cmd->add_option("FILE", results_file, "the results file, e.g. build/gpu/results/results.jsonl")
      ->required();
  results_cmd->add_flag("--json", results_json, "print one JSON object");
  CLI::App* golden_cmd = app.add_subcommand(
      "golden", "Golden outputs recorded on real GPUs (docs/golden-format.md): record, accept, verify, check, diff.");
  golden_cmd->require_subcommand(1);
  GoldenOptions golden;
  const auto families = [&golden](CLI::App* cmd) {
    cmd->add_option("--family", golden.families, "only this family (repeatable): shuffle, vote, softmax, ...");
  };
  CLI::App* record_cmd = golden_cmd->add_subcommand(
      "record", "Run the corpus on this GPU and write pending golden files (refusing any family with a lane that "
                "disagrees with the model).");
  record_cmd->add_option("--out", golden.out, "the folder for the pending files (default golden/pending/sm_XX)");
  families(record_cmd);
  CLI::App* accept_cmd = golden_cmd->add_subcommand(
      "accept", "Show the diff of pending golden files against golden/ and move them there.");
  accept_cmd->add_option("PENDING", golden.dirs, "the pending folder (default: the only one under golden/pending)")
      ->expected(0, 1);
  accept_cmd->add_option("--golden", golden.golden, "where they go (default golden/sm_XX, by their header)");
  CLI::App* verify_cmd = golden_cmd->add_subcommand(
      "verify", "Run the corpus on this GPU against the model and the golden of its architecture and code path.");
  verify_cmd->add_option("DIR", golden.dirs, "the golden folder (default golden/sm_XX for this GPU)")->expected(0, 1);
  verify_cmd->add_flag("--strict", golden.strict, "behaviour changes fail");
  families(verify_cmd);
  CLI::App* check_cmd = golden_cmd->add_subcommand(
      "check", "Without a GPU: the model must reproduce every defined and ptx-defined lane of the goldens, and "
               "the classes must agree; programs.txt must hold the generator's programs and the oracle's open outputs.");
  check_cmd->add_option("DIR", golden.dirs, "golden folders (default every golden/sm_*)");
  check_cmd->add_flag("--strict", golden.strict, "behaviour changes fail");
  check_cmd->add_option("--family", golden.families,
                        "only this family (repeatable): shuffle, vote, softmax, ..., or program (programs.txt)");
  CLI::App* diff_cmd = golden_cmd->add_subcommand(
      "diff", "Compare two recordings (two GPUs, before and after a driver update, SASS and driver JIT).");
  diff_cmd->add_option("FOLDERS", golden.dirs, "the two recording folders to compare, A then B")->expected(2);
  diff_cmd->add_flag("--strict", golden.strict, "behaviour changes fail");
  families(diff_cmd);
  CLI::App* probe_cmd = app.add_subcommand(
      "probe", "Run the contract-violation probes (a calling lane outside the mask, a mask naming exited lanes or "
               "lanes in another intrinsic), each batch in a child process, and record what each did: ran (values), "
               "trapped (CUDA error), hung, crashed, per code path (docs/contracts.md, contracts.txt).");
  ProbeOptions probe;
  probe_cmd->add_option("--timeout", probe.timeout_s, "seconds per child before it is killed as hung (default 20)")
      ->transform(duration_in(kProbeTimeout));
  probe_cmd->add_option("--batch", probe.batch, "probes per child (default 32)")->transform(number_in(kProbeBatch));
  probe_cmd->add_option("--jobs", probe.jobs,
                        "children at once (default 1); a machine busier than its cores can push a slow child past --timeout")
      ->transform(number_in(kProbeJobs));
  probe_cmd->add_option("--out", probe.out, "the contracts file to write (default golden/pending/sm_XX/contracts.txt)");
  std::vector<std::string_view> probed;
  for (const gpu::ProbeCase& c : families::probe_cases())
    if (std::find(probed.begin(), probed.end(), c.op->family) == probed.end()) probed.push_back(c.op->family);
  std::string probed_text;
  for (std::string_view family : probed) probed_text += (probed_text.empty() ? "" : ", ") + std::string(family);
  probe_cmd->add_option("--family", probe.families, "only this family (repeatable): " + probed_text);
  probe_cmd->add_option("--path", probe.paths,
                        "the code path to probe (repeatable), or all: " + code_path_names() +
                            " (default: this process's, WARPCONF_CODE_PATH, else sass); a path other than this "
                            "process's runs with its own warpconf (docs/contracts.md)");
  std::string verify_file;
  CLI::Option* verify_opt = probe_cmd->add_option("--verify", verify_file,
      "compare with a recording (default golden/sm_XX/contracts.txt): a changed outcome or value is a behaviour change")
      ->expected(0, 1);
  probe_cmd->add_flag("--strict", probe.strict, "behaviour changes fail");
  CLI::App* program_cmd = app.add_subcommand(
      "program", "Run random warp programs from a seed on code paths, against the oracle and each other (docs/programs.md).");
  ProgramArgs program_args;
  add_program_options(*program_cmd, program_args);
  CLI::App* toolchain_cmd = app.add_subcommand(
      "toolchain", "PTX through every optimisation level of ptxas and of the driver's JIT: known compiler bugs (--known, "
                   "docs/toolchain.md) or random ptx programs against their oracle (--random, docs/programs.md).");
  ToolchainArgs toolchain_args;
  add_toolchain_options(*toolchain_cmd, toolchain_args);
  CLI::App* perf_cmd = app.add_subcommand(
      "perf", "Performance as a regression dimension (docs/perf.md): record, accept, compare, diff. A performance "
              "change is its own verdict, never a conformance failure.");
  perf_cmd->require_subcommand(1);
  PerfOptions perf;
  CLI::App* perf_record_cmd = perf_cmd->add_subcommand(
      "record", "Measure every figure on this GPU (each kernel's result checked against the model) and write "
                "golden/pending/sm_XX/perf.txt.");
  perf_record_cmd->add_option("--out", perf.out, "the folder for perf.txt (default golden/pending/sm_XX)");
  perf_record_cmd->add_option("--repetitions", perf.repetitions, "repetitions per figure (default 30)")
      ->transform(number_in(kPerfRepetitions));
  CLI::App* perf_accept_cmd = perf_cmd->add_subcommand(
      "accept", "Print the pending perf.txt against golden/sm_XX/perf.txt and move it there.");
  perf_accept_cmd->add_option("PENDING", perf.files, "the pending perf.txt (default: the only one under golden/pending)")
      ->expected(0, 1);
  perf_accept_cmd->add_option("--golden", perf.golden, "the folder it goes to (default golden/sm_XX, by its header)");
  perf_accept_cmd->add_flag("--retire", perf.retire,
                            "the baseline's figures that the pending file lacks are retired (without it, accept refuses "
                            "to drop them)");
  CLI::App* perf_compare_cmd = perf_cmd->add_subcommand(
      "compare", "Measure now and compare with the baseline of this architecture and code path: worse by more than "
                 "10 % and 3 x MAD in two consecutive measurements is a performance change.");
  perf_compare_cmd->add_option("BASELINE", perf.files, "the baseline (default golden/sm_XX/perf.txt)")->expected(0, 1);
  perf_compare_cmd->add_option("--repetitions", perf.repetitions, "repetitions per figure (default 30)")
      ->transform(number_in(kPerfRepetitions));
  perf_compare_cmd->add_flag("--strict", perf.strict, "a performance change fails");
  CLI::App* perf_diff_cmd = perf_cmd->add_subcommand("diff", "Compare two perf.txt files figure by figure.");
  perf_diff_cmd->add_option("FILES", perf.files, "the two perf.txt files to compare, A then B")->expected(2);
  perf_diff_cmd->add_flag("--strict", perf.strict, "a figure worse by the rule fails");
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Run the GPU suite through ctest with a progress line, and write a report (report.json, report.md, "
             "report.html; docs/report-schema.md) that is rewritten after every test. Extra ctest arguments go after --.");
  RunOptions run_options;
  run_cmd->add_option("--budget", run_options.budget,
                      "quick (a hundredth of the random cases, the slowest suites left out), default, or soak (ctest "
                      "again with a fresh WARPCONF_SEED until --soak-minutes have passed)");
  CLI::Option* soak_opt = run_cmd->add_option("--soak-minutes", run_options.soak_minutes, "minutes to soak (default 60)")
                              ->transform(duration_in(kSoakMinutes));
  run_cmd->add_option("--out", run_options.out, "the report folder (default <build>/report; from a bundle, ./warpconf-report)");
  run_cmd->add_option("--path", run_options.path,
                      "the code path (docs/code-paths.md): sass (default), sass-debug, sass-ptxas-O0, jit-native, jit-75, "
                      "or all; a path's binaries that are missing are built first");
  run_cmd->add_flag("--sanitize", run_options.sanitize, "run the sanitize variant: under compute-sanitizer");
  run_cmd->add_flag("--perf", run_options.perf,
                    "run the perf tests alone (ctest label perf: warpconf perf compare against golden/sm_XX/perf.txt, "
                    "leaving the pending baseline) and put the figures in the report; no --path, --sanitize or --budget");
  run_cmd->add_flag("--strict", run_options.strict, "with --perf: a performance change fails the run");
  run_cmd->add_option("--build-dir", run_options.build_dir, "the build tree or bundle (default: the one this warpconf is in)");
  run_cmd->add_option("--time-limit", run_options.time_limit_s,
                      "seconds after which the run stops, everything ctest started killed (default 0: none)")
      ->transform(duration_in(kTimeLimit));
  const CLI::Option* ctest_args_opt =
      run_cmd->add_option("CTEST_ARGS", run_options.ctest_args, "extra ctest arguments, after --");
  CLI::App* health_cmd = app.add_subcommand(
      "health", "A node health check (Slurm, Kubernetes): a CUDA probe in a child process, then warpconf run, all "
                "within --time-limit; prints one line and exits 0 (conforms), 1 (a failure) or 77 (could not test: no "
                "GPU, a driver error, no code in this build for the GPU, no build tree, the time limit passed).");
  RunOptions health;
  health.budget = "quick";
  health.time_limit_s = 50;
  health_cmd->add_option("--budget", health.budget, "quick (the default), default or soak, as for run");
  CLI::Option* health_soak_opt =
      health_cmd->add_option("--soak-minutes", health.soak_minutes, "minutes to soak (default 60)")
          ->transform(duration_in(kSoakMinutes));
  health_cmd->add_option("--time-limit", health.time_limit_s,
                         "seconds for the whole check, CUDA start-up included, 0 for none (default 50: slurmd kills "
                         "a health check at 60)")
      ->transform(duration_in(kTimeLimit));
  health_cmd->add_option("--out", health.out, "the report folder (default: as for run)");
  health_cmd->add_option("--build-dir", health.build_dir, "the build tree or bundle (default: the one this warpconf is in)");
  CLI::App* screen_cmd = app.add_subcommand(
      "screen", "Run one batch of warp collectives on every SM x warp slot x lane (one persistent block per SM), compare "
                "the SMs with each other and with the models, and place a disagreement on its SM, warp slot and lane.");
  ScreenArgs screen_args;
  add_screen_options(*screen_cmd, screen_args);
  CLI::App* report_cmd = app.add_subcommand(
      "report", "Build report.json, report.md and report.html from a results.jsonl, or a folder holding one with "
                "ctest's junit.xml and ctest.log beside it (warpconf run, tools/conformance.sh).");
  std::string report_path, report_out;
  report_cmd->add_option("RESULTS", report_path, "a results.jsonl, or the folder that holds it")->required();
  report_cmd->add_option("--out", report_out, "where the report goes (default: beside the results)");
  CLI::App* merge_cmd = app.add_subcommand(
      "merge", "Merge reports (folders or report.json files) into one, a column per device fingerprint.");
  std::vector<std::string> merge_paths;
  std::string merge_out;
  merge_cmd->add_option("REPORTS", merge_paths, "report folders or report.json files (one: a fleet of one)")
      ->expected(1, -1)
      ->required();
  merge_cmd->add_option("--out", merge_out, "where the merged report goes")->required();
  try {
    check_words(app, argc, argv);
    app.parse(argc, argv);
    refuse_repeated_values(app, {ctest_args_opt});
  } catch (const UsageError& e) {
    print_error(err, command_name(app), e.what());
    return 2;
  } catch (const CLI::CallForHelp&) {
    const CLI::App* shown = &app;  // the innermost command named
    for (const CLI::App* cmd : {explain_cmd, results_cmd, golden_cmd, record_cmd, accept_cmd, verify_cmd, check_cmd, diff_cmd,
                                probe_cmd, program_cmd, toolchain_cmd, perf_cmd, perf_record_cmd, perf_accept_cmd, perf_compare_cmd, perf_diff_cmd,
                                run_cmd, health_cmd, screen_cmd, report_cmd, merge_cmd})
      if (cmd->parsed()) shown = cmd;
    out << shown->help();
    return 0;
  } catch (const CLI::ParseError& e) {
    print_error(err, command_name(app), e.what());
    return 2;
  }
  const bool appends_records = program_cmd->parsed() || probe_cmd->parsed() || perf_record_cmd->parsed() ||
                               perf_compare_cmd->parsed() || (golden_cmd->parsed() && !accept_cmd->parsed());
  if (const std::string why = check::why_results_unwritable(); appends_records && !why.empty()) {
    print_error(err, command_name(app), why);
    return 2;
  }
  if (perf_cmd->parsed()) {
    for (CLI::App* cmd : {perf_record_cmd, perf_accept_cmd, perf_compare_cmd, perf_diff_cmd})
      if (cmd->parsed()) perf.command = cmd->get_name();
    return run_perf(perf, out, err);
  }
  const std::vector<std::string> words(argv, argv + argc);
  if (run_cmd->parsed()) {
    run_options.soak_minutes_given = soak_opt->count() > 0;
    run_options.argv = words;
    return run_suite(run_options, out, err).status;
  }
  if (health_cmd->parsed()) {
    health.soak_minutes_given = health_soak_opt->count() > 0;
    health.argv = words;
    return run_health(health, out, err);
  }
  if (screen_cmd->parsed()) return run_screen_command(screen_args, out, err);
  if (report_cmd->parsed()) return run_report_command(report_path, report_out, words, out, err);
  if (merge_cmd->parsed()) return run_merge_command(merge_paths, merge_out, words, out, err);
  if (program_cmd->parsed()) return run_program_command(program_args, out, err);
  if (toolchain_cmd->parsed()) return run_toolchain_command(toolchain_args, out, err);
  if (probe_cmd->parsed()) {
    if (verify_opt->count() > 0) probe.verify = verify_file;
    return run_probe_command(probe, out, err);
  }
  if (golden_cmd->parsed()) {
    for (CLI::App* cmd : {record_cmd, accept_cmd, verify_cmd, check_cmd, diff_cmd})
      if (cmd->parsed()) golden.command = cmd->get_name();
    return run_golden(golden, out, err);
  }
  if (results_cmd->parsed()) {
    try {
      require_utf8_path("the results", results_file);
      files::InputFile in(results_file);
      const ResultsSummary summary = summarize_results(in, results_file);
      results_json ? print_results_json(summary, out) : print_results_text(summary, out);
    } catch (const UsageError& e) {
      print_error(err, "warpconf results", e.what());
      return 2;
    }
    return 0;
  }
  try {
    options.given = explain_options(explain_cmd->remaining());
    const Explanation e = families::explain(options);
    options.json ? print_json(e, out) : print_text(e, out);
  } catch (const UsageError& e) {
    print_error(err, "warpconf explain", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  // Outside a test binary a case's replay line is the command that showed it.
  check::set_command_line(argc, argv);
  if (const std::optional<std::string> refused = environment::refusal()) {
    err << "warpconf: " << *refused << "\n";
    return 2;
  }
  try {
    const int status = run_command(argc, argv, out, err);
    // Output that was lost (a full disk, /dev/full) is no success.
    if (status == 0 && !out.flush()) {
      err << "warpconf: cannot write standard output\n";
      return 2;
    }
    return status;
  } catch (const std::exception& e) {
    print_error(err, "warpconf", e.what());
  } catch (...) {
    err << "warpconf: an exception that is no std::exception\n";
  }
  return 1;
}

}  // namespace wc::cli
