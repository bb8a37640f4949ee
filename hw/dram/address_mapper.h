#pragma once
// Address decoding by bit fields: each field (channel, pseudo_channel, rank, bank_group, bank,
// row, column) takes the address bits the config lists, so any interleaving can be described.
// Pure C++.
#include "hw/dram/dram_config.h"

#include <array>
#include <cstdint>

namespace mcmsim {

/// Where one burst lives. `unit` flattens channel and pseudo-channel.
struct DramCoord {
    std::uint32_t channel = 0, pseudo_channel = 0, rank = 0, bank_group = 0, bank = 0, row = 0, column = 0;
};

class AddressMapper {
public:
    explicit AddressMapper(const DramConfig& cfg);

    DramCoord decode(std::uint64_t addr) const;
    /// The address of burst-column `c.column` in that row (offset 0): decode's inverse.
    std::uint64_t encode(const DramCoord& c) const;
    std::uint32_t unit_of(const DramCoord& c) const { return c.channel * pseudo_channels_ + c.pseudo_channel; }
    std::uint64_t burst_bytes() const { return burst_bytes_; }

private:
    /// Indexed by DramField, in its order.
    enum Field { Channel, PseudoChannel, Rank, BankGroup, Bank, Row, Column, kFields };
    /// Fields are gathered bit by bit; a table per field keeps decode a handful of shifts.
    std::array<std::vector<int>, kFields> bits_;
    std::uint32_t pseudo_channels_;
    std::uint64_t burst_bytes_;
};

}  // namespace mcmsim
