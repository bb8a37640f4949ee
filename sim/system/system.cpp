#include "sim/system/system.h"

#include "chiplets/chiplet.h"
#include "hw/dram/dram_target.h"
#include "hw/time/sim_time.h"
#include "noc/package_network.h"
#include "sim/system/memory_port.h"
#include "sim/system/watchdog.h"

#include <memory>

namespace mcmsim {

namespace {

class System : public sc_core::sc_module {
public:
    System(sc_core::sc_module_name name, const ArchConfig& arch, const Plan& plan, const SimOptions& opt, EnergyLedger& ledger)
        : sc_core::sc_module(name), index(plan), timing(index.size()), network(make_package_network("network", arch, ledger)) {
        network->set_threads(opt.threads);
        for (int c = 0; c < arch.chiplet_count(); ++c) {
            std::string n = "chiplet_" + std::to_string(c);
            chiplets.push_back(std::make_unique<Chiplet>(n.c_str(), c, arch.chiplet, arch.package.packet_format(), *network,
                                                         ledger, index, timing));
        }
        for (std::size_t m = 0; m < arch.memories.size(); ++m) {
            const MemoryConfig& mc = arch.memories[m];
            std::string pn = "memport_" + mc.name, dn = "dram_" + mc.name;
            ports.push_back(std::make_unique<MemoryPort>(pn.c_str(), static_cast<int>(m), *network));
            drams.push_back(std::make_unique<DramTarget>(dn.c_str(), mc.dram, &ledger.account("dram." + mc.name)));
            ports.back()->socket.bind(drams.back()->socket);
        }
        if (opt.progress) {
            const std::size_t total = index.size(), every = std::max<std::size_t>(1, total / 1000);
            for (auto& c : chiplets)
                c->on_op_finished([this, total, every, report = opt.progress](Tick now) {
                    if (++finished_ % every == 0 || finished_ == total) report(finished_, total, ticks_to_ns(now));
                });
        }
        watchdog = std::make_unique<Watchdog>(
            "watchdog", ns_to_ticks(opt.watchdog_ns), [this] { return ops_done(); }, index.size(), [this] { return pending(); });
    }

    /// Some model still has an event scheduled (a packet in flight, an op finishing later).
    bool pending() const {
        for (const auto& c : chiplets)
            if (c->pending_events() > 0) return true;
        for (const auto& p : ports)
            if (p->pending_events() > 0) return true;
        return !network->busy_routers().empty();
    }

    /// Received flows that got all their bytes.
    std::size_t flows_complete() const {
        std::size_t n = 0;
        for (const auto& c : chiplets) n += c->flows_complete();
        return n;
    }

    std::size_t ops_done() const {
        std::size_t n = 0;
        for (const auto& c : chiplets) n += c->ops_done();
        return n;
    }

    PlanIndex index;
    std::size_t finished_ = 0;  ///< ops finished, counted for the progress report
    std::vector<OpTiming> timing;
    std::unique_ptr<PackageNetwork> network;
    std::vector<std::unique_ptr<Chiplet>> chiplets;
    std::vector<std::unique_ptr<MemoryPort>> ports;
    std::vector<std::unique_ptr<DramTarget>> drams;
    std::unique_ptr<Watchdog> watchdog;
};

/// Bytes the plan says must move, by kind, to compare with what the models moved.
struct PlannedBytes {
    std::int64_t sent = 0, received = 0, dram_read = 0, dram_written = 0;
};

PlannedBytes planned_bytes(const Plan& plan) {
    PlannedBytes b;
    for (const auto& l : plan.layers)
        for (const auto& op : l.ops) {
            if (op.kind == OpKind::Send) b.sent += op.bytes;
            if (op.kind == OpKind::Recv) b.received += op.bytes;
            if (op.kind == OpKind::DramRead) b.dram_read += op.bytes;
            if (op.kind == OpKind::DramWrite) b.dram_written += op.bytes;
        }
    return b;
}

/// What a run that did not complete waits for: ops, routers holding packets, memory ports
/// with unanswered requests.
std::vector<std::string> stuck_report(const System& sys) {
    std::vector<std::string> stuck;
    for (const auto& c : sys.chiplets) c->describe_waiting(stuck, 20);
    for (const auto& r : sys.network->busy_routers()) stuck.push_back(r);
    for (const auto& p : sys.ports)
        if (p->outstanding() > 0)
            stuck.push_back(std::string(p->name()) + " (" + std::to_string(p->outstanding()) + " DRAM requests unanswered)");
    return stuck;
}

/// Network, memory and chiplet statistics of a run that lasted `elapsed`.
nlohmann::json run_stats(const System& sys, const ArchConfig& arch, Tick elapsed) {
    nlohmann::json mems = nlohmann::json::object();
    for (std::size_t m = 0; m < sys.drams.size(); ++m) {
        nlohmann::json j = sys.drams[m]->stats_json(elapsed);
        j["requests"] = sys.ports[m]->requests();
        mems[arch.memories[m].name] = j;
    }
    nlohmann::json chiplets = nlohmann::json::array();
    for (const auto& c : sys.chiplets) {
        double util =
            elapsed ? static_cast<double>(c->macs_done()) / (arch.chiplet.peak_macs_per_ns() * ticks_to_ns(elapsed)) : 0.0;
        chiplets.push_back({{"name", c->name()},
                            {"macs", c->macs_done()},
                            {"compute_busy_ns", ticks_to_ns(c->compute_busy())},
                            {"mac_utilization", util}});
    }
    return {{"network", sys.network->stats_json(elapsed)}, {"memories", mems}, {"chiplets", chiplets}};
}

}  // namespace

SimResult simulate_plan(const ArchConfig& arch, const Plan& plan, const SimOptions& options) {
    init_time_resolution();
    SimResult res;
    System sys("system", arch, plan, options, res.ledger);
    sc_core::sc_start();

    const std::size_t total = sys.index.size();
    const std::size_t done = sys.ops_done();
    res.completed = done == total;
    res.ops.resize(total);
    Tick last_end = 0;
    for (std::size_t i = 0; i < total; ++i) {
        const OpTiming& t = sys.timing[i];
        if (t.start != kNever) res.ops[i].start_ns = ticks_to_ns(t.start);
        if (t.end != kNever) {
            res.ops[i].end_ns = ticks_to_ns(t.end);
            last_end = std::max(last_end, t.end);
        }
    }
    res.simulated_ns = ticks_to_ns(last_end);
    // Energy that accrues with time: leakage of every chiplet and DRAM background power up to
    // the end of the run (the last op), the same span the analytical model charges.
    for (auto& c : sys.chiplets) c->book_leakage(last_end);
    for (auto& d : sys.drams) d->end_of_run(last_end);
    res.events = sc_core::sc_delta_count();

    // Conservation: every op ran; every packet injected was delivered; the bytes the plan
    // moves are the bytes the network and the memories moved.
    PlannedBytes planned = planned_bytes(plan);
    std::int64_t dram_read = 0, dram_written = 0;
    for (const auto& d : sys.drams) {
        dram_read += d->bytes_read();
        dram_written += d->bytes_written();
    }
    const PackageNetwork& net = *sys.network;
    bool packets_ok = net.packets_injected() == net.packets_delivered() && net.bytes_injected() == net.bytes_delivered();
    bool bytes_ok = planned.sent == planned.received && dram_read == planned.dram_read && dram_written == planned.dram_written;
    // Per flow: every flow of the plan got exactly its bytes (a chiplet throws on a surplus).
    const std::size_t flows_done = sys.flows_complete();
    bool flows_ok = flows_done == sys.index.transfers;
    res.conservation_ok = res.completed && packets_ok && bytes_ok && flows_ok;

    const std::vector<std::string> stuck = res.completed ? std::vector<std::string>{} : stuck_report(sys);
    res.checks = {{"conservation_ok", res.conservation_ok},
                  {"ops_total", total},
                  {"ops_executed", done},
                  {"packets_injected", net.packets_injected()},
                  {"packets_delivered", net.packets_delivered()},
                  {"payload_bytes_injected", net.bytes_injected()},
                  {"payload_bytes_delivered", net.bytes_delivered()},
                  {"tensor_bytes_sent", planned.sent},
                  {"tensor_bytes_received", planned.received},
                  {"flows_total", sys.index.transfers},
                  {"flows_delivered", flows_done},
                  {"dram_bytes_planned", planned.dram_read + planned.dram_written},
                  {"dram_bytes_served", dram_read + dram_written},
                  {"deadlock", !res.completed},
                  {"watchdog_fired", sys.watchdog->fired()},
                  {"stuck", stuck}};
    res.stats = run_stats(sys, arch, last_end);
    return res;
}

}  // namespace mcmsim
