# The chiplet compute model (pure C++), compiled into mcmsim_hw; paths relative to hw/.
# The energy reference tables (energy_reference.h, sram_energy.h) are header-only.
set(MCMSIM_COMPUTE_SOURCES
  compute/pe_array_model.cpp
  compute/tiling.cpp
  compute/buffer_traffic.cpp
  compute/compute_cost.cpp
)
