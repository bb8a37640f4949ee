#pragma once
// The one OpSink of a plan build: numbers the plan's ops and flows in the order they are made
// and lays out each memory (mapper/plan_builder/dram_addresses.h), so that every unit of the
// builder that makes ops draws from the same sequences. Pure C++.
#include "mapper/plan_builder/dram_addresses.h"
#include "mapper/plan_builder/op_sink.h"
#include "traces/plan/plan.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace mcmsim {

/// Thrown when a plan under construction passes Plan::kMaxEntries ops plus transfers; the
/// builder turns it into an input error naming the package.
struct PlanTooLarge {};

class OpNumbering final : public OpSink {
public:
    explicit OpNumbering(int memories) : addresses_(memories) {}

    PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) override {
        count_entry();
        if (deps.size() > 1) {
            std::sort(deps.begin(), deps.end());
            deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        }
        PlanOp& op = layer.ops.emplace_back();  // made in place: an op record is large
        op.id = next_id_++;
        op.chiplet = chiplet;
        op.kind = kind;
        op.deps = std::move(deps);
        return op;
    }
    std::int64_t new_flow() override {
        count_entry();
        return next_flow_++;
    }
    std::uint64_t dram_address(int memory, std::int64_t bytes) override { return addresses_.take(memory, bytes); }

private:
    // Checked as the plan grows, so that memory never holds more than the limit allows.
    void count_entry() {
        if (next_id_ + next_flow_ >= Plan::kMaxEntries) throw PlanTooLarge{};
    }

    std::int64_t next_id_ = 0, next_flow_ = 0;
    DramAddresses addresses_;
};

}  // namespace mcmsim
