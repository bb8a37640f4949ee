#pragma once
// The energy ledger: every model books its energy here, under one of the report's categories
// and its own component account. The simulation and the analytical model book into the same
// categories, so their breakdowns compare line by line. Pure C++.
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// Leakage: static power of the chiplets over the run (DRAM background power is under Dram).
enum class EnergyCategory : int { Compute = 0, Sram, Noc, D2d, Dram, Leakage };
constexpr int kEnergyCategories = 6;
const char* to_string(EnergyCategory c);

/// Energy booked by one component (a chiplet, a router, a link, a memory).
struct EnergyAccount {
    std::array<double, kEnergyCategories> pj{};
    void add(EnergyCategory c, double energy_pj) { pj[static_cast<int>(c)] += energy_pj; }
    double total() const;
};

class EnergyLedger {
public:
    /// Stable reference to the named account (created on first use). Modules keep it and add
    /// to it directly on their hot paths.
    EnergyAccount& account(const std::string& component);
    /// account() for each of `components`, given in ascending order (the ledger's own): each
    /// goes in next to the one before, without a search (the analytical model opens a few
    /// hundred accounts per estimate). out[k] = &account(components[k]).
    void accounts_in_order(const std::vector<std::string>& components, std::vector<EnergyAccount*>& out);

    /// Energy attributed to plan layer `layer` (a second view of the same bookings).
    EnergyAccount& layer_account(std::size_t layer);
    const std::vector<std::unique_ptr<EnergyAccount>>& layer_accounts() const { return layers_; }

    double total_pj() const;
    double category_pj(EnergyCategory c) const;
    /// {"compute": .., "sram": .., "noc": .., "d2d": .., "dram": ..}
    nlohmann::json breakdown_json() const;
    /// {"component": {"total": .., "<category>": ..}} for components with energy, sorted by name.
    nlohmann::json components_json() const;

private:
    std::map<std::string, std::unique_ptr<EnergyAccount>> accounts_;
    std::vector<std::unique_ptr<EnergyAccount>> layers_;
};

}  // namespace mcmsim
