# Sources of mcmsim_chiplets, relative to chiplets/.
set(MCMSIM_CHIPLET_SOURCES chiplet.cpp)
