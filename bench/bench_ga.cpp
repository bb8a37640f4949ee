// Wall time of the genetic optimiser with its default budget: ResNet-50 on the Simba-like
// 6x6 package, and on the organic
// edge-HBM 4x4 package. Prints one line per case: wall seconds, plans scored, EdP gain.
// usage: bench_ga [simba|organic|all]
#include "hw/config/arch_config.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"

#include <chrono>
#include <cstdio>
#include <string>

using namespace mcmsim;

namespace {

void run(const char* arch_name) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/" + arch_name + ".json");
    Workload w = zoo_workload("resnet50", 1);
    MapRequest o;  // the CLI's defaults
    o.optimizer = Optimizer::Ga;
    auto t0 = std::chrono::steady_clock::now();
    OptimizeResult r = optimize_mapping(a, w, o);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("ga resnet50 x %-28s wall %6.2f s  EdP %.3fx over uniform  (%s)\n", arch_name, wall, r.improvement(),
                r.detail.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    std::string which = argc > 1 ? argv[1] : "all";
    if (which == "simba" || which == "all") run("simba-6x6");
    if (which == "organic" || which == "all") run("mcm-4x4-organic-hbm-edge");
    return 0;
}
