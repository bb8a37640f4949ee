#pragma once
// The DRAM command vocabulary shared by the controller, the timing checker and the stats.
#include "hw/time/tick.h"

#include <cstdint>

namespace mcmsim {

enum class DramCommand : std::uint8_t { Act, Pre, Rd, Wr, Ref, RefPb };
constexpr int kDramCommandKinds = 6;

inline const char* to_string(DramCommand c) {
    switch (c) {
        case DramCommand::Act:
            return "ACT";
        case DramCommand::Pre:
            return "PRE";
        case DramCommand::Rd:
            return "RD";
        case DramCommand::Wr:
            return "WR";
        case DramCommand::Ref:
            return "REF";
        case DramCommand::RefPb:
            return "REFPB";
    }
    return "?";
}

/// One command as it appeared on a unit's command bus. `bank` is the bank index within its
/// group; REF (all-bank) leaves bank_group/bank at 0 and means every bank of the rank.
struct IssuedCommand {
    Tick time = 0;
    DramCommand cmd = DramCommand::Act;
    std::uint32_t unit = 0;
    std::uint16_t rank = 0, bank_group = 0, bank = 0;
    std::uint32_t row = 0;
};

}  // namespace mcmsim
