#include "traces/plan/plan_routes.h"

#include "hw/common/input_error.h"

namespace mcmsim {

int link_between(const MeshTopology& topo, int a, int b) {
    if (a < 0 || a >= topo.routers()) return -1;
    for (int p = 0; p < kMeshPorts; ++p)
        if (topo.neighbor(a, static_cast<Port>(p)) == b) return MeshTopology::link_id(a, static_cast<Port>(p));
    return -1;
}

void validate_plan_routes(const Plan& plan, const MeshTopology& topo, const std::string& file) {
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const auto& ops = plan.layers[l].ops;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const PlanOp& op = ops[i];
            if (op.kind != OpKind::Send) continue;
            for (std::size_t t = 0; t < op.transfer_count(); ++t) {
                const TransferRef x = op.transfer(t);
                if (!x.route) continue;
                const std::vector<int>& route = *x.route;
                std::string where = "/layers/" + std::to_string(l) + "/ops/" + std::to_string(i) +
                                    (op.transfers.empty() ? "" : "/transfers/" + std::to_string(t)) + "/route";
                const std::string who = "op " + std::to_string(op.id) + " (flow " + std::to_string(x.flow) + ")";
                if (route.front() != op.chiplet)
                    throw InputError(file, where + "/0", "the sender's router " + std::to_string(op.chiplet),
                                     who + " starting at router " + std::to_string(route.front()));
                if (route.back() != x.peer)
                    throw InputError(file, where + "/" + std::to_string(route.size() - 1),
                                     "the receiver's router " + std::to_string(x.peer),
                                     who + " ending at router " + std::to_string(route.back()));
                for (std::size_t h = 1; h < route.size(); ++h)
                    if (link_between(topo, route[h - 1], route[h]) < 0)
                        throw InputError(file, where + "/" + std::to_string(h),
                                         "a neighbour of router " + std::to_string(route[h - 1]) + " in the " +
                                             std::to_string(topo.rows()) + "x" + std::to_string(topo.cols()) + " package",
                                         who + " stepping to router " + std::to_string(route[h]));
            }
        }
    }
}

}  // namespace mcmsim
