#include "mapper/analytical_model.h"

#include "hw/compute/compute_cost.h"
#include "mapper/message_cost.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>

namespace mcmsim {

namespace {

/// What the model needs to know about one op before scheduling.
struct OpCost {
    double fixed_ns = 0;     ///< zero-load latencies along the way (and DRAM access)
    double own_ns = 0;       ///< the op's own bytes through its network interface
    std::vector<int> links;  ///< links whose per-layer load can hold the transfer back
    int memory = -1;         ///< DRAM whose per-layer load can hold it back
};

class Estimator {
public:
    Estimator(const ArchConfig& arch, const Plan& plan)
        : arch_(arch), plan_(plan), idx_(plan), mc_(arch), links_(mc_.links()),
          load_(plan.layers.size(), std::vector<double>(static_cast<std::size_t>(links_.count()), 0.0)),
          dram_load_(plan.layers.size(), std::vector<double>(arch.memories.size(), 0.0)),
          cost_(idx_.size()) {
        const MeshTopology& topo = mc_.topology();
        for (int r = 0; r < topo.routers(); ++r)
            router_acc_.push_back(&est_.ledger.account("router_" + std::to_string(topo.row_of(r)) + "_" +
                                                       std::to_string(topo.col_of(r))));
        link_acc_.assign(static_cast<std::size_t>(links_.count()), nullptr);
        for (int l = 0; l < links_.mesh_slots; ++l) link_acc_[l] = &est_.ledger.account("link." + topo.link_name(l));
        for (int m = 0; m < links_.memories; ++m) {
            const std::string& name = arch.memories[static_cast<std::size_t>(m)].name;
            link_acc_[links_.phy_to_noc(m)] = link_acc_[links_.phy_from_noc(m)] = &est_.ledger.account("phy." + name);
            dram_acc_.push_back(&est_.ledger.account("dram." + name));
        }
        for (int c = 0; c < links_.chiplets; ++c) chiplet_acc_.push_back(&est_.ledger.account("chiplet." + std::to_string(c)));
    }

    Estimate run() {
        for (std::size_t i = 0; i < idx_.size(); ++i) price(i);
        schedule();
        book_static_energy();
        layer_stats();
        return std::move(est_);
    }

private:
    /// Books a message's energy and link loads; returns its route.
    MessageCost::Route carry(Endpoint src, Endpoint dst, std::int64_t wire, std::int64_t flits, int layer) {
        MessageCost::Route r = mc_.route(src, dst);
        EnergyAccount& lacc = est_.ledger.layer_account(static_cast<std::size_t>(layer));
        for (int l : r.links) {
            auto li = static_cast<std::size_t>(l);
            load_[static_cast<std::size_t>(layer)][li] += static_cast<double>(wire);
            if (!links_.is_d2d[li]) continue;
            double pj = static_cast<double>(wire) * 8.0 * links_.energy_pj_per_bit[li];
            link_acc_[li]->add(EnergyCategory::D2d, pj);
            lacc.add(EnergyCategory::D2d, pj);
        }
        int a = src.memory ? memory_router(src.index) : src.index;
        int b = dst.memory ? memory_router(dst.index) : dst.index;
        double pj = static_cast<double>(flits) * arch_.package.router.energy_pj_per_flit;
        for (int router : mc_.topology().path(a, b)) {
            router_acc_[static_cast<std::size_t>(router)]->add(EnergyCategory::Noc, pj);
            lacc.add(EnergyCategory::Noc, pj);
        }
        return r;
    }

    int memory_router(int m) const {
        const auto& mc = arch_.memories[static_cast<std::size_t>(m)];
        return mc_.topology().id(mc.attach_row, mc.attach_col);
    }

    void price(std::size_t i) {
        const PlanOp& op = *idx_.ops[i];
        const int layer = idx_.layer_of[i];
        EnergyAccount& lacc = est_.ledger.layer_account(static_cast<std::size_t>(layer));
        OpCost& c = cost_[i];
        const std::int64_t flit = arch_.package.router.flit_bytes;
        const double ni_bw = arch_.chiplet.ni_bandwidth_gbps;
        Endpoint me{false, op.chiplet};
        switch (op.kind) {
            case OpKind::Compute: {
                // The chiplet model's own cost function: same cycles, same energy.
                const ComputeCost cost = compute_cost(arch_.chiplet, op);
                double mac = cost.compute_energy_pj();
                double sram = cost.sram_energy_pj;
                chiplet_acc_[static_cast<std::size_t>(op.chiplet)]->add(EnergyCategory::Compute, mac);
                chiplet_acc_[static_cast<std::size_t>(op.chiplet)]->add(EnergyCategory::Sram, sram);
                lacc.add(EnergyCategory::Compute, mac);
                lacc.add(EnergyCategory::Sram, sram);
                c.own_ns = static_cast<double>(cycles_to_ps(arch_.chiplet, cost.cycles)) / 1000.0;
                return;
            }
            case OpKind::Recv: return;  // priced with its send
            case OpKind::Send: {
                std::int64_t wire = mc_.wire_bytes(op.bytes);
                auto r = carry(me, Endpoint{false, op.peer}, wire, wire / flit, layer);
                c.fixed_ns = mc_.head_latency_ns(r, flit);
                c.own_ns = static_cast<double>(wire) / ni_bw;
                c.links = r.links;
                return;
            }
            case OpKind::DramRead:
            case OpKind::DramWrite: {
                const bool read = op.kind == OpKind::DramRead;
                const auto& mem = arch_.memories[static_cast<std::size_t>(op.memory)];
                Endpoint dram{true, op.memory};
                std::int64_t data = mc_.wire_bytes(op.bytes);
                std::int64_t control = mc_.packets(op.bytes) * mc_.control_wire_bytes();
                auto there = carry(me, dram, read ? control : data, (read ? control : data) / flit, layer);
                auto back = carry(dram, me, read ? data : control, (read ? data : control) / flit, layer);
                double pj = static_cast<double>(op.bytes) * 8.0 * dram_stream_pj_per_bit(mem.dram, read);
                dram_acc_[static_cast<std::size_t>(op.memory)]->add(EnergyCategory::Dram, pj);
                lacc.add(EnergyCategory::Dram, pj);
                dram_load_[static_cast<std::size_t>(layer)][static_cast<std::size_t>(op.memory)] += static_cast<double>(op.bytes);
                c.fixed_ns = mc_.head_latency_ns(there, mc_.control_wire_bytes()) + mem.dram.access_latency_ns +
                             mc_.head_latency_ns(back, flit);
                c.own_ns = static_cast<double>(data) / ni_bw;
                c.links = read ? back.links : there.links;
                c.memory = op.memory;
                return;
            }
        }
    }

    /// Time for a transfer's bytes to get through: its own NI, and the busiest link or DRAM it
    /// shares with the rest of its layer's traffic.
    double transfer_ns(std::size_t i) const {
        const OpCost& c = cost_[i];
        auto layer = static_cast<std::size_t>(idx_.layer_of[i]);
        double t = c.own_ns;
        for (int l : c.links)
            t = std::max(t, load_[layer][static_cast<std::size_t>(l)] / links_.bandwidth_gbps[static_cast<std::size_t>(l)]);
        if (c.memory >= 0) {
            const auto& d = arch_.memories[static_cast<std::size_t>(c.memory)].dram;
            t = std::max(t, dram_load_[layer][static_cast<std::size_t>(c.memory)] / d.bandwidth_gbps());
        }
        return t;
    }

    void schedule() {
        const std::size_t n = idx_.size();
        std::vector<std::vector<std::size_t>> succ(n);
        std::vector<int> pending(n, 0);
        std::vector<double> ready(n, 0.0), arrival(n, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            const PlanOp& op = *idx_.ops[i];
            for (std::int64_t d : op.deps) succ[idx_.index(d)].push_back(i);
            pending[i] = static_cast<int>(op.deps.size());
            if (op.kind == OpKind::Recv) {
                succ[idx_.send_of_flow.at(op.flow)].push_back(i);
                ++pending[i];
            }
        }
        using Item = std::pair<double, std::size_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
        for (std::size_t i = 0; i < n; ++i)
            if (pending[i] == 0) pq.push({0.0, i});
        std::vector<double> compute_free(static_cast<std::size_t>(std::max(plan_.chiplets, 0)), 0.0);
        est_.ops.assign(n, OpTimes{});
        std::size_t done = 0;
        while (!pq.empty()) {
            auto [t, i] = pq.top();
            pq.pop();
            const PlanOp& op = *idx_.ops[i];
            OpTimes& ot = est_.ops[i];
            double end = t;
            switch (op.kind) {
                case OpKind::Compute: {
                    double& free = compute_free[static_cast<std::size_t>(op.chiplet)];
                    ot.start_ns = std::max(t, free);
                    end = free = ot.start_ns + cost_[i].own_ns;
                    break;
                }
                case OpKind::Send:
                    ot.start_ns = t;
                    end = t + cost_[i].own_ns;
                    arrival[idx_.recv_of_flow.at(op.flow)] = t + cost_[i].fixed_ns + transfer_ns(i);
                    break;
                case OpKind::Recv:
                    ot.start_ns = ready[i];
                    end = std::max(ready[i], arrival[i]);
                    break;
                case OpKind::DramRead:
                case OpKind::DramWrite:
                    ot.start_ns = t;
                    end = t + cost_[i].fixed_ns + transfer_ns(i);
                    break;
            }
            ot.end_ns = end;
            ++done;
            for (std::size_t s : succ[i]) {
                // A recv's own start is set by its dependencies, not by its send.
                if (!(op.kind == OpKind::Send && idx_.ops[s]->kind == OpKind::Recv)) ready[s] = std::max(ready[s], end);
                if (--pending[s] == 0) pq.push({std::max(ready[s], idx_.ops[s]->kind == OpKind::Recv ? arrival[s] : 0.0), s});
            }
        }
        if (done != n) throw std::logic_error("analytical model: plan has ops that can never run");
        for (const auto& o : est_.ops) est_.latency_ns = std::max(est_.latency_ns, o.end_ns);
    }

    /// Energy that accrues with time rather than with work: chiplet leakage and DRAM
    /// background power and refresh over the estimated run.
    void book_static_energy() {
        const double t = est_.latency_ns;
        for (auto* acc : chiplet_acc_) acc->add(EnergyCategory::Leakage, leakage_energy_pj(arch_.chiplet, t));
        for (std::size_t m = 0; m < arch_.memories.size(); ++m) {
            const DramConfig& d = arch_.memories[m].dram;
            // Rows stay open while the device is busy (open page) and refresh closes them, so
            // the device is active for about the share of the run its transfers take.
            double bytes = 0;
            for (const auto& layer : dram_load_) bytes += layer[m];
            double active = t > 0 ? bytes / d.bandwidth_gbps() / t : 0.0;
            dram_acc_[m]->add(EnergyCategory::Dram, dram_background_mw(d, active) * t + dram_refresh_pj(d, t));
        }
    }

    void layer_stats() {
        nlohmann::json layers = nlohmann::json::array();
        const MeshTopology& topo = mc_.topology();
        for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
            double worst = 0;
            int worst_link = -1;
            for (int k = 0; k < links_.count(); ++k) {
                double t = load_[l][static_cast<std::size_t>(k)] / links_.bandwidth_gbps[static_cast<std::size_t>(k)];
                if (t > worst) {
                    worst = t;
                    worst_link = k;
                }
            }
            std::string name = worst_link < 0 ? "" : link_name(worst_link, topo);
            layers.push_back({{"name", plan_.layers[l].name}, {"bottleneck_link", name}, {"bottleneck_ns", worst}});
        }
        est_.stats = {{"layers", layers}};
    }

    std::string link_name(int k, const MeshTopology& topo) const {
        if (k < links_.mesh_slots) return "link." + topo.link_name(k);
        k -= links_.mesh_slots;
        if (k < 2 * links_.chiplets) return "ni." + std::to_string(k % links_.chiplets) + (k < links_.chiplets ? ".in" : ".out");
        k -= 2 * links_.chiplets;
        const std::string& m = arch_.memories[static_cast<std::size_t>(k % links_.memories)].name;
        return "phy." + m + (k < links_.memories ? ".to_noc" : ".from_noc");
    }

    const ArchConfig& arch_;
    const Plan& plan_;
    PlanIndex idx_;
    MessageCost mc_;
    const PackageLinks& links_;
    std::vector<std::vector<double>> load_;       ///< [layer][link] bytes on the wire
    std::vector<std::vector<double>> dram_load_;  ///< [layer][memory] bytes
    std::vector<OpCost> cost_;
    Estimate est_;
    std::vector<EnergyAccount*> router_acc_, link_acc_, dram_acc_, chiplet_acc_;
};

}  // namespace

Estimate estimate_plan(const ArchConfig& arch, const Plan& plan) { return Estimator(arch, plan).run(); }

}  // namespace mcmsim
