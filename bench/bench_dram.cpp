// DRAM model speed: simulated requests per wall-clock second on hbm2, for streaming and
// random reads, through the AT TLM-2.0 path (traffic generator -> DramTarget) and through the
// controller engine alone (no SystemC kernel). Speed is measured here, never in timed tests.
//   bench_dram [requests [stream|random]]     (default 1000000 stream)
// SystemC elaborates once per process: the TLM run takes one pattern per process (argv[2],
// stream by default).
#include "hw/config/json_input.h"
#include "hw/dram/address_mapper.h"
#include "hw/dram/channel_controller.h"
#include "hw/dram/dram_target.h"
#include "hw/dram/dram_traffic.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace mcmsim;

namespace {

DramConfig hbm2() {
    const std::string path = std::string(MCMSIM_CONFIG_DIR) + "/dram/hbm2.json";
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    DramConfig d;
    read_dram_fields(o, d);
    return d;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The engine alone: keep `depth` bursts queued per unit, refill as they complete.
class Refill : public ControllerListener {
public:
    std::int64_t done = 0;
    std::vector<Burst*> freed;
    void on_command(const IssuedCommand&, const Burst*) override {}
    void on_burst_done(Burst* b, Tick) override {
        ++done;
        freed.push_back(b);
    }
    void on_background(std::uint32_t, Tick, Tick) override {}
};

double engine_rate(const DramConfig& cfg, bool random, std::int64_t n) {
    const DramTicks t = dram_ticks(cfg.timing);
    AddressMapper m(cfg);
    Refill sink;
    std::vector<std::unique_ptr<ChannelController>> units;
    for (std::int64_t u = 0; u < cfg.units(); ++u)
        units.push_back(std::make_unique<ChannelController>(cfg, t, static_cast<std::uint32_t>(u), &sink));
    std::vector<Burst> pool(static_cast<std::size_t>(cfg.units() * 32));
    std::mt19937_64 rng(1);
    std::uint64_t cursor = 0, seq = 0;
    const std::uint64_t bb = m.burst_bytes(), bursts = static_cast<std::uint64_t>(cfg.capacity_bytes) / bb;
    auto fill = [&](Burst* b, Tick now) {
        const std::uint64_t a = random ? (rng() % bursts) * bb : (cursor++ % bursts) * bb;
        const DramCoord c = m.decode(a);
        *b = Burst{};
        b->arrival = now;
        b->seq = seq++;
        b->rank = static_cast<std::uint16_t>(c.rank);
        b->bank_group = static_cast<std::uint16_t>(c.bank_group);
        b->bank = static_cast<std::uint16_t>(c.bank);
        b->row = c.row;
        b->column = c.column;
        units[m.unit_of(c)]->enqueue(b);
    };
    for (Burst& b : pool) fill(&b, 0);
    const auto t0 = std::chrono::steady_clock::now();
    Tick now = 0;
    while (sink.done < n) {
        Tick next = kNever;
        for (auto& u : units) next = std::min(next, u->advance(now));
        for (Burst* b : sink.freed) fill(b, now);
        sink.freed.clear();
        now = next;
    }
    return static_cast<double>(sink.done) / seconds_since(t0);
}

}  // namespace

int sc_main(int argc, char** argv) {
    const std::int64_t n = argc > 1 ? std::stoll(argv[1]) : 1000000;
    const std::string which = argc > 2 ? argv[2] : "stream";
    const DramConfig cfg = hbm2();
    std::printf("engine only, hbm2 stream: %.2f M requests/s\n", engine_rate(cfg, false, n) / 1e6);
    std::printf("engine only, hbm2 random: %.2f M requests/s\n", engine_rate(cfg, true, n) / 1e6);

    init_time_resolution();
    DramTrafficConfig tc;
    tc.pattern = which == "random" ? DramPattern::Random : DramPattern::Stream;
    tc.requests = n;
    tc.request_bytes = static_cast<std::uint32_t>(cfg.org.burst_bytes());
    tc.max_in_flight = static_cast<int>(cfg.units() * cfg.queue_depth);
    DramTarget dram("dram", cfg, nullptr);
    DramTrafficGenerator gen("gen", tc, static_cast<std::uint64_t>(cfg.capacity_bytes));
    gen.socket.bind(dram.socket);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double s = seconds_since(t0);
    std::printf("TLM AT path, hbm2 %s: %.2f M requests/s (%lld requests, %.1f GB/s simulated)\n", which.c_str(),
                static_cast<double>(gen.completed()) / s / 1e6, static_cast<long long>(gen.completed()),
                static_cast<double>(gen.bytes()) / ticks_to_ns(gen.last_response() - gen.first_request()));
    return 0;
}
