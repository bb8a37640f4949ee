#include "hw/dram/address_mapper.h"

namespace mcmsim {

AddressMapper::AddressMapper(const DramConfig& cfg)
    : pseudo_channels_(static_cast<std::uint32_t>(cfg.org.pseudo_channels)),
      burst_bytes_(static_cast<std::uint64_t>(cfg.org.burst_bytes())) {
    for (const auto& [field, f] : effective_address_map(cfg)) bits_[static_cast<std::size_t>(field)] = f.bits;
}

DramCoord AddressMapper::decode(std::uint64_t addr) const {
    std::array<std::uint32_t, kFields> v{};
    for (int k = 0; k < kFields; ++k) {
        std::uint32_t x = 0;
        const auto& b = bits_[static_cast<std::size_t>(k)];
        for (std::size_t i = 0; i < b.size(); ++i) x |= static_cast<std::uint32_t>((addr >> b[i]) & 1u) << i;
        v[static_cast<std::size_t>(k)] = x;
    }
    return DramCoord{v[Channel], v[PseudoChannel], v[Rank], v[BankGroup], v[Bank], v[Row], v[Column]};
}

std::uint64_t AddressMapper::encode(const DramCoord& c) const {
    const std::array<std::uint32_t, kFields> v{c.channel, c.pseudo_channel, c.rank, c.bank_group, c.bank, c.row, c.column};
    std::uint64_t addr = 0;
    for (int k = 0; k < kFields; ++k) {
        const auto& b = bits_[static_cast<std::size_t>(k)];
        for (std::size_t i = 0; i < b.size(); ++i)
            addr |= static_cast<std::uint64_t>((v[static_cast<std::size_t>(k)] >> i) & 1u) << b[i];
    }
    return addr;
}

}  // namespace mcmsim
