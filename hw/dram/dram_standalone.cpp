#include "hw/dram/dram_standalone.h"

#include "hw/dram/channel_controller.h"
#include "hw/dram/dram_target.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace mcmsim {

namespace {

class DoneProbe : public ControllerListener {
public:
    Tick done = 0;
    void on_command(const IssuedCommand&, const Burst*) override {}
    void on_burst_done(Burst*, Tick t) override { done = t; }
    void on_background(std::uint32_t, Tick, Tick) override {}
};

}  // namespace

IdleLatency measure_idle_latency(const DramConfig& cfg) {
    const DramTicks t = dram_ticks(cfg.timing);
    DoneProbe probe;
    ChannelController ctl(cfg, t, 0, &probe);
    const Tick gap = std::min<Tick>(ns_to_ticks(500), t.tREFI / 4);
    auto read = [&](Tick at, std::uint32_t row, std::uint32_t col) {
        Burst b;
        b.arrival = at;
        b.row = row;
        b.column = col;
        ctl.enqueue(&b);
        ctl.drain();
        return ticks_to_ns(probe.done - at);
    };
    IdleLatency l;
    l.closed_ns = read(0, 1, 0);
    l.hit_ns = read(gap, 1, 1);
    l.conflict_ns = read(2 * gap, 2, 0);
    return l;
}

DramStandaloneResult run_dram_standalone(const DramConfig& cfg, const std::string& name, const DramTrafficConfig& tc,
                                         bool check_timing) {
    const IdleLatency idle = measure_idle_latency(cfg);
    init_time_resolution();
    EnergyLedger ledger;
    DramTargetOptions opt;
    opt.check_timing = check_timing;
    DramTarget dram("dram", cfg, &ledger.account("dram"), opt);
    DramTrafficGenerator gen("traffic", tc, static_cast<std::uint64_t>(cfg.capacity_bytes));
    gen.socket.bind(dram.socket);
    const auto wall0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

    const Tick elapsed = gen.last_response() > gen.first_request() ? gen.last_response() - gen.first_request() : 1;
    const double gbps = static_cast<double>(gen.bytes()) / ticks_to_ns(elapsed);
    const double bits = static_cast<double>(gen.bytes()) * 8.0;
    nlohmann::json j = {{"preset", name},
                        {"pattern", to_string(tc.pattern)},
                        {"requests", gen.completed()},
                        {"request_bytes", tc.request_bytes},
                        {"simulated_ns", ticks_to_ns(gen.last_response())},
                        {"bandwidth_gbps", gbps},
                        {"peak_gbps", cfg.bandwidth_gbps()},
                        {"efficiency", gbps / cfg.bandwidth_gbps()},
                        {"avg_latency_ns", dram.avg_latency_ns()},
                        {"row_hit_rate", dram.row_hit_rate()},
                        {"energy_pj_per_bit", bits > 0 ? ledger.total_pj() / bits : 0.0},
                        {"refreshes", dram.refreshes_per_rank(gen.last_response())},
                        {"idle_latency_ns", {{"hit", idle.hit_ns}, {"closed", idle.closed_ns}, {"conflict", idle.conflict_ns}}},
                        {"wall_seconds", wall},
                        {"channels", dram.stats_json(gen.last_response())["channels"]}};
    if (opt.check_timing) {
        j["timing_violations"] = dram.timing_violations();
        j["timing_violation_examples"] = dram.checker()->violations();
    }
    std::ostringstream text;
    {
        text << name << " " << to_string(tc.pattern) << ": " << gen.completed() << " requests of " << tc.request_bytes << " B in "
             << ticks_to_ns(elapsed) / 1000.0 << " us\n"
             << "  bandwidth " << gbps << " GB/s of " << cfg.bandwidth_gbps() << " peak (" << 100.0 * gbps / cfg.bandwidth_gbps()
             << " %)\n"
             << "  avg latency " << dram.avg_latency_ns() << " ns; idle hit/closed/conflict " << idle.hit_ns << " / "
             << idle.closed_ns << " / " << idle.conflict_ns << " ns\n"
             << "  row hit rate " << dram.row_hit_rate() << ", " << j["energy_pj_per_bit"].get<double>() << " pJ/bit, "
             << j["refreshes"].get<double>() << " refreshes per rank\n";
        if (opt.check_timing) text << "  timing violations: " << dram.timing_violations() << "\n";
    }
    return {std::move(j), text.str(), opt.check_timing ? static_cast<std::int64_t>(dram.timing_violations()) : 0};
}

}  // namespace mcmsim
