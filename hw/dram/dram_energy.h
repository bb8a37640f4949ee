#pragma once
// Energy of DRAM commands and background, from the preset's per-command figures (given
// directly or computed from IDD currents, see dram_config.cpp). Units: pJ, mW, ns (mW x ns = pJ).
#include "hw/dram/dram_command.h"
#include "hw/dram/dram_config.h"

namespace mcmsim {

class DramEnergyModel {
public:
    explicit DramEnergyModel(const DramConfig& cfg)
        : e_(cfg.energy), burst_bits_(static_cast<double>(cfg.org.burst_bytes()) * 8.0),
          banks_(static_cast<double>(cfg.org.banks_per_rank())) {}

    /// Core energy of one command (ACT carries its PRE; a REFPB is one bank's share of a REF).
    double command_pj(DramCommand c) const {
        switch (c) {
            case DramCommand::Act:
                return e_.act_pj;
            case DramCommand::Pre:
                return 0.0;
            case DramCommand::Rd:
                return e_.rd_pj;
            case DramCommand::Wr:
                return e_.wr_pj;
            case DramCommand::Ref:
                return e_.ref_pj;
            case DramCommand::RefPb:
                return e_.ref_pj / banks_;
        }
        return 0.0;
    }
    /// Interface energy of one burst on the wires.
    double io_pj() const { return e_.io_pj_per_bit * burst_bits_; }
    /// Background of one rank over `active` ticks with a bank open and `idle` ticks without.
    double background_pj(Tick active, Tick idle) const {
        return e_.background_active_mw * ticks_to_ns(active) + e_.background_idle_mw * ticks_to_ns(idle);
    }
    double burst_bits() const { return burst_bits_; }

private:
    DramEnergyConfig e_;
    double burst_bits_, banks_;
};

}  // namespace mcmsim
