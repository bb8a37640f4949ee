#include "mapper/plan_builder/collective_plan.h"

#include "mapper/plan_builder/op_sink.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/plan_builder/transfer_batch.h"

#include <stdexcept>

namespace mcmsim {

namespace {

/// Numbers the collective's ops and flows; it has no DRAM tensors.
class CountingSink final : public OpSink {
public:
    PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) override {
        layer.ops.emplace_back();
        PlanOp& op = layer.ops.back();
        op.id = next_op_++;
        op.chiplet = chiplet;
        op.kind = kind;
        op.deps = std::move(deps);
        return op;
    }
    std::int64_t new_flow() override { return next_flow_++; }
    std::uint64_t dram_address(int, std::int64_t) override { throw std::logic_error("a collective plan has no DRAM tensors"); }

private:
    std::int64_t next_op_ = 0, next_flow_ = 0;
};

}  // namespace

Plan build_collective_plan(const ArchConfig& arch, CollectivePattern pattern, Collective algorithm, std::int64_t bytes, int root,
                           int chunks) {
    const int n = arch.chiplet_count();
    if (bytes < 1) throw std::invalid_argument("build_collective_plan: bytes must be at least 1");
    if (root < 0 || root >= n) throw std::invalid_argument("build_collective_plan: the root lies outside the package");
    if (chunks < 0 || chunks > bytes) throw std::invalid_argument("build_collective_plan: chunks must be 0 to bytes");
    Plan plan;
    plan.arch = arch.name;
    plan.workload = to_string(pattern);
    plan.optimizer = to_string(algorithm);
    plan.chiplets = n;
    plan.memories = static_cast<int>(arch.memories.size());
    plan.layers.emplace_back();
    PlanLayer& layer = plan.layers.back();
    layer.name = to_string(pattern);
    TransferBatch batch(arch.package, arch.chiplet.ni_bandwidth_gbps);
    batch.begin_layer(algorithm, ChipletGroup{});
    batch.set_synthesis_chunks(chunks);
    const std::vector<std::int64_t> ready;  // nothing to wait for: the data is there
    const RoutePolicy policy = package_route_policy(arch.package);
    CountingSink sink;
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) all[static_cast<std::size_t>(c)] = c;
    // Reductions: each chiplet's slice reduced onto it; then, for an all-reduce, each summed
    // slice gathered by the others once its sum is made.
    std::vector<std::int64_t> summed;
    if (pattern == CollectivePattern::ReduceScatter || pattern == CollectivePattern::AllReduce) {
        if (n < 2) throw std::invalid_argument("build_collective_plan: a reduction needs two chiplets");
        for (int r = 0; r < n; ++r)
            batch.reduce(r, all, bytes, {}, 1.0 / static_cast<double>(kPartialSumBytes), "reduce slice " + std::to_string(r));
        batch.flush(layer, policy, sink);
        summed = batch.reduced();
        if (pattern == CollectivePattern::ReduceScatter) {
            validate_plan(plan, "collective");
            return plan;
        }
    }
    std::vector<int> dests;
    for (int r = 0; r < n; ++r) {
        if (pattern == CollectivePattern::Broadcast && r != root) continue;
        dests.clear();
        for (int d = 0; d < n; ++d)
            if (d != r) dests.push_back(d);
        if (dests.empty()) continue;
        const std::vector<std::int64_t> after =
            summed.empty() ? ready : std::vector<std::int64_t>{summed[static_cast<std::size_t>(r)]};
        if (dests.size() == 1) batch.transfer(r, dests.front(), bytes, after);
        else batch.multicast(r, dests, bytes, after);
    }
    batch.flush(layer, policy, sink);
    validate_plan(plan, "collective");
    return plan;
}

}  // namespace mcmsim
