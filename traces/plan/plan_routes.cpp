#include "traces/plan/plan_routes.h"

#include "hw/common/input_error.h"

namespace mcmsim {

int link_between(const MeshTopology& topo, int a, int b) {
    if (a < 0 || a >= topo.routers()) return -1;
    const Port p = topo.port_to(a, b);
    return p == Port::Local ? -1 : MeshTopology::link_id(a, p);
}

void validate_plan_routes(const Plan& plan, const MeshTopology& topo, const std::string& file) {
    // Per router, the last route that visited it: no clearing between routes.
    std::vector<std::int64_t> visited(static_cast<std::size_t>(topo.routers()), -1);
    std::int64_t stamp = 0;
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
                // A torus's or a graph's routers route by their own rules, whose VC classes
                // keep them free of deadlock (hw/topology/mesh_topology.h).
                if (topo.kind() == PackageTopology::Torus || topo.kind() == PackageTopology::Graph)
                    throw InputError(file, where,
                                     std::string("no route on a ") + to_string(topo.kind()) + " package (it routes itself)",
                                     who + " with a route");
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
                // A packet that comes back to a router it left only loads links for nothing; a
                // route longer than the package is a loop or a typo.
                ++stamp;
                for (std::size_t h = 0; h < route.size(); ++h) {
                    const auto r = static_cast<std::size_t>(route[h]);
                    if (visited[r] == stamp)
                        throw InputError(file, where + "/" + std::to_string(h), "a route that visits each router once",
                                         who + " back at router " + std::to_string(route[h]));
                    visited[r] = stamp;
                }
            }
        }
    }
}

namespace {

// Longest a compute op may take at the chiplet's peak rate: far beyond any inference layer,
// and far inside what the picosecond clock of a simulation can count over a whole run.
constexpr double kMaxComputeOpNs = 1e12;  // 1000 s simulated

// What a plan moves must exist in the package: a DRAM access lies inside its memory, and no
// transfer carries more than all of the package's memories hold (its bytes come from
// somewhere). Beyond these an evaluator would stream an impossible number of packets. A
// compute op is bounded by its time at the chiplet's peak rate (kMaxComputeOpNs).
void check_plan_sizes(const Plan& plan, const ArchConfig& arch, const std::string& plan_file) {
    const double macs_per_ns = arch.chiplet.peak_macs_per_ns();
    const double vector_per_ns = static_cast<double>(arch.chiplet.vector_lanes) * arch.chiplet.clock_ghz;
    std::uint64_t total = 0;
    for (const MemoryConfig& m : arch.memories) total += static_cast<std::uint64_t>(m.dram.capacity_bytes);
    for (std::size_t l = 0; l < plan.layers.size(); ++l)
        for (std::size_t o = 0; o < plan.layers[l].ops.size(); ++o) {
            const PlanOp& op = plan.layers[l].ops[o];
            const std::string at = "/layers/" + std::to_string(l) + "/ops/" + std::to_string(o);
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) {
                const MemoryConfig& m = arch.memories[static_cast<std::size_t>(op.memory)];
                const auto cap = static_cast<std::uint64_t>(m.dram.capacity_bytes);
                if (op.address >= cap)
                    throw InputError(plan_file, at + "/address",
                                     "an address inside memory " + m.name + " (below " + std::to_string(cap) + ")",
                                     std::to_string(op.address));
                if (static_cast<std::uint64_t>(op.bytes) > cap - op.address)
                    throw InputError(plan_file, at + "/bytes",
                                     "an access that ends inside memory " + m.name + " (" + std::to_string(cap - op.address) +
                                         " bytes from its address at most)",
                                     std::to_string(op.bytes));
            } else if (op.kind == OpKind::Compute) {
                if (static_cast<double>(op.macs) / macs_per_ns > kMaxComputeOpNs)
                    throw InputError(plan_file, at + "/macs",
                                     "at most " + std::to_string(static_cast<long long>(kMaxComputeOpNs * macs_per_ns)) +
                                         " MACs (1000 s at the chiplet's peak rate)",
                                     std::to_string(op.macs));
                if (static_cast<double>(op.vector_ops) / vector_per_ns > kMaxComputeOpNs)
                    throw InputError(plan_file, at + "/vector_ops",
                                     "at most " + std::to_string(static_cast<long long>(kMaxComputeOpNs * vector_per_ns)) +
                                         " element-wise operations (1000 s on the chiplet's vector lanes)",
                                     std::to_string(op.vector_ops));
            } else if ((op.kind == OpKind::Send || op.kind == OpKind::Recv) && static_cast<std::uint64_t>(op.bytes) > total) {
                throw InputError(plan_file, at + "/bytes",
                                 "at most the package's memory capacity (" + std::to_string(total) + " bytes)",
                                 std::to_string(op.bytes));
            }
        }
}

}  // namespace

void check_plan_fits(const Plan& plan, const ArchConfig& arch, const std::string& plan_file) {
    if (plan.chiplets != arch.chiplet_count())
        throw InputError(plan_file, "/chiplets", std::to_string(arch.chiplet_count()) + " chiplets (as " + arch.name + ")",
                         std::to_string(plan.chiplets));
    if (plan.memories != static_cast<int>(arch.memories.size()))
        throw InputError(plan_file, "/memories", std::to_string(arch.memories.size()) + " memories (as " + arch.name + ")",
                         std::to_string(plan.memories));
    validate_plan_routes(plan, MeshTopology::of_package(arch.package), plan_file);
    check_plan_sizes(plan, arch, plan_file);
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        if (!plan.layers[l].mapping) continue;
        const auto& g = plan.layers[l].mapping->group;
        if (g.rows > 0 && (g.row0 + g.rows > arch.package.rows || g.col0 + g.cols > arch.package.cols))
            throw InputError(plan_file, "/layers/" + std::to_string(l) + "/mapping/group",
                             "a chiplet group inside the " + std::to_string(arch.package.rows) + " x " +
                                 std::to_string(arch.package.cols) + " package",
                             "rows " + std::to_string(g.row0) + "+" + std::to_string(g.rows) + ", columns " +
                                 std::to_string(g.col0) + "+" + std::to_string(g.cols));
    }
}

}  // namespace mcmsim
