// How fast the analytical model prices a plan, and how fast the mapper writes one.
// ResNet-50 on the Simba-like 6x6 package, uniform mapping (~137k ops).
#include "hw/config/arch_config.h"
#include "mapper/analytical_model.h"
#include "mapper/mapper.h"
#include "mapper/workload.h"

#include <benchmark/benchmark.h>

using namespace mcmsim;

namespace {

const ArchConfig& simba() {
    static ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/simba-6x6.json");
    return a;
}

const Plan& resnet_plan() {
    static Plan p = map_uniform(simba(), zoo_workload("resnet50", 1), 1);
    return p;
}

void BM_EstimateResNet50Simba(benchmark::State& state) {
    const Plan& p = resnet_plan();
    for (auto _ : state) benchmark::DoNotOptimize(estimate_plan(simba(), p).latency_ns);
    state.counters["ops"] = static_cast<double>(p.op_count());
}
BENCHMARK(BM_EstimateResNet50Simba)->Unit(benchmark::kMillisecond);

void BM_MapUniformResNet50Simba(benchmark::State& state) {
    Workload w = zoo_workload("resnet50", 1);
    for (auto _ : state) benchmark::DoNotOptimize(map_uniform(simba(), w, 1).layers.size());
}
BENCHMARK(BM_MapUniformResNet50Simba)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
