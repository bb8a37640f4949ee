# The DRAM model's own files (included from hw/CMakeLists.txt).
# Pure C++ (configuration, address mapping, timing checker): library mcmsim_hw.
set(MCMSIM_DRAM_CONFIG_SOURCES
  dram/dram_config.cpp
  dram/address_mapper.cpp
  dram/timing_checker.cpp
)
# SystemC side (controller engine and the TLM-2.0 target): library mcmsim_hw_sc.
set(MCMSIM_DRAM_SOURCES
  dram/channel_controller.cpp
  dram/dram_target.cpp
  dram/dram_traffic.cpp
)
