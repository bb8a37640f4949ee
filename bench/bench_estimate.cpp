// How fast the analytical model prices a plan, and how fast the mapper writes one.
// ResNet-50 on the Simba-like 6x6 package, uniform mapping, at the message granularity (the
// default) and at the packet granularity (BM_EstimateResNet50SimbaPackets); and on the shipped
// 4x4 packages and the 2x2 one (BM_EstimateResNet50Package), whose plans hold fewer flows. BM_Estimate* times estimate_plan only:
// the plan is built once, outside the timed loop (indexing the plan, pricing, scheduling, energy and the result's ledger are all
// inside it; the model keeps no results between calls, only its scratch storage, its tile
// costs and the package's node-pair paths, as it does in an optimiser's loop).
// BM_ReadPlan* is the floor under it: touching every op, dependency and transfer once.
// The machine is shared (other builds, two cores): read the CPU time column, and the median of
// the repetitions rather than one run.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"

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

/// The plan's size, as counters next to the time.
void count_plan(benchmark::State& state, const Plan& p) {
    state.counters["ops"] = static_cast<double>(p.op_count());
    std::size_t flows = 0;
    for (const auto& l : p.layers)
        for (const auto& op : l.ops)
            if (op.kind == OpKind::Send) flows += op.transfer_count();
    state.counters["flows"] = static_cast<double>(flows);
}

void BM_EstimateResNet50Simba(benchmark::State& state) {
    const Plan& p = resnet_plan();
    for (auto _ : state) benchmark::DoNotOptimize(estimate_plan(simba(), p).latency_ns);
    count_plan(state, p);
}
BENCHMARK(BM_EstimateResNet50Simba)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// The shipped 4x4 packages (organic with HBM on one edge, with diagonal links, on an
/// interposer), uniform mapping, message granularity: fewer chiplets, so fewer flows.
void BM_EstimateResNet50Package(benchmark::State& state, const char* arch_file) {
    const ArchConfig arch = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/" + arch_file);
    const Plan p = map_uniform(arch, zoo_workload("resnet50", 1), 1);
    for (auto _ : state) benchmark::DoNotOptimize(estimate_plan(arch, p).latency_ns);
    count_plan(state, p);
}
BENCHMARK_CAPTURE(BM_EstimateResNet50Package, organic_hbm_edge, "mcm-4x4-organic-hbm-edge.json")
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_EstimateResNet50Package, organic_diagonal, "mcm-4x4-organic-hbm-edge-diagonal.json")
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_EstimateResNet50Package, interposer, "mcm-4x4-interposer-hbm-edge.json")
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_EstimateResNet50Package, mcm_2x2, "mcm-2x2.json")
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

/// The same plan at the packet granularity (a discrete-event schedule of 4-packet groups).
void BM_EstimateResNet50SimbaPackets(benchmark::State& state) {
    const Plan& p = resnet_plan();
    EstimateOptions o;
    o.granularity = Granularity::Packet;
    for (auto _ : state) benchmark::DoNotOptimize(estimate_plan(simba(), p, o).latency_ns);
    state.counters["ops"] = static_cast<double>(p.op_count());
}
BENCHMARK(BM_EstimateResNet50SimbaPackets)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// The floor under BM_Estimate*: every op, dependency and transfer of the plan read once (send
/// side and recv side), with no model at all.
void BM_ReadPlanResNet50Simba(benchmark::State& state) {
    const Plan& p = resnet_plan();
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (const auto& l : p.layers)
            for (const auto& op : l.ops) {
                sum += op.id + op.chiplet;
                for (std::int64_t d : op.deps) sum += d;
                for (const Transfer& t : op.transfers) sum += t.bytes + t.flow + t.peer;
            }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_ReadPlanResNet50Simba)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_MapUniformResNet50Simba(benchmark::State& state) {
    Workload w = zoo_workload("resnet50", 1);
    for (auto _ : state) benchmark::DoNotOptimize(map_uniform(simba(), w, 1).layers.size());
}
BENCHMARK(BM_MapUniformResNet50Simba)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
