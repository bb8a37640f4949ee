#pragma once
// The packet network model against the flit-level VC network on one plan (`mcmsim
// crosscheck`), from the two simulations' report.json: totals, each layer's completion time,
// and each package link's bytes and busy time. The VC network is the reference. Pure C++.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace mcmsim {

struct NetworkCrosscheck {
    nlohmann::json json;  ///< crosscheck.json
    std::string summary;  ///< a few lines for the terminal
};

/// `flit_bytes` turns the VC network's flit counts into bytes (both count whole flits).
NetworkCrosscheck crosscheck_networks(const nlohmann::json& packet_report, const nlohmann::json& vc_report,
                                      std::int64_t flit_bytes);

}  // namespace mcmsim
