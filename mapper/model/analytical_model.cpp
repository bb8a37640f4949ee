#include "mapper/model/analytical_model.h"

#include "hw/common/input_error.h"
#include "mapper/model/estimator.h"

#include <cmath>

namespace mcmsim::estimator {

void Estimator::index_plan() {
    std::size_t n = 0;
    for (const PlanLayer& l : plan_.layers) n += l.ops.size();
    ws_.ids.prepare(n);
    // Flow ids are 0, 1, 2, ... in mapper plans, a few per op: a bound well above that keeps
    // them in the flat table, and a sparse hand-written plan's memory in check.
    ws_.receivers.start(std::max<std::size_t>(64 * n, std::size_t{1} << 20));
    ws_.drams.clear();
    grow_to(ws_.sched, n);
    grow_to(ws_.cost, n);
    grow_to(ws_.first_succ, n);
    ws_.edges.clear();
    ops_ = n;
}

void Estimator::price_all() {
    std::size_t i = 0;
    for (std::size_t layer = 0; layer < plan_.layers.size(); ++layer) {
        layer_acc_ = &est_.ledger.layer_account(layer);
        const std::vector<PlanOp>& ops = plan_.layers[layer].ops;
        for (std::size_t k = 0; k < ops.size(); ++k, ++i) {
            const PlanOp& op = ops[k];
            if (k + 1 < ops.size()) prefetch_lists(ops[k + 1]);
            ws_.ids.insert(op.id, i);
            ws_.cost[i] = OpCost{0.0, 0, 0, op.chiplet, op.kind};
            OpSchedule& sc = ws_.sched[i];
            sc.ready = sc.arrival = 0.0;
            sc.pending = static_cast<int>(op.deps.size());
            ws_.first_succ[i] = kNoEdge;
            for (std::int64_t d : op.deps) {
                const std::size_t j = ws_.ids.find(d);
                if (j == KeyIndex::kNone)
                    throw std::out_of_range("analytical model: no op " + std::to_string(d) + " (validate_plan)");
                std::uint32_t& first = ws_.first_succ[j];
                ws_.edges.push_back(SuccEdge{static_cast<std::uint32_t>(i), first});
                first = static_cast<std::uint32_t>(ws_.edges.size() - 1);
            }
            price(i, op);
        }
        finish_layer(layer);
    }
    ws_.receivers.finish();
}

void Estimator::price(std::size_t i, const PlanOp& op) {
    OpCost& c = ws_.cost[i];
    switch (op.kind) {
        case OpKind::Compute: {
            // The chiplet model's own cost function: same cycles, same energy.
            const TileCost& cost = ws_.tiles.cost(op);
            auto& chip = chiplet_pj_[at(op.chiplet)];
            chip[static_cast<int>(EnergyCategory::Compute)] += cost.compute_pj;
            chip[static_cast<int>(EnergyCategory::Sram)] += cost.sram_pj;
            layer_acc_->add(EnergyCategory::Compute, cost.compute_pj);
            layer_acc_->add(EnergyCategory::Sram, cost.sram_pj);
            c.own_ns = cost.ns;
            return;
        }
        case OpKind::Recv:
            ws_.sched[i].pending += static_cast<int>(op.transfer_count());  // released by its flows
            if (op.transfers.empty()) ws_.receivers.receive(op.flow, static_cast<std::uint32_t>(i));
            else
                ws_.receivers.receive_all(op.transfers.data(), op.transfers.data() + op.transfers.size(),
                                          static_cast<std::uint32_t>(i));
            return;
        case OpKind::Send:
            price_send(c, op);
            return;
        case OpKind::DramRead:
        case OpKind::DramWrite: {
            const bool read = op.kind == OpKind::DramRead;
            const auto m = at(op.memory);
            const auto& mem = arch_.memories[m];
            const std::int64_t data = mc_.wire_bytes(op.bytes);
            const std::int64_t control = mc_.packets(op.bytes) * mc_.control_wire_bytes();
            const int there = n_ + op.memory;
            carry(op.chiplet, there, read ? control : data);
            carry(there, op.chiplet, read ? data : control);
            double pj = static_cast<double>(op.bytes) * 8.0 * stream_pj_[m][read ? 1 : 0];
            dram_pj_[m] += pj;
            layer_acc_->add(EnergyCategory::Dram, pj);
            dram_total_[m] += op.bytes;
            DramCost d;
            d.read = read;
            d.memory = op.memory;
            d.access_ns = mem.dram.access_latency_ns;
            d.memory_ns = static_cast<double>(op.bytes) / mem.dram.bandwidth_gbps();
            d.wire = static_cast<double>(data);
            if (read) {
                d.request_ns = pp_.head_control_ns(pair(op.chiplet, there));
                d.reply_ns = 0;
                d.path = static_cast<int>(pair(there, op.chiplet));
                d.back = static_cast<int>(pair(op.chiplet, there));
            } else {
                d.request_ns = pp_.head_flit_ns(pair(op.chiplet, there));
                d.reply_ns = pp_.head_control_ns(pair(there, op.chiplet));
                d.path = static_cast<int>(pair(op.chiplet, there));
                d.back = static_cast<int>(pair(there, op.chiplet));
            }
            c.flows_begin = static_cast<std::uint32_t>(ws_.drams.size());
            ws_.drams.push_back(d);
            return;
        }
    }
}

void Estimator::price_send(OpCost& c, const PlanOp& op) {
    if (static_cast<unsigned>(op.chiplet) >= static_cast<unsigned>(n_))
        throw std::logic_error("analytical model: send on no chiplet (validate_plan)");
    c.flows_begin = static_cast<std::uint32_t>(flow_count_);
    grow_to(ws_.flows, flow_count_ + op.transfer_count());
    if (op.transfers.empty()) {
        const Transfer single{op.peer, op.bytes, op.flow, op.route};
        price_flows(c, &single, &single + 1);
    } else price_flows(c, op.transfers.data(), op.transfers.data() + op.transfers.size());
    c.flows_end = static_cast<std::uint32_t>(flow_count_);
}

void Estimator::price_flows(OpCost& c, const Transfer* begin, const Transfer* end) {
    const int a = c.chiplet;
    std::int64_t* load = load_.data();
    // Chiplet peers: ejection link ni_out(peer), router peer.
    std::int64_t* eject = &load[at(links_.ni_out(0))];
    std::int64_t* into = &inbound_[at(pp_.router_of(a))];  // + peer router * routers
    const std::size_t stride = at(routers_);
    const int row = a * nodes_;
    const auto chiplets = static_cast<unsigned>(n_);
    FlowCost* const flows = ws_.flows.data();
    FlowCost* out = flows + flow_count_;
    FlowReceivers& receivers = ws_.receivers;
    const std::size_t dense = receivers.dense_limit();
    std::int64_t injected = 0;  // on the package's routes (source routes book their own)
    std::int64_t bytes = last_bytes_, wire = last_wire_;
    for (const Transfer* t = begin; t != end;) {
        // A grouped send mostly repeats one size: split it into packets once.
        if (t->bytes != bytes) {
            bytes = t->bytes;
            wire = mc_.wire_bytes(bytes);
        }
        const double wire_d = static_cast<double>(wire);
        for (; t != end && t->bytes == bytes && t->route.empty() && static_cast<unsigned>(t->peer) < chiplets &&
               static_cast<std::uint64_t>(t->flow) < dense;
             ++t, ++out) {
            const int peer = t->peer;
            out->wire = wire_d;
            out->slot = static_cast<std::uint32_t>(t->flow);  // FlowReceivers::slot_of
            out->path = row + peer;
            eject[peer] += wire;
            into[at(peer) * stride] += wire;
            injected += wire;
        }
        if (t == end || t->bytes != bytes) continue;
        // The others one by one: a source route, a sparse flow id, a peer that is no chiplet.
        const int peer = t->peer;
        if (static_cast<unsigned>(peer) >= chiplets)
            throw std::logic_error("analytical model: flow " + std::to_string(t->flow) + " has no destination (validate_plan)");
        out->wire = wire_d;
        out->slot = receivers.slot_of(t->flow);
        if (t->route.empty()) {
            out->path = row + peer;
            eject[peer] += wire;
            into[at(peer) * stride] += wire;
            injected += wire;
        } else {
            out->path = static_cast<int>(pp_.pair_count() + routed_count_++);
            book_routed(a, peer, t->route, wire);
        }
        ++t;
        ++out;
    }
    last_bytes_ = bytes;
    last_wire_ = wire;
    flow_count_ = static_cast<std::size_t>(out - flows);
    load[at(pp_.inject(a))] += injected;
}

void Estimator::book_routed(int src, int dst, const std::vector<int>& route, std::int64_t wire) {
    route_steps_.clear();
    StepWriter steps(route_steps_, flit_terms_, ns_per_byte_, 0.0);
    auto add = [&](int l, bool after_router) {
        steps.add(l, after_router);
        load_[at(l)] += wire;
    };
    add(links_.ni_in(src), false);
    steps.cross_switch(pp_.switch_ns_per_byte(src, route.size() > 1 ? link_between(mc_.topology(), route[0], route[1]) : -1));
    for (std::size_t h = 1; h < route.size(); ++h) {
        int l = link_between(mc_.topology(), route[h - 1], route[h]);
        if (l < 0)
            throw std::logic_error("analytical model: route steps from router " + std::to_string(route[h - 1]) +
                                   " to non-neighbour " + std::to_string(route[h]) + " (validate_plan_routes)");
        add(l, true);
    }
    steps.add_ejection(links_.ni_out(dst));
    load_[at(links_.ni_out(dst))] += wire;
    // Its head latency: the head's time to the last step, plus that step's hop.
    routed_.add(route_steps_, steps.z());
    // Routers count what their incoming links carry (book_energy), the injection link
    // as entering the sender's router: where a route must start (validate_plan_routes).
    // Should it start elsewhere, its first router is the one that sees the bytes.
    router_wire_[at(route.front())] += wire;
    router_wire_[at(pp_.router_of(src))] -= wire;
}

void Estimator::finish_layer(std::size_t layer) {
    const auto routers = at(routers_);
    for (std::size_t d = 0; d < routers; ++d) trees_.drain(static_cast<int>(d), &inbound_[d * routers], load_.data());
    // Router visits: a message visits one router per mesh link it crosses plus the one it
    // leaves by: one per link it takes but its injection link.
    std::int64_t visits = 0;
    for (int v = 0; v < nodes_; ++v) visits -= load_[at(pp_.inject(v))];
    double worst = 0, d2d = 0;
    int worst_link = -1;
    for (std::size_t l = 0; l < links_n_; ++l) {
        const std::int64_t bytes = load_[l];
        if (bytes == 0) continue;  // most of a layer's links (and the mesh's empty slots): no bottleneck, + 0.0 pJ
        visits += bytes;
        link_wire_[l] += bytes;
        load_[l] = 0;
        const double load = static_cast<double>(bytes);
        const double t = load / links_.bandwidth_gbps[l];
        if (t > worst) {
            worst = t;
            worst_link = static_cast<int>(l);
        }
        if (links_.is_d2d[l]) d2d += load * 8.0 * links_.energy_pj_per_bit[l];
    }
    worst_ns_[layer] = worst;
    worst_link_[layer] = worst_link;
    // Every message is whole flits, so the bytes' flits are the flits x routers visited.
    layer_acc_->add(EnergyCategory::Noc,
                    static_cast<double>(mc_.format().flits(visits)) * arch_.package.router.energy_pj_per_flit);
    layer_acc_->add(EnergyCategory::D2d, d2d);
}

void Estimator::book_energy() {
    const MeshTopology& topo = mc_.topology();
    const double flit_pj = arch_.package.router.energy_pj_per_flit;
    // Bytes through each router: every message visits the router each of its links leads
    // into (its injection link leads into its first router, a mesh link into the next), and
    // no other, so the links' totals give the routers' (integers: exact in any order).
    const int* enters = pp_.router_entered();
    for (std::size_t l = 0; l < links_n_; ++l)
        if (enters[l] >= 0) router_wire_[at(enters[l])] += link_wire_[l];
    const PackagePaths::Names& names = pp_.names();
    est_.ledger.accounts_in_order(names.sorted, accounts_);
    for (int r = 0; r < topo.routers(); ++r)
        accounts_[names.router_at[at(r)]]->add(EnergyCategory::Noc,
                                               static_cast<double>(mc_.format().flits(router_wire_[at(r)])) * flit_pj);
    std::vector<EnergyAccount*> link_acc(static_cast<std::size_t>(links_.count()), nullptr);
    for (int l = 0; l < links_.mesh_slots; ++l) link_acc[static_cast<std::size_t>(l)] = accounts_[names.link_at[at(l)]];
    for (int m = 0; m < links_.memories; ++m) {
        EnergyAccount* phy = accounts_[names.phy_at[at(m)]];
        link_acc[static_cast<std::size_t>(links_.phy_to_noc(m))] = link_acc[static_cast<std::size_t>(links_.phy_from_noc(m))] =
            phy;
    }
    for (std::size_t l = 0; l < link_wire_.size(); ++l)
        if (links_.is_d2d[l] && link_wire_[l] > 0)
            link_acc[l]->add(EnergyCategory::D2d, static_cast<double>(link_wire_[l]) * 8.0 * links_.energy_pj_per_bit[l]);
    for (int c = 0; c < n_; ++c) {
        EnergyAccount& acc = *accounts_[names.chiplet_at[at(c)]];
        for (EnergyCategory cat : {EnergyCategory::Compute, EnergyCategory::Sram})
            acc.add(cat, chiplet_pj_[static_cast<std::size_t>(c)][static_cast<int>(cat)]);
    }
    for (int m = 0; m < links_.memories; ++m)
        accounts_[names.dram_at[at(m)]]->add(EnergyCategory::Dram, dram_pj_[static_cast<std::size_t>(m)]);
}

void Estimator::book_static_energy() {
    const double t = est_.latency_ns;
    for (int c = 0; c < links_.chiplets; ++c)
        accounts_[pp_.names().chiplet_at[at(c)]]->add(EnergyCategory::Leakage, leakage_energy_pj(arch_.chiplet, t));
    for (std::size_t m = 0; m < arch_.memories.size(); ++m) {
        const DramConfig& d = arch_.memories[m].dram;
        // Rows stay open while the device is busy (open page) and refresh closes them, so
        // the device is active for about the share of the run its transfers take.
        const double bytes = static_cast<double>(dram_total_[m]);
        double active = t > 0 ? bytes / d.bandwidth_gbps() / t : 0.0;
        accounts_[pp_.names().dram_at[m]]->add(EnergyCategory::Dram, dram_background_mw(d, active) * t + dram_refresh_pj(d, t));
    }
}

void Estimator::layer_stats() {
    nlohmann::json layers = nlohmann::json::array();
    layers.get_ref<nlohmann::json::array_t&>().reserve(plan_.layers.size());
    const std::vector<std::string>& link_names = pp_.names().any_link;
    for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
        nlohmann::json& layer = layers.emplace_back(nlohmann::json::object());
        layer["name"] = plan_.layers[l].name;
        layer["bottleneck_link"] = worst_link_[l] < 0 ? std::string() : link_names[at(worst_link_[l])];
        layer["bottleneck_ns"] = worst_ns_[l];
    }
    est_.stats = nlohmann::json::object();
    est_.stats["layers"] = std::move(layers);
}

const PathRef* Estimator::path_table() {
    if (routed_count_ == 0) return pp_.paths();
    all_paths_.assign(pp_.paths(), pp_.paths() + pp_.pair_count());
    all_paths_.insert(all_paths_.end(), routed_.refs(), routed_.refs() + routed_count_);
    return all_paths_.data();
}

Estimator::ScheduleStart Estimator::start_schedule() {
    const std::size_t n = ops_;
    ReadyQueue& pq = ws_.ready;
    pq.clear();
    pq.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (ws_.sched[i].pending == 0) pq.push(0.0, static_cast<std::uint32_t>(i));
    link_free_.assign(links_n_, 0.0);
    memory_free_.assign(arch_.memories.size(), 0.0);
    est_.ops.resize(n);
    return ScheduleStart{ws_.cost.data(),      ws_.sched.data(),
                         ws_.flows.data(),     ws_.first_succ.data(),
                         ws_.edges.data(),     PathTables{path_table()},
                         ws_.receivers.view(), std::vector<double>(at(std::max(plan_.chiplets, 0)), 0.0),
                         link_free_.data(),    est_.ops.data()};
}

void Estimator::finish_schedule(std::size_t done) {
    if (done != ops_) throw std::logic_error("analytical model: plan has ops that can never run");
    for (const auto& o : est_.ops) est_.latency_ns = std::max(est_.latency_ns, o.end_ns);
}

}  // namespace mcmsim::estimator

namespace mcmsim {

using estimator::Estimator;
using estimator::Workspace;

Estimate estimate_plan(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options) {
    if (options.packets_per_event < 1)
        throw std::invalid_argument("analytical model: packets_per_event must be >= 1, not " +
                                    std::to_string(options.packets_per_event));
    thread_local Workspace workspace;
    return Estimator(arch, plan, options, workspace).run();
}

}  // namespace mcmsim
