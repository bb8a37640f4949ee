# Files of the package-network library (noc/). "packet" model: link, router, network;
# "vc" model: the flit-level VC router network and its synthetic-traffic mode.
set(MCMSIM_NOC_SOURCES
  link.cpp router.cpp network.cpp
  noc_config.cpp
  routing/dimension_order.cpp routing/west_first.cpp routing/diagonal_first.cpp routing/up_down_table.cpp
  vc_router.cpp vc_network.cpp lane_worker.cpp
  zero_load_model.cpp synthetic_traffic.cpp
)
