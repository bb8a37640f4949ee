#include "hw/energy/energy_ledger.h"

namespace mcmsim {

const char* to_string(EnergyCategory c) {
    switch (c) {
        case EnergyCategory::Compute:
            return "compute";
        case EnergyCategory::Sram:
            return "sram";
        case EnergyCategory::Noc:
            return "noc";
        case EnergyCategory::D2d:
            return "d2d";
        case EnergyCategory::Dram:
            return "dram";
        case EnergyCategory::Leakage:
            return "leakage";
    }
    return "?";
}

double EnergyAccount::total() const {
    double t = 0;
    for (double v : pj) t += v;
    return t;
}

EnergyAccount& EnergyLedger::account(const std::string& component) {
    auto& slot = accounts_[component];
    if (!slot) slot = std::make_unique<EnergyAccount>();
    return *slot;
}

void EnergyLedger::accounts_in_order(const std::vector<std::string>& components, std::vector<EnergyAccount*>& out) {
    out.clear();
    auto next = accounts_.begin();
    for (const std::string& name : components) {
        // A hint only saves the search: a wrong one (names out of order) still finds the place.
        auto it = accounts_.emplace_hint(next, name, nullptr);
        if (!it->second) it->second = std::make_unique<EnergyAccount>();
        out.push_back(it->second.get());
        next = std::next(it);
    }
}

EnergyAccount& EnergyLedger::layer_account(std::size_t layer) {
    while (layers_.size() <= layer) layers_.push_back(std::make_unique<EnergyAccount>());
    return *layers_[layer];
}

double EnergyLedger::category_pj(EnergyCategory c) const {
    double t = 0;
    for (const auto& [name, acc] : accounts_) t += acc->pj[static_cast<int>(c)];
    return t;
}

double EnergyLedger::total_pj() const {
    double t = 0;
    for (int c = 0; c < kEnergyCategories; ++c) t += category_pj(static_cast<EnergyCategory>(c));
    return t;
}

nlohmann::json EnergyLedger::breakdown_json() const {
    nlohmann::json out = nlohmann::json::object();
    for (int c = 0; c < kEnergyCategories; ++c) {
        auto cat = static_cast<EnergyCategory>(c);
        out[to_string(cat)] = category_pj(cat);
    }
    return out;
}

nlohmann::json EnergyLedger::components_json() const {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, acc] : accounts_) {
        if (acc->total() == 0) continue;
        nlohmann::json j = {{"total", acc->total()}};
        for (int c = 0; c < kEnergyCategories; ++c)
            if (acc->pj[c] != 0) j[to_string(static_cast<EnergyCategory>(c))] = acc->pj[c];
        out[name] = j;
    }
    return out;
}

}  // namespace mcmsim
