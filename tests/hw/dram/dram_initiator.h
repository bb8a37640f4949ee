#pragma once
// A TLM initiator for the DRAM tests, preset loading and the traffic runs they share.
#include "hw/config/json_input.h"
#include "hw/dram/dram_target.h"
#include "hw/dram/dram_traffic.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"

#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

namespace mcmsim::dram_test {

inline DramConfig load_preset(const std::string& name) {
    const std::string path = std::string(MCMSIM_CONFIG_DIR) + "/dram/" + name + ".json";
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    DramConfig d;
    read_dram_fields(o, d);
    d.preset = name;
    return d;
}

/// Picoseconds of `cycles` clocks, as the preset states them (each parameter rounded once).
inline Tick ck(const DramConfig& d, std::int64_t cycles) { return ns_to_ticks(static_cast<double>(cycles) * d.timing.tck_ns); }

struct Access {
    tlm::tlm_response_status status;
    Tick delay;
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
    Access access(bool read, std::uint64_t addr, std::int64_t len, EnergyAccount* layer = nullptr,
                  unsigned char* data = nullptr) {
        std::vector<unsigned char> local(static_cast<std::size_t>(len));
        tlm::tlm_generic_payload gp;
        gp.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp.set_address(addr);
        gp.set_data_ptr(data ? data : local.data());
        gp.set_data_length(static_cast<unsigned>(len));
        gp.set_streaming_width(static_cast<unsigned>(len));
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        LayerEnergyExtension ext;
        ext.account = layer;
        if (layer) gp.set_extension(&ext);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(gp, delay);
        if (layer) gp.clear_extension(&ext);
        return Access{gp.get_response_status(), delay.value()};
    }
    unsigned debug(bool read, std::uint64_t addr, unsigned char* data, unsigned len) {
        tlm::tlm_generic_payload gp;
        gp.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp.set_address(addr);
        gp.set_data_ptr(data);
        gp.set_data_length(len);
        return socket->transport_dbg(gp);
    }

private:
    void run() { script_(*this); }
    std::function<void(Initiator&)> script_;
};

inline DramTargetOptions checked_options(bool store = false) {
    DramTargetOptions o;
    o.check_timing = true;
    o.store_data = store;
    return o;
}

/// Address of burst `column` in `row` of bank (bank_group, bank) on unit 0.
inline std::uint64_t address(const DramTarget& t, std::uint32_t bg, std::uint32_t bank, std::uint32_t row, std::uint32_t col) {
    DramCoord c;
    c.bank_group = bg;
    c.bank = bank;
    c.row = row;
    c.column = col;
    return t.mapper().encode(c);
}

// ---- isolated latency, every preset ------------------------------------------------------------
class PresetLatency : public ::testing::TestWithParam<const char*> {};

// ---- bandwidth -----------------------------------------------------------------------------------
struct RunResult {
    double gbps, row_hit_rate, energy_pj_per_bit, refreshes_per_rank;
    Tick elapsed;
    std::size_t violations;
};

inline RunResult run_traffic(const DramConfig& cfg, const DramTrafficConfig& tc) {
    EnergyAccount energy;
    DramTarget dram("dram", cfg, &energy, checked_options());
    DramTrafficGenerator gen("gen", tc, static_cast<std::uint64_t>(cfg.capacity_bytes));
    gen.socket.bind(dram.socket);
    sc_core::sc_start();
    EXPECT_TRUE(gen.done());
    const Tick elapsed = gen.last_response() - gen.first_request();
    RunResult r;
    r.elapsed = elapsed;
    r.gbps = static_cast<double>(gen.bytes()) / ticks_to_ns(elapsed);
    r.row_hit_rate = dram.row_hit_rate();
    r.energy_pj_per_bit = energy.total() / (static_cast<double>(gen.bytes()) * 8.0);
    r.refreshes_per_rank = dram.refreshes_per_rank(gen.last_response());
    r.violations = dram.timing_violations();
    return r;
}

// ---- refresh ---------------------------------------------------------------------------------------
/// REF commands per (unit, rank) over `run` of idle or streaming time.
inline std::map<int, double> count_refreshes(DramConfig cfg, Tick run, bool traffic) {
    DramTargetOptions opt = checked_options();
    opt.idle_refresh = true;
    DramTarget dram("dram", cfg, nullptr, opt);
    std::map<int, double> per_rank;
    const double pb_share = 1.0 / static_cast<double>(cfg.org.banks_per_rank());
    dram.observe_commands([&](const IssuedCommand& c) {
        const int key = static_cast<int>(c.unit * 100 + c.rank);
        if (c.cmd == DramCommand::Ref) per_rank[key] += 1.0;
        if (c.cmd == DramCommand::RefPb) per_rank[key] += pb_share;
    });
    DramTrafficConfig tc;
    tc.requests = traffic ? 1000000 : 0;
    tc.request_bytes = 64;
    tc.max_in_flight = 64;
    DramTrafficGenerator gen("gen", tc, static_cast<std::uint64_t>(cfg.capacity_bytes));
    gen.socket.bind(dram.socket);
    sc_core::sc_start(to_sc_time(run));
    EXPECT_EQ(dram.timing_violations(), 0u);
    EXPECT_EQ(per_rank.size(), static_cast<std::size_t>(cfg.units() * cfg.org.ranks));
    return per_rank;
}

}  // namespace mcmsim::dram_test
