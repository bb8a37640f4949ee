#pragma once
// What an optimiser minimises: latency, energy, or their product (EdP). Pure C++.
#include "hw/common/choice.h"

#include <string>

namespace mcmsim {

enum class Objective { Edp, Latency, Energy };

template <>
struct ChoiceNames<Objective> {
    static constexpr std::pair<Objective, const char*> all[] = {
        {Objective::Edp, "edp"}, {Objective::Latency, "latency"}, {Objective::Energy, "energy"}};
};

/// Latency and energy of one candidate, however it was evaluated.
struct Score {
    double latency_ns = 0;
    double energy_pj = 0;
    double value(Objective o) const {
        switch (o) {
            case Objective::Latency:
                return latency_ns;
            case Objective::Energy:
                return energy_pj;
            case Objective::Edp:
                break;
        }
        return latency_ns * energy_pj;
    }
    /// EdP in J·s (pJ x ns = 1e-21 J·s).
    double edp_js() const { return latency_ns * energy_pj * 1e-21; }
};

/// Unit of value(o) for printing: "ns", "pJ", "J*s" (EdP printed in J*s).
double printable(const Score& s, Objective o);
const char* printable_unit(Objective o);

}  // namespace mcmsim
