#include "mapper/optimize/problem.h"

#include "mapper/mapping/input_need.h"
#include "mapper/model/analytical_model.h"
#include "mapper/plan_builder/plan_builder.h"

#include <algorithm>

namespace mcmsim {

std::vector<std::pair<int, int>> Problem::segments(int option) const {
    const PartitionOption& o = space_.partitions[option];
    if (o.one_dimensional()) return {{0, rows_ * cols_}};
    return {{0, rows_}, {rows_, rows_ + cols_}};
}

AnalyticalProblem::AnalyticalProblem(const ArchConfig& arch, const Workload& w, MappingSpace space)
    : Problem(std::move(space), w.layers.size(), arch.package.rows, arch.package.cols), arch_(arch), w_(w) {
    network_input_ = network_input_layers(w);
}

std::vector<bool> network_input_layers(const Workload& w) {
    std::vector<bool> out;
    for (const Layer& L : w.layers) {
        const std::vector<Operand> ops = operands_of(L);
        out.push_back(std::any_of(ops.begin(), ops.end(), [](const Operand& o) { return o.producers.empty(); }));
    }
    return out;
}

Score AnalyticalProblem::evaluate(const Genome& g) const {
    Mapping m = to_mapping(space(), g, w_, rows(), cols());
    Estimate e = estimate_plan(arch_, build_plan(arch_, w_, m));
    return Score{e.latency_ns, e.ledger.total_pj()};
}

}  // namespace mcmsim
