#include "traces/plan_index.h"

namespace mcmsim {

PlanIndex::PlanIndex(const Plan& plan) {
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        for (const PlanOp& op : plan.layers[l].ops) {
            std::size_t i = ops.size();
            ops.push_back(&op);
            layer_of.push_back(static_cast<int>(l));
            index_of_id.emplace(op.id, i);
            if (op.kind == OpKind::Send) send_of_flow.emplace(op.flow, i);
            if (op.kind == OpKind::Recv) recv_of_flow.emplace(op.flow, i);
        }
    }
}

}  // namespace mcmsim
