#include "mapper/optimize/objective.h"

#include "hw/common/input_error.h"

namespace mcmsim {

Objective parse_objective(const std::string& s) {
    if (s == "edp") return Objective::Edp;
    if (s == "latency") return Objective::Latency;
    if (s == "energy") return Objective::Energy;
    throw InputError("", "--objective", "one of edp, latency, energy", "\"" + s + "\"");
}

const char* to_string(Objective o) {
    switch (o) {
        case Objective::Edp: return "edp";
        case Objective::Latency: return "latency";
        case Objective::Energy: return "energy";
    }
    return "?";
}

double printable(const Score& s, Objective o) {
    switch (o) {
        case Objective::Latency: return s.latency_ns;
        case Objective::Energy: return s.energy_pj;
        case Objective::Edp: break;
    }
    return s.edp_js();
}

const char* printable_unit(Objective o) {
    switch (o) {
        case Objective::Latency: return "ns";
        case Objective::Energy: return "pJ";
        case Objective::Edp: break;
    }
    return "J*s";
}

}  // namespace mcmsim
