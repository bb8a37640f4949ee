// DRAM target through its TLM-2.0 socket: access latency plus per-channel transfer time,
// channel interleaving and queueing, aggregate bandwidth, address errors and energy.
// An initiator module drives it from an SC_THREAD and honours the annotated delays.
#include "hw/config/arch_config.h"
#include "hw/dram/dram_target.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace mcmsim {
namespace {

DramConfig test_dram() {
    DramConfig d;
    d.channels = 4;
    d.channel_bandwidth_gbps = 16;  // 16 B/ns: 64 B in 4 ns, 256 B in 16 ns
    d.access_latency_ns = 30;
    d.energy_pj_per_bit = 4;
    d.interleave_bytes = 256;
    d.capacity_bytes = 1 << 20;
    return d;
}

/// Latency of an access, in ps.
Tick latency(const DramConfig& d) { return static_cast<Tick>(d.access_latency_ns * 1000.0); }
/// Time one channel needs for `bytes`, in ps (round numbers: exact).
Tick xfer(const DramConfig& d, std::int64_t bytes) {
    return static_cast<Tick>(static_cast<double>(bytes) * 1000.0 / d.channel_bandwidth_gbps);
}

struct Access {
    tlm::tlm_response_status status;
    Tick delay;  ///< annotated delay added by the target
};

/// Runs `script` in an SC_THREAD; `access` performs one b_transport.
class Initiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Initiator> socket;

    SC_HAS_PROCESS(Initiator);
    Initiator(sc_core::sc_module_name n, std::function<void(Initiator&)> script)
        : sc_core::sc_module(n), socket("socket"), script_(std::move(script)) {
        SC_THREAD(run);
    }

    /// One access issued at now + `offset` (temporal decoupling); the result's delay excludes
    /// the offset. The caller decides whether to wait for it.
    Access access(bool read, std::uint64_t addr, std::int64_t len, Tick offset = 0,
                  EnergyAccount* layer = nullptr) {
        std::vector<unsigned char> data(static_cast<std::size_t>(len));
        tlm::tlm_generic_payload gp;
        gp.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp.set_address(addr);
        gp.set_data_ptr(data.data());
        gp.set_data_length(static_cast<unsigned>(len));
        gp.set_streaming_width(static_cast<unsigned>(len));
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        LayerEnergyExtension ext;
        ext.account = layer;
        if (layer) gp.set_extension(&ext);
        sc_core::sc_time delay = to_sc_time(offset);
        socket->b_transport(gp, delay);
        if (layer) gp.clear_extension(&ext);  // stack-owned: the payload must not free it
        return Access{gp.get_response_status(), delay.value() - offset};
    }

private:
    void run() { script_(*this); }
    std::function<void(Initiator&)> script_;
};

/// A DRAM target with its energy account, driven by one initiator script.
struct Bench {
    DramConfig cfg = test_dram();
    EnergyAccount energy;
    DramTarget dram;
    Initiator init;
    explicit Bench(std::function<void(Initiator&)> script)
        : dram("dram", cfg, &energy), init("init", std::move(script)) {
        init.socket.bind(dram.socket);
    }
};

// One 64 B read at an idle target takes the access latency plus its transfer on one channel,
// and the initiator's clock advances by exactly that delay.
TEST(DramTiming, SingleReadAtIdleTarget) {
    init_time_resolution();
    Access r{};
    Tick finished = 0;
    Bench b([&](Initiator& i) {
        r = i.access(true, 0, 64);
        sc_core::wait(to_sc_time(r.delay));
        finished = now_ticks();
    });
    sc_core::sc_start();
    EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.delay, latency(b.cfg) + xfer(b.cfg, 64));
    EXPECT_EQ(finished, r.delay);
    EXPECT_EQ(b.dram.reads(), 1);
    EXPECT_EQ(b.dram.bytes_read(), 64);
}

// A read crossing an interleave boundary is split over two channels that work in parallel:
// it costs one half's transfer, not the whole.
TEST(DramTiming, ReadSpanningTwoChunksUsesTwoChannels) {
    init_time_resolution();
    Access r{};
    DramConfig cfg = test_dram();
    const std::int64_t half = cfg.interleave_bytes / 2, len = 2 * half;
    Bench b([&](Initiator& i) {
        r = i.access(true, static_cast<std::uint64_t>(cfg.interleave_bytes - half), len);
        sc_core::wait(to_sc_time(r.delay));
    });
    sc_core::sc_start();
    ASSERT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.delay, latency(cfg) + xfer(cfg, half));
    EXPECT_LT(r.delay, latency(cfg) + xfer(cfg, len));  // faster than one channel alone
}

// Two reads issued at the same instant to the same channel queue: the second waits for the
// first's transfer. A read to another channel at that instant does not wait; a read issued
// after the first finished sees an idle channel again.
TEST(DramTiming, BackToBackReadsToOneChannelQueue) {
    init_time_resolution();
    DramConfig cfg = test_dram();
    const std::int64_t n = cfg.interleave_bytes;
    const auto same_channel = static_cast<std::uint64_t>(cfg.channels * cfg.interleave_bytes);
    Access first{}, second{}, other{}, later{};
    Bench b([&](Initiator& i) {
        first = i.access(true, 0, n);
        second = i.access(true, same_channel, n);
        other = i.access(true, static_cast<std::uint64_t>(cfg.interleave_bytes), n);
        sc_core::wait(to_sc_time(std::max(first.delay, second.delay)));
        later = i.access(true, 0, n);
        sc_core::wait(to_sc_time(later.delay));
    });
    sc_core::sc_start();
    EXPECT_EQ(first.delay, latency(cfg) + xfer(cfg, n));
    EXPECT_EQ(second.delay, xfer(cfg, n) + latency(cfg) + xfer(cfg, n));
    EXPECT_EQ(other.delay, latency(cfg) + xfer(cfg, n));
    EXPECT_EQ(later.delay, latency(cfg) + xfer(cfg, n));
}

// A sequential stream of interleave-sized reads, all issued at once, keeps every channel
// busy: the stream completes at (close to) the aggregate bandwidth channels x channel_bw.
TEST(DramBandwidth, SequentialStreamReachesAggregateBandwidth) {
    init_time_resolution();
    DramConfig cfg = test_dram();
    const std::int64_t n = 1024, chunk = cfg.interleave_bytes, total = n * chunk;
    Tick last = 0;
    Tick finished = 0;
    Bench b([&](Initiator& i) {
        for (std::int64_t k = 0; k < n; ++k) {
            Access a = i.access(true, static_cast<std::uint64_t>(k * chunk), chunk);
            ASSERT_EQ(a.status, tlm::TLM_OK_RESPONSE);
            last = std::max(last, a.delay);
        }
        sc_core::wait(to_sc_time(last));
        finished = now_ticks();
    });
    sc_core::sc_start();
    // Each channel serves n / channels chunks back to back, the last one after the latency.
    const Tick expected = static_cast<Tick>((n + cfg.channels - 1) / cfg.channels) * xfer(cfg, chunk) + latency(cfg);
    EXPECT_EQ(finished, expected);
    const double achieved_gbps = static_cast<double>(total) / ticks_to_ns(finished);
    const double aggregate_gbps = static_cast<double>(cfg.channels) * cfg.channel_bandwidth_gbps;
    EXPECT_NEAR(achieved_gbps, aggregate_gbps, 0.05 * aggregate_gbps);
    EXPECT_LE(achieved_gbps, aggregate_gbps);
    EXPECT_EQ(b.dram.bytes_read(), total);
}

// Accesses beyond the capacity fail with an address error and move no bytes; the last
// in-range bytes are still accessible.
TEST(DramErrors, OutOfCapacityAddressIsRejected) {
    init_time_resolution();
    DramConfig cfg = test_dram();
    const auto cap = static_cast<std::uint64_t>(cfg.capacity_bytes);
    Access straddle{}, beyond{}, last_bytes{};
    Bench b([&](Initiator& i) {
        straddle = i.access(true, cap - 32, 64);
        beyond = i.access(false, cap, 1);
        last_bytes = i.access(true, cap - 64, 64);
        sc_core::wait(to_sc_time(last_bytes.delay));
    });
    sc_core::sc_start();
    EXPECT_EQ(straddle.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(beyond.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(last_bytes.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.dram.reads(), 1);
    EXPECT_EQ(b.dram.writes(), 0);
    EXPECT_DOUBLE_EQ(b.energy.total(), 64 * 8 * cfg.energy_pj_per_bit);
}

// Energy is bytes x 8 x pj/bit for reads and writes, booked on the target's account and,
// when the initiator names one through LayerEnergyExtension, on that layer's account too.
TEST(DramEnergy, BytesTimesPjPerBitOnTargetAndLayer) {
    init_time_resolution();
    DramConfig cfg = test_dram();
    const std::int64_t rd = 512, wr = 192, untagged = 64;
    EnergyAccount layer;
    Bench b([&](Initiator& i) {
        Tick t = 0;
        t = std::max(t, i.access(true, 0, rd, 0, &layer).delay);
        t = std::max(t, i.access(false, 4096, wr, 0, &layer).delay);
        t = std::max(t, i.access(true, 8192, untagged).delay);  // no extension: target only
        sc_core::wait(to_sc_time(t));
    });
    sc_core::sc_start();
    const int dram = static_cast<int>(EnergyCategory::Dram);
    const double pj_per_byte = 8 * cfg.energy_pj_per_bit;
    EXPECT_DOUBLE_EQ(b.energy.pj[dram], static_cast<double>(rd + wr + untagged) * pj_per_byte);
    EXPECT_DOUBLE_EQ(b.energy.total(), b.energy.pj[dram]);
    EXPECT_DOUBLE_EQ(layer.pj[dram], static_cast<double>(rd + wr) * pj_per_byte);
    EXPECT_DOUBLE_EQ(layer.total(), layer.pj[dram]);
    EXPECT_EQ(b.dram.bytes_read(), rd + untagged);
    EXPECT_EQ(b.dram.bytes_written(), wr);
    EXPECT_EQ(b.dram.reads(), 2);
    EXPECT_EQ(b.dram.writes(), 1);
}

}  // namespace
}  // namespace mcmsim
