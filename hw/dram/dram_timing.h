#pragma once
// Device timing in integer picoseconds: each cycle count of DramTimingCk converted once
// (round(cycles x tCK)), so the controller, the checker and the tests add exact integers.
#include "hw/dram/dram_config.h"
#include "hw/time/tick.h"

namespace mcmsim {

struct DramTicks {
    Tick tCK, CL, CWL, tRCD, tRP, tRAS, tRC, tBURST, tCCD_S, tCCD_L, tRRD_S, tRRD_L, tFAW;
    Tick tWR, tWTR_S, tWTR_L, tRTP, tRTW, tRTRS, tRFC, tREFI, tRFCpb;
    /// WR command to the end of its write recovery (earliest PRE of that bank).
    Tick write_to_precharge() const { return CWL + tBURST + tWR; }
    /// WR command to the earliest RD of the same bank group / another bank group.
    Tick write_to_read_l() const { return CWL + tBURST + tWTR_L; }
    Tick write_to_read_s() const { return CWL + tBURST + tWTR_S; }
};

inline DramTicks dram_ticks(const DramTimingCk& t) {
    auto ck = [&](std::int64_t c) { return ns_to_ticks(static_cast<double>(c) * t.tck_ns); };
    DramTicks k{};
    k.tCK = ck(1);
    k.CL = ck(t.CL);
    k.CWL = ck(t.CWL);
    k.tRCD = ck(t.tRCD);
    k.tRP = ck(t.tRP);
    k.tRAS = ck(t.tRAS);
    k.tRC = ck(t.tRC);
    k.tBURST = ck(t.tBURST);
    k.tCCD_S = ck(t.tCCD_S);
    k.tCCD_L = ck(t.tCCD_L);
    k.tRRD_S = ck(t.tRRD_S);
    k.tRRD_L = ck(t.tRRD_L);
    k.tFAW = ck(t.tFAW);
    k.tWR = ck(t.tWR);
    k.tWTR_S = ck(t.tWTR_S);
    k.tWTR_L = ck(t.tWTR_L);
    k.tRTP = ck(t.tRTP);
    k.tRTW = ck(t.tRTW);
    k.tRTRS = ck(t.tRTRS);
    k.tRFC = ns_to_ticks(t.tRFC_ns);
    k.tREFI = ns_to_ticks(t.tREFI_ns);
    k.tRFCpb = ns_to_ticks(t.tRFCpb_ns);
    return k;
}

}  // namespace mcmsim
