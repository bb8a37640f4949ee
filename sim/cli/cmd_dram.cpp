// mcmsim dram --preset NAME [--config FILE] [--pattern stream|random|strided] [--stride BYTES]
//             [--read-ratio F] [--requests N] [--seed S] [--json] [--check]
// The DRAM model on its own: synthetic traffic through the TLM-2.0 (AT) interface, then
// bandwidth, efficiency, latency, row hits, energy and refreshes; idle latencies measured
// with isolated requests on one controller.
#include "hw/dram/channel_controller.h"
#include "hw/dram/dram_target.h"
#include "hw/dram/dram_traffic.h"
#include "hw/energy/energy_ledger.h"
#include "sim/cli/cli_common.h"

#include <chrono>
#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

namespace {

std::string preset_file(const std::string& name) {
    if (std::filesystem::exists(name)) return name;
    const std::string path = std::string(MCMSIM_CONFIG_DIR) + "/dram/" + name + ".json";
    if (!std::filesystem::exists(path))
        throw InputError("", "--preset", "a preset in " + std::string(MCMSIM_CONFIG_DIR) + "/dram/ or a file",
                         "\"" + name + "\"");
    return path;
}

void read_into(const std::string& path, DramConfig& d) {
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    read_dram_fields(o, d);
}

/// Isolated read latencies on one controller: closed row, then a hit, then a conflict, each
/// long after the previous one (no queueing) and before the first refresh.
struct IdleLatency {
    double hit_ns = 0, closed_ns = 0, conflict_ns = 0;
};

class DoneProbe : public ControllerListener {
public:
    Tick done = 0;
    void on_command(const IssuedCommand&, const Burst*) override {}
    void on_burst_done(Burst*, Tick t) override { done = t; }
    void on_background(std::uint32_t, Tick, Tick) override {}
};

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

}  // namespace

int cmd_dram(const std::vector<std::string>& args) {
    po::options_description o("dram options");
    o.add_options()("preset", po::value<std::string>(), "DRAM preset: a name in configs/dram/ or a file")(
        "config", po::value<std::string>(), "JSON object of overrides applied on top of the preset")(
        "pattern", po::value<std::string>()->default_value("stream"), "stream | random | strided")(
        "stride", po::value<std::int64_t>()->default_value(0), "strided: bytes between requests")(
        "read-ratio", po::value<double>()->default_value(1.0), "fraction of reads, 0..1")(
        "requests", po::value<std::int64_t>()->default_value(100000), "requests to simulate")(
        "request-bytes", po::value<std::int64_t>()->default_value(0), "bytes per request (default: one burst)")(
        "in-flight", po::value<std::int64_t>()->default_value(0), "transactions in flight (default: 32 per channel)")(
        "seed", po::value<std::uint64_t>()->default_value(1), "random seed")(
        "json", po::bool_switch(), "print the results as JSON")(
        "check", po::bool_switch(), "replay every command through the timing checker");
    po::variables_map vm;
    if (!parse("dram", "--preset NAME [--config FILE] [--pattern P] [--requests N] [--json]", o, args, vm))
        return kExitOk;

    const std::string name = required(vm, "preset");
    DramConfig cfg;
    read_into(preset_file(name), cfg);
    cfg.preset = name;
    if (vm.count("config")) read_into(vm["config"].as<std::string>(), cfg);

    DramTrafficConfig tc;
    const std::string pattern = vm["pattern"].as<std::string>();
    if (pattern == "stream") tc.pattern = DramPattern::Stream;
    else if (pattern == "random") tc.pattern = DramPattern::Random;
    else if (pattern == "strided") tc.pattern = DramPattern::Strided;
    else throw InputError("", "--pattern", "stream, random or strided", "\"" + pattern + "\"");
    tc.read_ratio = vm["read-ratio"].as<double>();
    if (!(tc.read_ratio >= 0.0 && tc.read_ratio <= 1.0))
        throw InputError("", "--read-ratio", "a number in [0, 1]", std::to_string(tc.read_ratio));
    tc.requests = vm["requests"].as<std::int64_t>();
    if (tc.requests < 1) throw InputError("", "--requests", "an integer >= 1", std::to_string(tc.requests));
    const std::int64_t stride = vm["stride"].as<std::int64_t>();
    if (stride < 0) throw InputError("", "--stride", "bytes >= 0", std::to_string(stride));
    tc.stride_bytes = static_cast<std::uint64_t>(stride);
    const std::int64_t rb = vm["request-bytes"].as<std::int64_t>();
    if (rb < 0 || rb > (1 << 20)) throw InputError("", "--request-bytes", "bytes in [1, 1048576]", std::to_string(rb));
    tc.request_bytes = static_cast<std::uint32_t>(rb ? rb : cfg.org.burst_bytes());
    const std::int64_t inflight = vm["in-flight"].as<std::int64_t>();
    if (inflight < 0) throw InputError("", "--in-flight", "an integer >= 1", std::to_string(inflight));
    tc.max_in_flight = static_cast<int>(inflight ? inflight : cfg.units() * cfg.queue_depth);
    tc.seed = vm["seed"].as<std::uint64_t>();

    const IdleLatency idle = measure_idle_latency(cfg);

    init_time_resolution();
    EnergyLedger ledger;
    DramTargetOptions opt;
    opt.check_timing = vm["check"].as<bool>();
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
                        {"pattern", pattern},
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
    if (vm["json"].as<bool>()) {
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << name << " " << pattern << ": " << gen.completed() << " requests of " << tc.request_bytes
                  << " B in " << ticks_to_ns(elapsed) / 1000.0 << " us\n"
                  << "  bandwidth " << gbps << " GB/s of " << cfg.bandwidth_gbps() << " peak ("
                  << 100.0 * gbps / cfg.bandwidth_gbps() << " %)\n"
                  << "  avg latency " << dram.avg_latency_ns() << " ns; idle hit/closed/conflict " << idle.hit_ns
                  << " / " << idle.closed_ns << " / " << idle.conflict_ns << " ns\n"
                  << "  row hit rate " << dram.row_hit_rate() << ", " << j["energy_pj_per_bit"].get<double>()
                  << " pJ/bit, " << j["refreshes"].get<double>() << " refreshes per rank\n";
        if (opt.check_timing) std::cout << "  timing violations: " << dram.timing_violations() << "\n";
    }
    return opt.check_timing && dram.timing_violations() > 0 ? kExitCheckFailed : kExitOk;
}

}  // namespace mcmsim::cli
