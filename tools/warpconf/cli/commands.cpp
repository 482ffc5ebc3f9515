// The table of commands: each one's options and what runs it, side by side.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/code_paths.hpp"
#include "core/explain.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "families/registry.hpp"
#include "warpconf/cli/command.hpp"
#include "warpconf/cli/options.hpp"
#include "warpconf/golden/golden_command.hpp"
#include "warpconf/perf/perf_command.hpp"
#include "warpconf/probe/probe_command.hpp"
#include "warpconf/program/program_command.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/report/results_same.hpp"
#include "warpconf/run/health.hpp"
#include "warpconf/run/run_command.hpp"
#include "warpconf/screen/screen_command.hpp"
#include "warpconf/toolchain/toolchain_command.hpp"

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

Runner declare_explain(CLI::App& cmd) {
  auto options = std::make_shared<ExplainOptions>();
  cmd.add_option("OP", options->op, "the op: " + families::explained_ops())->required();
  cmd.allow_extras();
  cmd.add_flag("--json", options->json, "print one JSON object with a lanes array");
  return [options, &cmd](const Invocation& call) {
    options->given = explain_options(cmd.remaining());
    const Explanation e = families::explain(*options);
    options->json ? print_json(e, call.out) : print_text(e, call.out);
    return 0;
  };
}

Runner declare_results(CLI::App& cmd) {
  struct ResultsWords {
    std::string file, same_as;
    bool json = false;
  };
  auto words = std::make_shared<ResultsWords>();
  cmd.add_option("FILE", words->file, "the results file, e.g. build/gpu/results/results.jsonl")->required();
  CLI::Option* json = cmd.add_flag("--json", words->json, "print one JSON object");
  cmd.add_option("--same-as", words->same_as,
                 "another results file: exit 0 where both hold the same sums per family x intrinsic x type x verdict x "
                 "code path, else 1 with a line per call that differs (performance records left out)")
      ->excludes(json);
  return [words](const Invocation& call) {
    require_utf8_path("the results", words->file);
    files::InputFile in(words->file);
    if (!words->same_as.empty()) {
      require_utf8_path("--same-as", words->same_as);
      files::InputFile other(words->same_as);
      return print_same_sums(call_sums(in, words->file), words->file, call_sums(other, words->same_as), words->same_as,
                             call.out);
    }
    const ResultsSummary summary = summarize_results(in, words->file);
    words->json ? print_results_json(summary, call.out) : print_results_text(summary, call.out);
    return 0;
  };
}

// A golden command's runner: `run_golden` with the options its CLI::App fills.
Runner golden_runner(const std::shared_ptr<GoldenOptions>& golden, const CLI::App& cmd) {
  golden->command = cmd.get_name();
  return [golden](const Invocation& call) { return run_golden(*golden, call.out, call.err); };
}

void add_golden_family_option(CLI::App& cmd, GoldenOptions& golden) {
  cmd.add_option("--family", golden.families, "only this family (repeatable): shuffle, vote, softmax, ...");
}

Runner declare_golden_record(CLI::App& cmd) {
  auto golden = std::make_shared<GoldenOptions>();
  cmd.add_option("--out", golden->out, "the folder for the pending files (default golden/pending/sm_XX)");
  add_golden_family_option(cmd, *golden);
  return golden_runner(golden, cmd);
}

Runner declare_golden_accept(CLI::App& cmd) {
  auto golden = std::make_shared<GoldenOptions>();
  cmd.add_option("PENDING", golden->dirs, "the pending folder (default: the only one under golden/pending)")->expected(0, 1);
  cmd.add_option("--golden", golden->golden, "where they go (default golden/sm_XX, by their header)");
  return golden_runner(golden, cmd);
}

Runner declare_golden_verify(CLI::App& cmd) {
  auto golden = std::make_shared<GoldenOptions>();
  cmd.add_option("DIR", golden->dirs, "the golden folder (default golden/sm_XX for this GPU)")->expected(0, 1);
  cmd.add_flag("--strict", golden->strict, "behaviour changes fail");
  add_golden_family_option(cmd, *golden);
  return golden_runner(golden, cmd);
}

Runner declare_golden_check(CLI::App& cmd) {
  auto golden = std::make_shared<GoldenOptions>();
  cmd.add_option("DIR", golden->dirs, "golden folders (default every golden/sm_*)");
  cmd.add_flag("--strict", golden->strict, "behaviour changes fail");
  cmd.add_option("--family", golden->families,
                 "only this family (repeatable): shuffle, vote, softmax, ..., or program (programs.txt)");
  return golden_runner(golden, cmd);
}

Runner declare_golden_diff(CLI::App& cmd) {
  auto golden = std::make_shared<GoldenOptions>();
  cmd.add_option("FOLDERS", golden->dirs, "the two recording folders to compare, A then B")->expected(2);
  cmd.add_flag("--strict", golden->strict, "behaviour changes fail");
  add_golden_family_option(cmd, *golden);
  return golden_runner(golden, cmd);
}

// "shuffle, vote, ...": the families that have contract probes, in the order of their probes.
std::string probed_families() {
  std::vector<std::string_view> probed;
  for (const gpu::ProbeCase& c : families::probe_cases())
    if (std::find(probed.begin(), probed.end(), c.op->family) == probed.end()) probed.push_back(c.op->family);
  std::string text;
  for (std::string_view family : probed) text += (text.empty() ? "" : ", ") + std::string(family);
  return text;
}

Runner declare_probe(CLI::App& cmd) {
  struct ProbeWords {
    ProbeOptions options;
    std::string verify_file;
  };
  auto words = std::make_shared<ProbeWords>();
  ProbeOptions& probe = words->options;
  cmd.add_option("--timeout", probe.timeout_s, "seconds per child before it is killed as hung (default 20)")
      ->transform(duration_in(kProbeTimeout));
  cmd.add_option("--batch", probe.batch, "probes per child (default 32)")->transform(number_in(kProbeBatch));
  cmd.add_option("--jobs", probe.jobs,
                 "children at once (default 1); a machine busier than its cores can push a slow child past --timeout")
      ->transform(number_in(kProbeJobs));
  cmd.add_option("--out", probe.out, "the contracts file to write (default golden/pending/sm_XX/contracts.txt)");
  cmd.add_option("--family", probe.families, "only this family (repeatable): " + probed_families());
  cmd.add_option("--path", probe.paths,
                 "the code path to probe (repeatable), or all: " + code_path_names() +
                     " (default: this process's, WARPCONF_CODE_PATH, else sass); a path other than this "
                     "process's runs with its own warpconf (docs/contracts.md)");
  const CLI::Option* verify = cmd.add_option("--verify", words->verify_file,
      "compare with a recording (default golden/sm_XX/contracts.txt): a changed outcome or value is a behaviour change")
      ->expected(0, 1);
  cmd.add_flag("--strict", probe.strict, "behaviour changes fail");
  return [words, verify](const Invocation& call) {
    if (verify->count() > 0) words->options.verify = words->verify_file;
    return run_probe_command(words->options, call.out);
  };
}

Runner declare_program(CLI::App& cmd) {
  auto args = std::make_shared<ProgramArgs>();
  add_program_options(cmd, *args);
  return [args](const Invocation& call) { return run_program_command(*args, call.out, call.err); };
}

Runner declare_toolchain(CLI::App& cmd) {
  auto args = std::make_shared<ToolchainArgs>();
  add_toolchain_options(cmd, *args);
  return [args](const Invocation& call) { return run_toolchain_command(*args, call.out, call.err); };
}

// A perf command's runner: `run_perf` with the options its CLI::App fills.
Runner perf_runner(const std::shared_ptr<PerfOptions>& perf, const CLI::App& cmd) {
  perf->command = cmd.get_name();
  return [perf](const Invocation& call) { return run_perf(*perf, call.out, call.err); };
}

Runner declare_perf_record(CLI::App& cmd) {
  auto perf = std::make_shared<PerfOptions>();
  cmd.add_option("--out", perf->out, "the folder for perf.txt (default golden/pending/sm_XX)");
  cmd.add_option("--repetitions", perf->repetitions, "repetitions per figure (default 30)")
      ->transform(number_in(kPerfRepetitions));
  return perf_runner(perf, cmd);
}

Runner declare_perf_accept(CLI::App& cmd) {
  auto perf = std::make_shared<PerfOptions>();
  cmd.add_option("PENDING", perf->files, "the pending perf.txt (default: the only one under golden/pending)")->expected(0, 1);
  cmd.add_option("--golden", perf->golden, "the folder it goes to (default golden/sm_XX, by its header)");
  cmd.add_flag("--retire", perf->retire,
               "the baseline's figures that the pending file lacks are retired (without it, accept refuses to drop them)");
  return perf_runner(perf, cmd);
}

Runner declare_perf_compare(CLI::App& cmd) {
  auto perf = std::make_shared<PerfOptions>();
  cmd.add_option("BASELINE", perf->files, "the baseline (default golden/sm_XX/perf.txt)")->expected(0, 1);
  cmd.add_option("--repetitions", perf->repetitions, "repetitions per figure (default 30)")
      ->transform(number_in(kPerfRepetitions));
  cmd.add_flag("--strict", perf->strict, "a performance change fails");
  return perf_runner(perf, cmd);
}

Runner declare_perf_diff(CLI::App& cmd) {
  auto perf = std::make_shared<PerfOptions>();
  cmd.add_option("FILES", perf->files, "the two perf.txt files to compare, A then B")->expected(2);
  cmd.add_flag("--strict", perf->strict, "a figure worse by the rule fails");
  return perf_runner(perf, cmd);
}

Runner declare_run(CLI::App& cmd) {
  auto options = std::make_shared<RunOptions>();
  cmd.add_option("--budget", options->budget,
                 "quick (a hundredth of the random cases, the slowest suites left out), default, or soak (ctest "
                 "again with a fresh WARPCONF_SEED until --soak-minutes have passed)");
  const CLI::Option* soak = cmd.add_option("--soak-minutes", options->soak_minutes, "minutes to soak (default 60)")
                                ->transform(duration_in(kSoakMinutes));
  cmd.add_option("--out", options->out, "the report folder (default <build>/report; from a bundle, ./warpconf-report)");
  cmd.add_option("--path", options->path,
                 "the code path (docs/code-paths.md): sass (default), sass-debug, sass-ptxas-O0, jit-native, jit-75, "
                 "or all; a path's binaries that are missing are built first");
  cmd.add_flag("--sanitize", options->sanitize, "run the sanitize variant: under compute-sanitizer");
  cmd.add_flag("--perf", options->perf,
               "run the perf tests alone (ctest label perf: warpconf perf compare against golden/sm_XX/perf.txt, "
               "leaving the pending baseline) and put the figures in the report; no --path, --sanitize or --budget");
  cmd.add_flag("--strict", options->strict, "with --perf: a performance change fails the run");
  cmd.add_option("--build-dir", options->build_dir, "the build tree or bundle (default: the one this warpconf is in)");
  cmd.add_option("--time-limit", options->time_limit_s,
                 "seconds after which the run stops, everything ctest started killed (default 0: none)")
      ->transform(duration_in(kTimeLimit));
  cmd.add_option("CTEST_ARGS", options->ctest_args, "extra ctest arguments, after --");
  return [options, soak](const Invocation& call) {
    options->soak_minutes_given = soak->count() > 0;
    options->argv = call.argv;
    return run_suite(*options, call.out, call.err).status;
  };
}

Runner declare_health(CLI::App& cmd) {
  auto options = std::make_shared<HealthOptions>();
  RunOptions& run = options->run;
  run.budget = "quick";
  run.time_limit_s = 50;
  cmd.add_option("--budget", run.budget, "quick (the default), default or soak, as for run");
  const CLI::Option* soak = cmd.add_option("--soak-minutes", run.soak_minutes, "minutes to soak (default 60)")
                                ->transform(duration_in(kSoakMinutes));
  cmd.add_option("--time-limit", run.time_limit_s,
                 "seconds for the whole check, CUDA start-up and the screen included, 0 for none (default 50: slurmd "
                 "kills a health check at 60)")
      ->transform(duration_in(kTimeLimit));
  cmd.add_flag("--screen", options->screen,
               "first run warpconf screen --level short on every visible GPU (nvidia-smi -L, CUDA_VISIBLE_DEVICES), "
               "all at once, about 5 s and CUDA start-up; its verdict joins the line and the exit status");
  cmd.add_option("--out", run.out, "the report folder (default: as for run)");
  cmd.add_option("--build-dir", run.build_dir, "the build tree or bundle (default: the one this warpconf is in)");
  return [options, soak](const Invocation& call) {
    options->run.soak_minutes_given = soak->count() > 0;
    options->run.argv = call.argv;
    return run_health(*options, call.out);
  };
}

Runner declare_screen(CLI::App& cmd) {
  auto args = std::make_shared<ScreenArgs>();
  add_screen_options(cmd, *args);
  return [args](const Invocation& call) { return run_screen_command(*args, call.out, call.err); };
}

Runner declare_report(CLI::App& cmd) {
  struct ReportWords {
    std::string results, out;
  };
  auto words = std::make_shared<ReportWords>();
  cmd.add_option("RESULTS", words->results, "a results.jsonl, or the folder that holds it")->required();
  cmd.add_option("--out", words->out, "where the report goes (default: beside the results)");
  return [words](const Invocation& call) {
    return run_report_command(words->results, words->out, call.argv, call.out, call.err);
  };
}

Runner declare_merge(CLI::App& cmd) {
  struct MergeWords {
    std::vector<std::string> reports;
    std::string out;
  };
  auto words = std::make_shared<MergeWords>();
  cmd.add_option("REPORTS", words->reports, "report folders or report.json files (one: a fleet of one)")
      ->expected(1, -1)
      ->required();
  cmd.add_option("--out", words->out, "where the merged report goes")->required();
  return [words](const Invocation& call) {
    return run_merge_command(words->reports, words->out, call.argv, call.out, call.err);
  };
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"explain", families::explain_help(), false, declare_explain},
      {"results",
       "Sum a results file (one JSON record per check, docs/results-schema.md) per family: records, cases, lanes per "
       "class, bad lanes, verdicts and known deviations.",
       false, declare_results},
      {"golden",
       "Golden outputs recorded on real GPUs (docs/golden-format.md): record, accept, verify, check, diff.",
       false,
       nullptr,
       {
           {"record",
            "Run the corpus on this GPU and write pending golden files (refusing any family with a lane that "
            "disagrees with the model).",
            true, declare_golden_record},
           {"accept", "Show the diff of pending golden files against golden/ and move them there.", false,
            declare_golden_accept},
           {"verify", "Run the corpus on this GPU against the model and the golden of its architecture and code path.",
            true, declare_golden_verify},
           {"check",
            "Without a GPU: the model must reproduce every defined and ptx-defined lane of the goldens, and the "
            "classes must agree; programs.txt must hold the generator's programs and the oracle's open outputs.",
            true, declare_golden_check},
           {"diff", "Compare two recordings (two GPUs, before and after a driver update, SASS and driver JIT).", true,
            declare_golden_diff},
       }},
      {"probe",
       "Run the contract-violation probes (a calling lane outside the mask, a mask naming exited lanes or lanes in "
       "another intrinsic), each batch in a child process, and record what each did: ran (values), trapped (CUDA "
       "error), hung, crashed, per code path (docs/contracts.md, contracts.txt).",
       true, declare_probe},
      {"program",
       "Run random warp programs from a seed on code paths, against the oracle and each other (docs/programs.md).",
       true, declare_program},
      {"toolchain",
       "PTX through every optimisation level of ptxas and of the driver's JIT: known compiler bugs (--known, "
       "docs/toolchain.md) or random ptx programs against their oracle (--random, docs/programs.md).",
       false, declare_toolchain},
      {"perf",
       "Performance as a regression dimension (docs/perf.md): record, accept, compare, diff. A performance change "
       "is its own verdict, never a conformance failure.",
       false,
       nullptr,
       {
           {"record",
            "Measure every figure on this GPU (each kernel's result checked against the model) and write "
            "golden/pending/sm_XX/perf.txt.",
            true, declare_perf_record},
           {"accept", "Print the pending perf.txt against golden/sm_XX/perf.txt and move it there.", false,
            declare_perf_accept},
           {"compare",
            "Measure now and compare with the baseline of this architecture and code path: worse by more than 10 % "
            "and 3 x MAD in two consecutive measurements is a performance change.",
            true, declare_perf_compare},
           {"diff", "Compare two perf.txt files figure by figure.", false, declare_perf_diff},
       }},
      {"run",
       "Run the GPU suite through ctest with a progress line, and write a report (report.json, report.md, "
       "report.html; docs/report-schema.md) that is rewritten after every test. Extra ctest arguments go after --.",
       false, declare_run, {}, "CTEST_ARGS"},
      {"health",
       "A node health check (Slurm, Kubernetes): a CUDA probe in a child process, with --screen the short SM screen "
       "of every visible GPU, then warpconf run, all within --time-limit; prints one line and exits 0 (conforms), 1 (a failure) or 77 (could not test: no GPU, a driver "
       "error, no code in this build for the GPU, no build tree, the time limit passed).",
       false, declare_health},
      {"screen",
       "Run one batch of warp collectives on every SM x warp slot x lane (one persistent block per SM), compare the "
       "SMs with each other and with the models, and place a disagreement on its SM, warp slot and lane.",
       false, declare_screen},
      {"report",
       "Build report.json, report.md and report.html from a results.jsonl, or a folder holding one with ctest's "
       "junit.xml and ctest.log beside it (warpconf run, tools/conformance.sh).",
       false, declare_report},
      {"merge", "Merge reports (folders or report.json files) into one, a column per device fingerprint.", false,
       declare_merge},
  };
  return table;
}

}  // namespace wc::cli
