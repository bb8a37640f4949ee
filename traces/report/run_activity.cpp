#include "traces/report/run_activity.h"

#include "hw/config/package_config.h"
#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mcmsim {

namespace {

/// A link or memory serving what reaches it first come, first served at its bandwidth: each
/// movement holds it from max(its start, the end of the one before) for bytes / bandwidth.
/// `busy_ns` accumulates the busy time per bin of width `dt`, so no bin exceeds the bandwidth.
struct FluidServer {
    double gbps = 1, free_ns = 0;
    std::vector<double> busy_ns;

    void serve(double start, double bytes, double dt) {
        if (bytes <= 0 || !(dt > 0) || busy_ns.empty()) return;
        const double a = std::max(start, free_ns), b = a + bytes / gbps;
        free_ns = b;
        const auto n = static_cast<double>(busy_ns.size());
        for (auto i = static_cast<std::size_t>(std::clamp(a / dt, 0.0, n)); i < busy_ns.size(); ++i) {
            const double lo = std::max(a, static_cast<double>(i) * dt), hi = std::min(b, static_cast<double>(i + 1) * dt);
            if (hi <= lo) break;
            busy_ns[i] += hi - lo;
        }
    }
};

/// The links a transfer or DRAM access crosses, and its window.
struct Movement {
    std::vector<int> links;
    double bytes, start;
    int memory = -1;  ///< a DRAM access: its memory
};

class Collector {
public:
    Collector(const ArchConfig& arch, const PlanIndex& index, const std::vector<OpTimes>& times)
        : arch_(arch), index_(index), times_(times), topo_(MeshTopology::of_package(arch.package)) {}

    const MeshTopology& topology() const { return topo_; }

    int memory_router(int m) const {
        const MemoryConfig& mem = arch_.memories[static_cast<std::size_t>(m)];
        return topo_.id(mem.attach_row, mem.attach_col);
    }

    template <typename Visit>
    void each_movement(Visit visit) const {
        for (std::size_t i = 0; i < index_.size(); ++i) {
            const PlanOp& op = *index_.ops[i];
            const OpTimes& t = times_[i];
            if (!t.done()) continue;
            if (op.kind == OpKind::Send) {
                for (std::size_t k = 0; k < op.transfer_count(); ++k) {
                    const TransferRef tr = op.transfer(k);
                    visit(Movement{tr.route ? topo_.route_links(*tr.route) : topo_.path_links(op.chiplet, tr.peer),
                                   static_cast<double>(tr.bytes), t.start_ns});
                }
            } else if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) {
                const int mem = memory_router(op.memory);
                const bool read = op.kind == OpKind::DramRead;
                visit(Movement{read ? topo_.path_links(mem, op.chiplet) : topo_.path_links(op.chiplet, mem),
                               static_cast<double>(op.bytes), t.start_ns, op.memory});
            }
        }
    }

private:
    const ArchConfig& arch_;
    const PlanIndex& index_;
    const std::vector<OpTimes>& times_;
    MeshTopology topo_;
};

nlohmann::json chiplet_activity(const ArchConfig& arch, const PlanIndex& index, const std::vector<OpTimes>& times,
                                double latency_ns) {
    const auto n = static_cast<std::size_t>(arch.chiplet_count());
    std::vector<std::int64_t> macs(n, 0);
    std::vector<double> busy(n, 0.0);
    for (std::size_t i = 0; i < index.size(); ++i) {
        const PlanOp& op = *index.ops[i];
        if (op.kind != OpKind::Compute || !times[i].done() || static_cast<std::size_t>(op.chiplet) >= n) continue;
        macs[static_cast<std::size_t>(op.chiplet)] += op.macs;
        busy[static_cast<std::size_t>(op.chiplet)] += times[i].end_ns - times[i].start_ns;
    }
    const double peak = arch.chiplet.peak_macs_per_ns();
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t c = 0; c < n; ++c)
        out.push_back({{"chiplet", c},
                       {"macs", macs[c]},
                       {"compute_busy_ns", busy[c]},
                       {"mac_utilization", latency_ns > 0 ? static_cast<double>(macs[c]) / (peak * latency_ns) : 0.0}});
    return out;
}

}  // namespace

nlohmann::json run_activity(const ArchConfig& arch, const PlanIndex& index, const std::vector<OpTimes>& times, double latency_ns,
                            const ActivityOptions& options) {
    Collector col(arch, index, times);
    const MeshTopology& topo = col.topology();
    const auto slots = static_cast<std::size_t>(topo.link_slots());
    const auto bins = static_cast<std::size_t>(std::max(1, options.bins));
    const double dt = latency_ns > 0 ? latency_ns / static_cast<double>(bins) : 0.0;

    // Movements in order of their start (ties in plan order).
    std::vector<Movement> moves;
    col.each_movement([&](Movement m) { moves.push_back(std::move(m)); });
    std::stable_sort(moves.begin(), moves.end(), [](const Movement& a, const Movement& b) { return a.start < b.start; });
    std::vector<double> link_bytes(slots, 0.0);
    for (const Movement& m : moves)
        for (int l : m.links) link_bytes[static_cast<std::size_t>(l)] += m.bytes;

    // The busiest links, ties by id, get a timeline; so does every memory.
    std::vector<std::size_t> order(slots);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return link_bytes[a] > link_bytes[b]; });
    std::vector<std::size_t> drawn;
    for (std::size_t k = 0; k < order.size() && drawn.size() < static_cast<std::size_t>(options.timeline_links); ++k)
        if (link_bytes[order[k]] > 0) drawn.push_back(order[k]);
    std::vector<int> drawn_at(slots, -1);
    for (std::size_t k = 0; k < drawn.size(); ++k) drawn_at[drawn[k]] = static_cast<int>(k);
    std::vector<FluidServer> link_servers;
    for (std::size_t l : drawn)
        link_servers.push_back(
            FluidServer{d2d_hop_gbps(arch.package, topo.link_class(static_cast<int>(l))), 0, std::vector<double>(bins, 0.0)});
    std::vector<FluidServer> mem_servers;
    for (const MemoryConfig& m : arch.memories)
        mem_servers.push_back(FluidServer{m.dram.bandwidth_gbps(), 0, std::vector<double>(bins, 0.0)});
    for (const Movement& m : moves) {
        for (int l : m.links)
            if (const int k = drawn_at[static_cast<std::size_t>(l)]; k >= 0)
                link_servers[static_cast<std::size_t>(k)].serve(m.start, m.bytes, dt);
        if (m.memory >= 0 && static_cast<std::size_t>(m.memory) < mem_servers.size())
            mem_servers[static_cast<std::size_t>(m.memory)].serve(m.start, m.bytes, dt);
    }

    // Busy time per bin over the bin width is the busy fraction; times the bandwidth, GB/s.
    nlohmann::json links = nlohmann::json::array();
    for (std::size_t l = 0; l < slots; ++l)
        if (link_bytes[l] > 0)
            links.push_back(
                {{"name", topo.link_account(static_cast<int>(l))},
                 {"bytes", link_bytes[l]},
                 {"busy_fraction",
                  latency_ns > 0 ? link_bytes[l] / d2d_hop_gbps(arch.package, topo.link_class(static_cast<int>(l))) / latency_ns
                                 : 0.0}});
    nlohmann::json tl_links = nlohmann::json::array();
    for (std::size_t k = 0; k < drawn.size(); ++k) {
        nlohmann::json u = nlohmann::json::array();
        for (double b : link_servers[k].busy_ns) u.push_back(dt > 0 ? b / dt : 0.0);
        tl_links.push_back({{"name", topo.link_account(static_cast<int>(drawn[k]))}, {"utilization", u}});
    }
    nlohmann::json tl_mems = nlohmann::json::array();
    for (std::size_t m = 0; m < mem_servers.size(); ++m) {
        nlohmann::json g = nlohmann::json::array();
        for (double b : mem_servers[m].busy_ns) g.push_back(dt > 0 ? b / dt * mem_servers[m].gbps : 0.0);
        tl_mems.push_back({{"name", arch.memories[m].name}, {"gbps", g}});
    }
    return {{"chiplets", chiplet_activity(arch, index, times, latency_ns)},
            {"links", links},
            {"link_gbps", d2d_hop_gbps(arch.package)},
            {"timeline", {{"bin_ns", dt}, {"bins", bins}, {"memories", tl_mems}, {"links", tl_links}}}};
}

}  // namespace mcmsim
