#include "hw/dram/dram_config.h"

#include "hw/config/physical_ranges.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace mcmsim {

namespace {
constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kCycMax = 1 << 20;

bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int log2i(std::int64_t v) {
    int n = 0;
    while ((std::int64_t{1} << n) < v) ++n;
    return n;
}

/// Throws the validation error at `where`/`path` (or a generic location for hand-built configs).
[[noreturn]] void fail_at(const JsonObject* where, const std::string& path, const std::string& expected,
                          const std::string& found) {
    if (where) throw InputError(where->node().file(), where->node().pointer() + path, expected, found);
    throw InputError("<dram config>", path, expected, found);
}

std::string num(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

/// Address-map bits: an array of bit numbers and "lo-hi" ranges, e.g. [6, 7, "12-27"].
AddressField read_bits(const JsonNode& n) {
    AddressField f;
    auto add = [&](const JsonNode& at, std::int64_t b) {
        if (b < 0 || b > 62) at.fail("a bit number in [0, 62]");
        f.bits.push_back(static_cast<int>(b));
    };
    for (const JsonNode& e : n.array()) {
        if (e.is_string()) {
            std::string s = e.string();
            auto dash = s.find('-');
            char* end = nullptr;
            long lo = std::strtol(s.c_str(), &end, 10);
            long hi = lo;
            bool ok = end != s.c_str();
            if (ok && dash != std::string::npos) {
                const char* p = s.c_str() + dash + 1;
                hi = std::strtol(p, &end, 10);
                ok = end != p && *end == '\0' && hi >= lo;
            } else {
                ok = ok && *end == '\0';
            }
            if (!ok) e.fail("a bit number or a range \"lo-hi\"");
            for (long b = lo; b <= hi; ++b) add(e, b);
        } else {
            add(e, e.integer());
        }
    }
    return f;
}

void read_organization(JsonObject o, DramOrganization& g) {
    g.pseudo_channels = o.integer_in("pseudo_channels", g.pseudo_channels, 1, 64);
    g.ranks = o.integer_in("ranks", g.ranks, 1, 16);
    g.bank_groups = o.integer_in("bank_groups", g.bank_groups, 1, 64);
    g.banks_per_group = o.integer_in("banks_per_group", g.banks_per_group, 1, 64);
    g.rows = o.integer_in("rows", g.rows, 1, 1 << 24);
    g.columns = o.integer_in("columns", g.columns, 1, 1 << 16);
    g.bus_width_bits = o.integer_in("bus_width_bits", g.bus_width_bits, 8, 1024);
    g.burst_length = o.integer_in("burst_length", g.burst_length, 1, 64);
    o.finish();
}

void read_timing(JsonObject o, DramTimingCk& t) {
    o.allow("source");
    // The clock period within the clock range every config takes (10 MHz to 100 GHz).
    t.tck_ns = o.number_in("tCK_ns", t.tck_ns, 1.0 / ranges::kMaxClockGhz, 1.0 / ranges::kMinClockGhz);
    auto ck = [&](const char* k, std::int64_t& v, std::int64_t lo = 0) { v = o.integer_in(k, v, lo, kCycMax); };
    ck("CL", t.CL, 1);
    ck("CWL", t.CWL);
    ck("tRCD", t.tRCD, 1);
    ck("tRP", t.tRP, 1);
    ck("tRAS", t.tRAS, 1);
    ck("tRC", t.tRC, 1);
    ck("tBURST", t.tBURST, 1);
    ck("tCCD_S", t.tCCD_S, 1);
    ck("tCCD_L", t.tCCD_L, 1);
    ck("tRRD_S", t.tRRD_S, 1);
    ck("tRRD_L", t.tRRD_L, 1);
    ck("tFAW", t.tFAW);
    ck("tWR", t.tWR);
    ck("tWTR_S", t.tWTR_S);
    ck("tWTR_L", t.tWTR_L);
    ck("tRTP", t.tRTP);
    ck("tRTW", t.tRTW);
    ck("tRTRS", t.tRTRS);
    // Refresh figures from 1 ns (no real part refreshes faster) to 1 ms (the latency bound).
    t.tRFC_ns = o.number_in("tRFC_ns", t.tRFC_ns, 1, ranges::kMaxLatencyNs);
    t.tREFI_ns = o.number_in("tREFI_ns", t.tREFI_ns, 1, ranges::kMaxLatencyNs);
    t.tRFCpb_ns = o.number_in("tRFCpb_ns", t.tRFCpb_ns, 0, ranges::kMaxLatencyNs);
    o.finish();
}

/// IDD currents (mA) and VDD (V) to per-command energies (pJ = mA x V x ns), per rank:
/// E_ACT+PRE = VDD·[IDD0·tRC − (IDD3N·tRAS + IDD2N·tRP)], E_RD = VDD·(IDD4R − IDD3N)·tBURST,
/// E_WR likewise with IDD4W, E_REF = VDD·(IDD5B − IDD3N)·tRFC, background VDD·IDD3N / IDD2N.
void read_idd(JsonObject o, const DramTimingCk& t, DramEnergyConfig& e) {
    double vdd = o.required("vdd").number_in(ranges::kMinVoltage, ranges::kMaxVoltage);
    double devices = static_cast<double>(o.integer_in("devices_per_rank", 1, 1, 64));
    auto current = [&](const char* k) { return o.required(k).number_in(0, ranges::kMaxCurrentMa); };
    double idd0 = current("idd0"), idd2n = current("idd2n"), idd3n = current("idd3n");
    double idd4r = current("idd4r"), idd4w = current("idd4w"), idd5b = current("idd5b");
    o.finish();
    const double tck = t.tck_ns;
    const double trc = static_cast<double>(t.tRC) * tck, tras = static_cast<double>(t.tRAS) * tck;
    const double trp = static_cast<double>(t.tRP) * tck, tburst = static_cast<double>(t.tBURST) * tck;
    e.act_pj = devices * vdd * std::max(0.0, idd0 * trc - (idd3n * tras + idd2n * trp));
    e.rd_pj = devices * vdd * std::max(0.0, idd4r - idd3n) * tburst;
    e.wr_pj = devices * vdd * std::max(0.0, idd4w - idd3n) * tburst;
    e.ref_pj = devices * vdd * std::max(0.0, idd5b - idd3n) * t.tRFC_ns;
    e.background_active_mw = devices * vdd * idd3n;
    e.background_idle_mw = devices * vdd * idd2n;
}

void read_energy(JsonObject o, const DramTimingCk& t, DramEnergyConfig& e) {
    o.allow("source");
    if (auto c = o.optional("commands")) {
        JsonObject co = c->object();
        co.allow("source");
        e.act_pj = co.number_in("act_pj", e.act_pj, 0, ranges::kMaxEnergyPjPerEvent);
        e.rd_pj = co.number_in("rd_pj", e.rd_pj, 0, ranges::kMaxEnergyPjPerEvent);
        e.wr_pj = co.number_in("wr_pj", e.wr_pj, 0, ranges::kMaxEnergyPjPerEvent);
        e.ref_pj = co.number_in("ref_pj", e.ref_pj, 0, ranges::kMaxEnergyPjPerEvent);
        e.background_active_mw = co.number_in("background_active_mw", e.background_active_mw, 0, ranges::kMaxPowerMw);
        e.background_idle_mw = co.number_in("background_idle_mw", e.background_idle_mw, 0, ranges::kMaxPowerMw);
        co.finish();
    }
    if (auto i = o.optional("idd")) read_idd(i->object(), t, e);
    e.io_pj_per_bit = o.number_in("io_pj_per_bit", e.io_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
    o.finish();
}

void read_controller(JsonObject o, DramConfig& d) {
    d.page_policy = o.choice("page_policy", d.page_policy);
    d.scheduler = o.choice("scheduler", d.scheduler);
    d.refresh = o.choice("refresh", d.refresh);
    d.queue_depth = o.integer_in("queue_depth", d.queue_depth, 1, 4096);
    d.write_high_watermark = o.integer_in("write_high_watermark", d.write_high_watermark, 1, 4096);
    d.write_low_watermark = o.integer_in("write_low_watermark", d.write_low_watermark, 0, 4096);
    o.finish();
}

std::int64_t field_count(const DramConfig& d, DramField f) {
    const DramOrganization& g = d.org;
    switch (f) {
        case DramField::Channel:
            return d.channels;
        case DramField::PseudoChannel:
            return g.pseudo_channels;
        case DramField::Rank:
            return g.ranks;
        case DramField::BankGroup:
            return g.bank_groups;
        case DramField::Bank:
            return g.banks_per_group;
        case DramField::Row:
            return g.rows;
        case DramField::Column:
            break;
    }
    return g.columns / g.burst_length;  // column: burst-sized column addresses per row
}

}  // namespace

AddressMap effective_address_map(const DramConfig& d) {
    if (!d.address_map.empty()) return d.address_map;
    const DramOrganization& g = d.org;
    int next = log2i(g.burst_bytes());
    auto take = [&](int n) {
        AddressField f;
        for (int i = 0; i < n; ++i) f.bits.push_back(next++);
        return f;
    };
    const int col_bits = log2i(g.columns / g.burst_length);
    const int col_low = std::min(col_bits, std::max(0, log2i(d.interleave_bytes) - log2i(g.burst_bytes())));
    AddressField col = take(col_low);
    AddressField pc = take(log2i(g.pseudo_channels));
    AddressField ch = take(log2i(d.channels));
    AddressField bg = take(log2i(g.bank_groups));
    AddressField bank = take(log2i(g.banks_per_group));
    AddressField col_high = take(col_bits - col_low);
    col.bits.insert(col.bits.end(), col_high.bits.begin(), col_high.bits.end());
    AddressField rank = take(log2i(g.ranks));
    AddressField row = take(log2i(g.rows));
    return {{DramField::Column, col}, {DramField::PseudoChannel, pc}, {DramField::Channel, ch}, {DramField::BankGroup, bg},
            {DramField::Bank, bank},  {DramField::Rank, rank},        {DramField::Row, row}};
}

void derive_dram(DramConfig& d) {
    const DramOrganization& g = d.org;
    d.channel_bandwidth_gbps = d.unit_bandwidth_gbps() * static_cast<double>(g.pseudo_channels);
    d.access_latency_ns = static_cast<double>(d.timing.tRCD + d.timing.CL + d.timing.tBURST) * d.timing.tck_ns;
    d.capacity_bytes = d.units() * g.ranks * g.banks_per_rank() * g.rows * g.row_bytes();
}

void validate_dram(const DramConfig& d, const JsonObject* where) {
    const DramTimingCk& t = d.timing;
    const DramOrganization& g = d.org;
    if (t.tRC < t.tRAS + t.tRP)
        fail_at(where, "/timing/tRC", "tRC >= tRAS + tRP = " + std::to_string(t.tRAS + t.tRP) + " cycles",
                "tRC = " + std::to_string(t.tRC));
    if (t.tRAS < t.tRCD)
        fail_at(where, "/timing/tRAS", "tRAS >= tRCD = " + std::to_string(t.tRCD) + " cycles",
                "tRAS = " + std::to_string(t.tRAS));
    if (t.tREFI_ns <= t.tRFC_ns)
        fail_at(where, "/timing/tREFI_ns", "tREFI_ns > tRFC_ns = " + num(t.tRFC_ns), "tREFI_ns = " + num(t.tREFI_ns));
    if (d.refresh == RefreshMode::PerBank && t.tRFCpb_ns <= 0)
        fail_at(where, "/controller/refresh", "a device with per-bank refresh (timing.tRFCpb_ns > 0)",
                "\"per_bank\" with tRFCpb_ns = 0");
    struct Pow2 {
        const char* path;
        std::int64_t v;
    };
    for (const Pow2& p : {Pow2{"/channels", d.channels}, Pow2{"/organization/pseudo_channels", g.pseudo_channels},
                          Pow2{"/organization/ranks", g.ranks}, Pow2{"/organization/bank_groups", g.bank_groups},
                          Pow2{"/organization/banks_per_group", g.banks_per_group}, Pow2{"/organization/rows", g.rows},
                          Pow2{"/organization/columns", g.columns}, Pow2{"/organization/bus_width_bits", g.bus_width_bits},
                          Pow2{"/organization/burst_length", g.burst_length}})
        if (!is_pow2(p.v)) fail_at(where, p.path, "a power of two (address bits map onto it)", "number " + std::to_string(p.v));
    if (g.columns < g.burst_length)
        fail_at(where, "/organization/columns", "at least burst_length = " + std::to_string(g.burst_length),
                "number " + std::to_string(g.columns));
    if (d.write_low_watermark >= d.write_high_watermark || d.write_high_watermark > d.queue_depth)
        fail_at(where, "/controller/write_high_watermark", "write_low_watermark < write_high_watermark <= queue_depth",
                std::to_string(d.write_low_watermark) + " / " + std::to_string(d.write_high_watermark) + " / " +
                    std::to_string(d.queue_depth));
    if (d.address_map.empty() && (!is_pow2(d.interleave_bytes) || d.interleave_bytes < g.burst_bytes()))
        fail_at(where, "/interleave_bytes", "a power of two >= the burst size " + std::to_string(g.burst_bytes()) + " B",
                "number " + std::to_string(d.interleave_bytes));

    // Address map: each field as wide as its count, no bit used twice, and together with the
    // burst offset exactly the bits [0, log2(capacity)).
    const std::int64_t capacity = d.units() * g.ranks * g.banks_per_rank() * g.rows * g.row_bytes();
    const int total_bits = log2i(capacity);
    const int offset_bits = log2i(g.burst_bytes());
    std::map<int, std::string> owner;
    for (int b = 0; b < offset_bits; ++b) owner[b] = "the burst offset";
    auto map = effective_address_map(d);
    for (DramField field : choice_values<DramField>()) {
        const std::string name = to_string(field);
        const auto it = std::find_if(map.begin(), map.end(), [&](const auto& f) { return f.first == field; });
        const int want = log2i(field_count(d, field));
        const int have = it == map.end() ? 0 : static_cast<int>(it->second.bits.size());
        const std::string path = std::string("/address_map/") + name;
        if (have != want)
            fail_at(where, path,
                    std::to_string(want) + " bits (log2 of " + std::to_string(field_count(d, field)) + " " + name + " values)",
                    std::to_string(have) + " bits");
        if (it == map.end()) continue;
        for (int b : it->second.bits) {
            auto [o, fresh] = owner.emplace(b, name);
            if (!fresh)
                fail_at(where, path, "address bits used by no other field",
                        "bit " + std::to_string(b) + " also used by " + o->second);
            if (b >= total_bits)
                fail_at(where, path,
                        "bits below " + std::to_string(total_bits) + " (capacity " + std::to_string(capacity) + " B)",
                        "bit " + std::to_string(b));
        }
    }
    for (int b = 0; b < total_bits; ++b)
        if (!owner.count(b))
            fail_at(where, "/address_map",
                    "fields covering every address bit below " + std::to_string(total_bits) + " (capacity " +
                        std::to_string(capacity) + " B)",
                    "bit " + std::to_string(b) + " unmapped");
}

void read_dram_fields(JsonObject& o, DramConfig& d) {
    d.source = o.string("source", d.source);
    d.channels = o.integer_in("channels", d.channels, 1, 1024);
    if (auto n = o.optional("organization")) read_organization(n->object(), d.org);
    if (auto n = o.optional("timing")) read_timing(n->object(), d.timing);
    if (auto n = o.optional("energy")) read_energy(n->object(), d.timing, d.energy);
    if (auto n = o.optional("controller")) read_controller(n->object(), d);
    d.energy_pj_per_bit = o.number_in("energy_pj_per_bit", d.energy_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
    // Interleaving beyond 1 GiB would put a whole stack behind one channel.
    d.interleave_bytes = o.integer_in("interleave_bytes", d.interleave_bytes, 1, std::int64_t{1} << 30);
    if (auto n = o.optional("address_map")) {
        JsonObject m = n->object();
        d.address_map.clear();
        for (auto it = n->raw().begin(); it != n->raw().end(); ++it) {
            const std::optional<DramField> field = parse_choice<DramField>(it.key());
            if (!field)
                m.required(it.key()).fail("a field among channel, pseudo_channel, rank, bank_group, bank, row, column",
                                          "\"" + it.key() + "\"");
            d.address_map.emplace_back(*field, read_bits(m.required(it.key())));
        }
        m.finish();
    }
    o.allow("derived");  // what dram_to_json reports for information; recomputed here
    o.finish();
    validate_dram(d, &o);
    derive_dram(d);
}

nlohmann::json dram_to_json(const DramConfig& d) {
    const DramOrganization& g = d.org;
    const DramTimingCk& t = d.timing;
    const DramEnergyConfig& e = d.energy;
    nlohmann::json j = {{"channels", d.channels},
                        {"organization",
                         {{"pseudo_channels", g.pseudo_channels},
                          {"ranks", g.ranks},
                          {"bank_groups", g.bank_groups},
                          {"banks_per_group", g.banks_per_group},
                          {"rows", g.rows},
                          {"columns", g.columns},
                          {"bus_width_bits", g.bus_width_bits},
                          {"burst_length", g.burst_length}}},
                        {"timing", {{"tCK_ns", t.tck_ns},     {"CL", t.CL},
                                    {"CWL", t.CWL},           {"tRCD", t.tRCD},
                                    {"tRP", t.tRP},           {"tRAS", t.tRAS},
                                    {"tRC", t.tRC},           {"tBURST", t.tBURST},
                                    {"tCCD_S", t.tCCD_S},     {"tCCD_L", t.tCCD_L},
                                    {"tRRD_S", t.tRRD_S},     {"tRRD_L", t.tRRD_L},
                                    {"tFAW", t.tFAW},         {"tWR", t.tWR},
                                    {"tWTR_S", t.tWTR_S},     {"tWTR_L", t.tWTR_L},
                                    {"tRTP", t.tRTP},         {"tRTW", t.tRTW},
                                    {"tRTRS", t.tRTRS},       {"tRFC_ns", t.tRFC_ns},
                                    {"tREFI_ns", t.tREFI_ns}, {"tRFCpb_ns", t.tRFCpb_ns}}},
                        {"energy",
                         {{"commands",
                           {{"act_pj", e.act_pj},
                            {"rd_pj", e.rd_pj},
                            {"wr_pj", e.wr_pj},
                            {"ref_pj", e.ref_pj},
                            {"background_active_mw", e.background_active_mw},
                            {"background_idle_mw", e.background_idle_mw}}},
                          {"io_pj_per_bit", e.io_pj_per_bit}}},
                        {"controller",
                         {{"page_policy", to_string(d.page_policy)},
                          {"scheduler", to_string(d.scheduler)},
                          {"refresh", to_string(d.refresh)},
                          {"queue_depth", d.queue_depth},
                          {"write_high_watermark", d.write_high_watermark},
                          {"write_low_watermark", d.write_low_watermark}}},
                        {"interleave_bytes", d.interleave_bytes},
                        {"energy_pj_per_bit", d.energy_pj_per_bit},
                        {"derived",
                         {{"channel_bandwidth_gbps", d.channel_bandwidth_gbps},
                          {"bandwidth_gbps", d.bandwidth_gbps()},
                          {"access_latency_ns", d.access_latency_ns},
                          {"capacity_bytes", d.capacity_bytes}}}};
    if (!d.address_map.empty()) {
        nlohmann::json m = nlohmann::json::object();
        for (const auto& [field, f] : d.address_map) m[to_string(field)] = f.bits;
        j["address_map"] = m;
    }
    if (!d.source.empty()) j["source"] = d.source;
    if (!d.preset.empty()) j["preset"] = d.preset;
    return j;
}

double dram_stream_pj_per_bit(const DramConfig& d, bool read) {
    const double burst_bits = static_cast<double>(d.org.burst_bytes()) * 8.0;
    const double bursts_per_row = static_cast<double>(d.org.row_bytes()) / static_cast<double>(d.org.burst_bytes());
    const double core = read ? d.energy.rd_pj : d.energy.wr_pj;
    return (core + d.energy.act_pj / bursts_per_row) / burst_bits + d.energy.io_pj_per_bit;
}

double dram_background_mw(const DramConfig& d, double active_fraction) {
    const double f = std::clamp(active_fraction, 0.0, 1.0);
    return static_cast<double>(d.units() * d.org.ranks) *
           (f * d.energy.background_active_mw + (1 - f) * d.energy.background_idle_mw);
}

double dram_refresh_pj(const DramConfig& d, double ns) {
    if (d.timing.tREFI_ns <= 0) return 0.0;
    return static_cast<double>(d.units() * d.org.ranks) * std::floor(ns / d.timing.tREFI_ns) * d.energy.ref_pj;
}

}  // namespace mcmsim
