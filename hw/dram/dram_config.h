#pragma once
// DRAM device + controller configuration: the typed form of a configs/dram/*.json preset
// (plus overrides). Pure C++ (no SystemC): the analytical model reads it too.
//
// A preset describes the device (organization, timing in clock cycles, energy) and the
// controller (page policy, scheduler, queues, refresh mode, address map). Values the rest of
// the simulator reads as plain fields (channel_bandwidth_gbps, access_latency_ns,
// capacity_bytes) are *derived* from the device description by derive_dram(); they are dumped
// under "derived" for information and ignored on input.
#include "hw/config/json_input.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// How the device is built. A "unit" below is one channel or pseudo-channel: the thing that
/// owns a data bus and its banks, and gets its own controller.
struct DramOrganization {
    std::int64_t pseudo_channels = 1;  ///< per channel (HBM pseudo-channels, DDR5 sub-channels)
    std::int64_t ranks = 1;            ///< per unit
    std::int64_t bank_groups = 4;      ///< per rank
    std::int64_t banks_per_group = 4;
    std::int64_t rows = 65536;          ///< per bank
    std::int64_t columns = 64;          ///< column addresses per row (one bus word each)
    std::int64_t bus_width_bits = 128;  ///< data bus width of one unit
    std::int64_t burst_length = 4;      ///< beats per burst (BL)
    std::int64_t burst_bytes() const { return bus_width_bits / 8 * burst_length; }
    std::int64_t row_bytes() const { return bus_width_bits / 8 * columns; }
    std::int64_t banks_per_rank() const { return bank_groups * banks_per_group; }
};

/// Timing in clock cycles of tck_ns (as datasheets and DRAMsim3/Ramulator configs give it);
/// refresh figures in ns. Converted to integer picoseconds per parameter (DramTicks).
struct DramTimingCk {
    double tck_ns = 1.0;
    std::int64_t CL = 14, CWL = 4, tRCD = 14, tRP = 14, tRAS = 34, tRC = 48;
    std::int64_t tBURST = 2;  ///< clock cycles one burst occupies the data bus
    std::int64_t tCCD_S = 1, tCCD_L = 2, tRRD_S = 4, tRRD_L = 6, tFAW = 30;
    std::int64_t tWR = 16, tWTR_S = 6, tWTR_L = 8, tRTP = 4;
    std::int64_t tRTW = 14;  ///< read-to-write command gap (bus turnaround)
    std::int64_t tRTRS = 1;  ///< rank-to-rank data bus switch
    double tRFC_ns = 260, tREFI_ns = 3900;
    double tRFCpb_ns = 0;  ///< per-bank refresh cycle time; 0: the device has none
};

/// Device energy. Either given per command ("commands") or computed from IDD currents
/// ("idd", Micron TN-41-01 / DRAMPower form); both end up as per-command picojoules.
struct DramEnergyConfig {
    double act_pj = 829;              ///< one ACT + its PRE
    double rd_pj = 804;               ///< one read burst (core)
    double wr_pj = 804;               ///< one write burst (core)
    double ref_pj = 0;                ///< one all-bank REF of one rank
    double background_active_mw = 0;  ///< per rank, some bank open (IDD3N)
    double background_idle_mw = 0;    ///< per rank, all banks closed (IDD2N)
    double io_pj_per_bit = 0.6;       ///< interface energy per transferred bit
};

/// One address-map field: the address bits it takes, least significant first.
struct AddressField {
    std::vector<int> bits;
};

/// A coordinate of a burst in the device, each taking address bits in an address map.
enum class DramField { Channel, PseudoChannel, Rank, BankGroup, Bank, Row, Column };
enum class PagePolicy { Open, Closed };
enum class SchedulerKind { FrFcfs, Fcfs };
enum class RefreshMode { AllBank, PerBank };

template <>
struct ChoiceNames<DramField> {
    static constexpr std::pair<DramField, const char*> all[] = {
        {DramField::Channel, "channel"}, {DramField::PseudoChannel, "pseudo_channel"},
        {DramField::Rank, "rank"},       {DramField::BankGroup, "bank_group"},
        {DramField::Bank, "bank"},       {DramField::Row, "row"},
        {DramField::Column, "column"}};
};
template <>
struct ChoiceNames<PagePolicy> {
    static constexpr std::pair<PagePolicy, const char*> all[] = {{PagePolicy::Open, "open"}, {PagePolicy::Closed, "closed"}};
};
template <>
struct ChoiceNames<SchedulerKind> {
    static constexpr std::pair<SchedulerKind, const char*> all[] = {{SchedulerKind::FrFcfs, "fr-fcfs"},
                                                                    {SchedulerKind::Fcfs, "fcfs"}};
};
template <>
struct ChoiceNames<RefreshMode> {
    static constexpr std::pair<RefreshMode, const char*> all[] = {{RefreshMode::AllBank, "all_bank"},
                                                                  {RefreshMode::PerBank, "per_bank"}};
};

/// An address map: which bits each field takes.
using AddressMap = std::vector<std::pair<DramField, AddressField>>;

struct DramConfig {
    std::string preset;
    std::string source;  ///< where the figures come from (free text, from the preset)
    std::int64_t channels = 8;
    DramOrganization org;
    DramTimingCk timing;
    DramEnergyConfig energy;

    // Controller.
    PagePolicy page_policy = PagePolicy::Open;
    SchedulerKind scheduler = SchedulerKind::FrFcfs;
    RefreshMode refresh = RefreshMode::AllBank;
    std::int64_t queue_depth = 32;           ///< bursts per unit before END_REQ is held back
    std::int64_t write_high_watermark = 24;  ///< start draining writes at this many
    std::int64_t write_low_watermark = 8;    ///< stop draining (if reads wait) at this many

    /// Bytes per unit before the default address map moves to the next channel; used only
    /// when `address_map` is empty.
    std::int64_t interleave_bytes = 256;
    /// Explicit address map: field -> bits. Empty: derived from interleave_bytes.
    AddressMap address_map;

    /// Average streaming energy (device + I/O) per bit, the analytical model's figure.
    double energy_pj_per_bit = 3.9;

    // ---- derived by derive_dram() (kept as plain fields: other folders read them) ----
    double channel_bandwidth_gbps = 32;  ///< peak GB/s of one channel (all its pseudo-channels)
    double access_latency_ns = 30;       ///< closed-row read latency tRCD + CL + tBURST
    std::int64_t capacity_bytes = 8LL << 30;

    double bandwidth_gbps() const { return channel_bandwidth_gbps * static_cast<double>(channels); }
    std::int64_t units() const { return channels * org.pseudo_channels; }
    /// Peak GB/s of one unit: a burst every tBURST.
    double unit_bandwidth_gbps() const {
        return static_cast<double>(org.burst_bytes()) / (static_cast<double>(timing.tBURST) * timing.tck_ns);
    }
};

/// Reads the fields of a DRAM preset or override object into `d` (fields absent keep their
/// current value); calls finish(), so unknown keys are errors; then validates the result and
/// recomputes the derived fields. Inconsistent devices (tRC < tRAS + tRP, an address map that
/// overlaps or does not cover the capacity) are InputErrors pointing into `o`.
void read_dram_fields(JsonObject& o, DramConfig& d);

/// Recomputes the derived fields (bandwidth, closed-row latency, capacity) from the device.
void derive_dram(DramConfig& d);

/// Checks consistency; throws InputError(file, pointer under `where`, ...) on the first problem.
/// `where` may be null (hand-built configs): the error then names "<dram config>".
void validate_dram(const DramConfig& d, const JsonObject* where = nullptr);

/// The address map in force: the explicit one, or the default built from interleave_bytes:
/// [burst offset][column low bits up to interleave][pseudo_channel][channel][bank_group][bank]
/// [column high bits][rank][row], least significant first.
AddressMap effective_address_map(const DramConfig& d);

/// Closed-form energy figures of a device, for the analytical model (the simulation books
/// per command instead). A sequential stream opens each row once: per bit it costs the
/// burst's core energy, its I/O, and its share of the row's activation.
double dram_stream_pj_per_bit(const DramConfig& d, bool read);
/// Background power of the whole device, mW: active (a row open) for `active_fraction` of
/// the time, idle (all banks precharged) otherwise.
double dram_background_mw(const DramConfig& d, double active_fraction);
/// Refresh energy of the whole device over `ns` of run time, pJ.
double dram_refresh_pj(const DramConfig& d, double ns);

/// The resolved DRAM configuration (what `config --dump` shows under "dram"); reading it back
/// gives the same configuration.
nlohmann::json dram_to_json(const DramConfig& d);

}  // namespace mcmsim
