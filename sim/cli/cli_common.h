#pragma once
// Shared pieces of the `mcmsim` subcommands: option parsing into typed requests, loading
// inputs, running an evaluator and writing its reports.
#include "hw/common/choice.h"
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/map_request.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_causality.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcmsim::cli {

namespace po = boost::program_options;

#ifndef MCMSIM_VERSION
#define MCMSIM_VERSION "unknown"
#endif
/// The version every sweep point's hash includes (the project's, from CMake).
constexpr const char* kMcmsimVersion = MCMSIM_VERSION;

/// Exit codes: 0 ok, 1 internal error, 2 bad input, 3 the simulation failed its self-checks.
constexpr int kExitOk = 0, kExitInternal = 1, kExitBadInput = 2, kExitCheckFailed = 3;

/// Parses `args` (the words after the subcommand) against `opts`. Returns false when --help
/// was asked for (the help has been printed). Bad options throw InputError.
bool parse(const std::string& command, const std::string& usage, po::options_description& opts,
           const std::vector<std::string>& args, po::variables_map& vm);

/// Requires an option; its absence is an InputError naming it.
std::string required(const po::variables_map& vm, const std::string& name);

/// The option a library field is given by: the field's name with dashes ("micro_batch" ->
/// "--micro-batch"). Every request field and its option share a name.
std::string option_of_field(const std::string& field);

/// The value of a choice option (hw/common/choice.h); another word is an InputError naming it.
template <class E>
E choice_option(const po::variables_map& vm, const std::string& name) {
    const std::string v = vm[name].as<std::string>();
    if (auto e = parse_choice<E>(v)) return *e;
    throw InputError("", "--" + name, choice_list<E>(), "\"" + v + "\"");
}

/// --seed (or another seed option): read signed so that "-1" is refused, not wrapped to 2^64 - 1.
std::uint64_t seed_option(const po::variables_map& vm, const std::string& name = "seed");

/// --arch.
void add_arch_option(po::options_description& o);
/// The --out directory, created if missing; a path that cannot be a directory (an existing
/// file, no permission) is bad input on --out.
std::string make_out_dir(const po::variables_map& vm);
/// Loads the --arch config and prints its warnings on stderr.
ArchConfig load_arch(const po::variables_map& vm);

/// The mapping options' defaults, which differ between commands.
struct MappingDefaults {
    const char* optimizer = "uniform";
    int population = 20, generations = 25;
};
/// The options of a MapRequest (--optimizer, --split, --collective, ... --seed) and --workload,
/// --batch.
void add_mapping_options(po::options_description& o, const MappingDefaults& d = {});
/// The request they give (the space file loaded); checked by the mapper.
MapRequest read_map_request(const po::variables_map& vm);

/// Loads the workload named by --workload / --batch (a zoo name or a file).
Workload load_workload(const po::variables_map& vm);

/// The analytical model's options: --granularity (defaulting to `granularity`) and
/// --packets-per-event (packet granularity only).
void add_model_options(po::options_description& o, const char* granularity, const char* granularity_help);
/// Reads them; a bad value, or --packets-per-event without the packet granularity, is an
/// InputError naming the option.
EstimateOptions read_model_options(const po::variables_map& vm);

/// Prints the one-line error of a failed causality check; returns kExitCheckFailed.
int causality_failed(const CausalityCheck& c);

/// The simulation's options: --watchdog-ns and --threads.
void add_sim_options(po::options_description& o);
/// Reads them; a non-positive watchdog or a thread count outside 1..64 is an InputError.
SimOptions read_sim_options(const po::variables_map& vm);

/// Simulates `plan`, writes the reports into `out_dir`, prints the console table.
/// Returns the exit code (kExitCheckFailed when a self-check failed).
int simulate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir, SimOptions opt, bool quiet);
/// Same with the analytical model. report.json names a granularity other than the default
/// (sim.granularity, and sim.packets_per_event); run-info.json always names it.
int estimate_and_report(const ArchConfig& arch, const Plan& plan, const std::string& out_dir, bool quiet,
                        const EstimateOptions& options = {});

int cmd_run(const std::vector<std::string>& args);
int cmd_map(const std::vector<std::string>& args);
int cmd_simulate(const std::vector<std::string>& args);
int cmd_estimate(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);
int cmd_config(const std::vector<std::string>& args);
int cmd_dram(const std::vector<std::string>& args);
int cmd_noc(const std::vector<std::string>& args);
int cmd_workload(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_codesign(const std::vector<std::string>& args);
int cmd_crosscheck(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_sweep_point(const std::vector<std::string>& args);
int cmd_allocate(const std::vector<std::string>& args);

}  // namespace mcmsim::cli
