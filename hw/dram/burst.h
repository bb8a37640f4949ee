#pragma once
// The unit of work inside the controller: one burst of one request, decoded to its bank.
#include "hw/time/tick.h"

#include <cstdint>

namespace mcmsim {

struct DramRequest;

struct Burst {
    DramRequest* request = nullptr;  ///< owner (a TLM transaction in flight)
    Tick arrival = 0;                ///< no command for it may issue earlier
    std::uint64_t seq = 0;           ///< age, for first-come ordering
    bool write = false;
    std::uint16_t rank = 0, bank_group = 0, bank = 0;
    std::uint32_t row = 0, column = 0;
};

}  // namespace mcmsim
