// Wall time of a mapping optimiser with its default budget (the genetic one unless named:
// `milp` runs the GA as its warm start, then the layered formulation): ResNet-50 on the
// Simba-like 6x6 package, and on the organic edge-HBM 4x4 package. Prints one line per case:
// wall seconds, EdP gain, what the search did.
// usage: bench_ga [simba|organic|all] [ga|milp]
#include "hw/config/arch_config.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"

#include <chrono>
#include <cstdio>
#include <string>

using namespace mcmsim;

namespace {

void run(const char* arch_name, Optimizer optimizer) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/" + arch_name + ".json");
    Workload w = zoo_workload("resnet50", 1);
    MapRequest o;  // the CLI's defaults
    o.optimizer = optimizer;
    auto t0 = std::chrono::steady_clock::now();
    OptimizeResult r = optimize_mapping(a, w, o);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s resnet50 x %-28s wall %6.2f s  EdP %.3fx over uniform  (%s)\n", to_string(optimizer), arch_name, wall,
                r.improvement(), r.detail.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    const auto optimizer = parse_choice<Optimizer>(argc > 2 ? argv[2] : "ga");
    if (!optimizer || (*optimizer != Optimizer::Ga && *optimizer != Optimizer::Milp)) {
        std::fprintf(stderr, "usage: bench_ga [simba|organic|all] [ga|milp]\n");
        return 2;
    }
    if (which == "simba" || which == "all") run("simba-6x6", *optimizer);
    if (which == "organic" || which == "all") run("mcm-4x4-organic-hbm-edge", *optimizer);
    return 0;
}
