// mcmsim codesign: hardware knobs x mapping (traces/report/codesign.h); --confirm N simulates
// the N best points, each in a child `mcmsim simulate` (sim/cli/child_simulation.h).
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/progress.h"
#include "sim/cli/child_simulation.h"
#include "sim/cli/cli_common.h"
#include "traces/report/codesign.h"

#include <iostream>

namespace mcmsim::cli {

int cmd_codesign(const std::vector<std::string>& args) {
    po::options_description o("codesign options");
    add_arch_option(o);
    add_mapping_options(o, MappingDefaults{"ga", 16, 12});
    o.add_options()("confirm", po::value<int>()->default_value(0), "simulate the N best points in SystemC and compare rankings")(
        "out", po::value<std::string>()->default_value("codesign"), "output directory")("quiet,q", po::bool_switch(),
                                                                                        "no progress line");
    po::variables_map vm;
    if (!parse("codesign", "--arch FILE --workload W --space SPACE.json [--objective edp] [--confirm N] [--out DIR] [-q]", o,
               args, vm))
        return kExitOk;
    CodesignRequest req;
    req.base = load_arch(vm);
    req.workload = load_workload(vm);
    req.space = load_search_space(required(vm, "space"));
    req.mapping = read_map_request(vm);
    req.confirm = vm["confirm"].as<int>();
    if (req.confirm < 0) throw InputError("", "--confirm", "a number of points >= 0", std::to_string(req.confirm));
    req.out_dir = make_out_dir(vm);
    const Objective obj = req.mapping.objective;
    CodesignResult r;
    {
        ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), "codesign", "point", printable_unit(obj),
                              obj == Objective::Edp ? 1e-21 : 1.0);
        progress.set_total(static_cast<int>(hardware_points(req.space.hardware).size()));
        r = run_codesign(req, child_simulation_runner(progress.runs_callback()), progress.callback());
    }
    write_codesign(req, r);
    std::cout << codesign_summary(req, r);
    return kExitOk;
}

}  // namespace mcmsim::cli
