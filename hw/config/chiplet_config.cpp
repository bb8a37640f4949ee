#include "hw/config/chiplet_config.h"

#include "hw/config/physical_ranges.h"

#include "hw/common/integer_math.h"
#include "hw/compute/energy_reference.h"
#include "hw/compute/sram_energy.h"

#include <limits>

namespace mcmsim {

namespace {

void read_buffer(JsonObject o, SramBuffer& b, bool capacity_elsewhere, std::int64_t* capacity) {
    std::int64_t& bytes = capacity_elsewhere ? *capacity : b.bytes;
    bytes = o.integer_in("bytes", bytes, 1, ranges::kMaxSramBytes);
    b.banks = o.integer_in("banks", b.banks, 1, ranges::kMaxBanks);
    b.width_bits = o.integer_in("width_bits", b.width_bits, 0, ranges::kMaxAccessBits);
    if (b.width_bits % 8 != 0) o.required("width_bits").fail("a whole number of bytes (a multiple of 8 bits) or 0");
    b.access_energy_pj = o.number_in("access_energy_pj", b.access_energy_pj, 0, ranges::kMaxEnergyPjPerEvent);
    o.finish();
}

void read_buffers(JsonObject o, ChipletConfig& c) {
    if (auto n = o.optional("weight")) read_buffer(n->object(), c.weight_buffer, false, nullptr);
    if (auto n = o.optional("input")) read_buffer(n->object(), c.input_buffer, false, nullptr);
    if (auto n = o.optional("accumulation")) read_buffer(n->object(), c.accumulation_buffer, false, nullptr);
    if (auto n = o.optional("global")) {
        SramBuffer g = c.global_buffer();
        read_buffer(n->object(), g, true, &c.global_buffer_bytes);
        c.global_buffer_banks = g.banks;
        c.global_buffer_width_bits = g.width_bits;
        c.global_buffer_access_energy_pj = g.access_energy_pj;
    }
    o.finish();
}

void read_array(JsonObject o, ChipletConfig& c) {
    c.array_kind = o.choice("kind", c.array_kind);
    // A square array of 4096 x 4096 MACs is far beyond any die; the product stays exact.
    c.array_rows = o.integer_in("rows", c.array_rows, 1, 4096);
    c.array_cols = o.integer_in("cols", c.array_cols, 1, 4096);
    c.pipeline_cycles = o.integer_in("pipeline_cycles", c.pipeline_cycles, 0, ranges::kMaxPipelineCycles);
    o.finish();
}

std::vector<SramEnergyPoint> read_energy_table(const JsonNode& n) {
    std::vector<SramEnergyPoint> table;
    for (const JsonNode& e : n.array()) {
        JsonObject p = e.object();
        SramEnergyPoint pt;
        pt.bytes = p.required("bytes").integer_in(1, ranges::kMaxSramBytes);
        pt.pj_per_access = p.required("pj_per_access").number_in(0, ranges::kMaxEnergyPjPerEvent);
        for (const SramEnergyPoint& q : table)
            if (q.bytes == pt.bytes) p.required("bytes").fail("a size not already in the table");
        p.finish();
        table.push_back(pt);
    }
    return table;
}

nlohmann::json buffer_json(const ChipletConfig& c, const SramBuffer& b, bool with_bytes) {
    nlohmann::json j = {{"banks", b.banks}, {"width_bits", b.width_bits}, {"access_energy_pj", sram_access_energy_pj(c, b)}};
    if (with_bytes) j["bytes"] = b.bytes;
    return j;
}
}  // namespace

void read_chiplet_fields(JsonObject& o, ChipletConfig& c) {
    o.allow("source");
    c.clock_ghz = o.number_in("clock_ghz", c.clock_ghz, ranges::kMinClockGhz, ranges::kMaxClockGhz);
    // 65536 PEs of up to 2^24 MACs each: beyond any chiplet, and every MAC-rate and tiling
    // product stays inside 64-bit integers.
    c.pes = o.integer_in("pes", c.pes, 1, 65536);
    c.macs_per_pe = o.integer_in("macs_per_pe", c.macs_per_pe, 1, std::int64_t{1} << 24);
    c.sram_energy_pj_per_byte =
        o.number_in("sram_energy_pj_per_byte", c.sram_energy_pj_per_byte, 0, ranges::kMaxEnergyPjPerEvent);
    c.global_buffer_bytes = o.integer_in("global_buffer_bytes", c.global_buffer_bytes, 1, ranges::kMaxSramBytes);
    c.ni_bandwidth_gbps =
        o.number_in("ni_bandwidth_gbps", c.ni_bandwidth_gbps, ranges::kMinBandwidthGbps, ranges::kMaxBandwidthGbps);

    if (auto a = o.optional("array")) read_array(a->object(), c);
    c.dataflow = o.choice("dataflow", c.dataflow);
    if (auto p = o.optional("precision_bits")) {
        std::int64_t bits = p->integer_in(1, 32);
        if (bits != 8 && bits != 16 && bits != 32) p->fail("8, 16 or 32");
        c.precision_bits = bits;
    }
    c.accumulator_bits = o.integer_in("accumulator_bits", c.accumulator_bits, c.precision_bits, 64);
    c.technology_nm = o.number_in("technology_nm", c.technology_nm, ranges::kMinTechnologyNm, ranges::kMaxTechnologyNm);
    // A new precision or node moves the operation energies unless they are given.
    const bool node_or_precision = o.has("precision_bits") || o.has("technology_nm");
    if (node_or_precision) {
        c.mac_energy_pj = energy_reference::mac_energy_pj(c.precision_bits, c.technology_nm);
        c.vector_op_energy_pj = energy_reference::vector_op_energy_pj(c.technology_nm);
    }
    c.mac_energy_pj = o.number_in("mac_energy_pj", c.mac_energy_pj, 0, ranges::kMaxEnergyPjPerEvent);
    c.vector_op_energy_pj = o.number_in("vector_op_energy_pj", c.vector_op_energy_pj, 0, ranges::kMaxEnergyPjPerEvent);

    if (auto b = o.optional("buffers")) read_buffers(b->object(), c);
    if (auto t = o.optional("sram_energy_table")) c.sram_energy_table = read_energy_table(*t);
    c.leakage_mw = o.number_in("leakage_mw", c.leakage_mw, 0, ranges::kMaxPowerMw);
    c.vector_lanes = o.integer_in("vector_lanes", c.vector_lanes, 1, ranges::kMaxVectorLanes);

    // The array must hold exactly the MACs the PE is said to have.
    if ((c.array_rows > 0) != (c.array_cols > 0) || (c.array_rows > 0 && c.array_rows * c.array_cols != c.macs_per_pe)) {
        JsonNode where = o.has("array") ? o.required("array") : o.node();
        where.fail("array rows x cols equal to macs_per_pe (" + std::to_string(c.macs_per_pe) + ")",
                   std::to_string(c.array_rows) + " x " + std::to_string(c.array_cols));
    }
    o.finish();
}

nlohmann::json chiplet_to_json(const ChipletConfig& c) {
    using nlohmann::json;
    json table = json::array();
    for (const auto& [bytes, pj] : sram_table_points(c))
        table.push_back({{"bytes", static_cast<std::int64_t>(bytes)}, {"pj_per_access", pj}});
    json chiplet = {
        {"preset", c.preset},
        {"clock_ghz", c.clock_ghz},
        {"pes", c.pes},
        {"macs_per_pe", c.macs_per_pe},
        {"array",
         {{"kind", to_string(c.array_kind)}, {"rows", c.rows()}, {"cols", c.cols()}, {"pipeline_cycles", c.pipeline_cycles}}},
        {"dataflow", to_string(c.dataflow)},
        {"precision_bits", c.precision_bits},
        {"accumulator_bits", c.accumulator_bits},
        {"technology_nm", c.technology_nm},
        {"mac_energy_pj", c.mac_energy_pj},
        {"vector_op_energy_pj", c.vector_op_energy_pj},
        {"vector_lanes", c.vector_lanes},
        {"sram_energy_pj_per_byte", c.sram_energy_pj_per_byte},
        {"global_buffer_bytes", c.global_buffer_bytes},
        {"buffers",
         {{"weight", buffer_json(c, c.weight_buffer, true)},
          {"input", buffer_json(c, c.input_buffer, true)},
          {"accumulation", buffer_json(c, c.accumulation_buffer, true)},
          {"global", buffer_json(c, c.global_buffer(), false)}}},
        {"sram_energy_table", table},
        {"leakage_mw", c.leakage_mw},
        {"ni_bandwidth_gbps", c.ni_bandwidth_gbps}};
    if (c.preset.empty()) chiplet.erase("preset");
    return chiplet;
}

}  // namespace mcmsim
