# Files of hw/topology (paths relative to hw/).
set(MCMSIM_TOPOLOGY_SOURCES topology/mesh_topology.cpp topology/noc_topology.cpp)
