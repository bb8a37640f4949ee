#include "mapper/optimize/objective.h"

namespace mcmsim {

double printable(const Score& s, Objective o) {
    switch (o) {
        case Objective::Latency:
            return s.latency_ns;
        case Objective::Energy:
            return s.energy_pj;
        case Objective::Edp:
            break;
    }
    return s.edp_js();
}

const char* printable_unit(Objective o) {
    switch (o) {
        case Objective::Latency:
            return "ns";
        case Objective::Energy:
            return "pJ";
        case Objective::Edp:
            break;
    }
    return "J*s";
}

}  // namespace mcmsim
