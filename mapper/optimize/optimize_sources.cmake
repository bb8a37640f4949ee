# The optimisers' files (included by mapper/CMakeLists.txt). Paths relative to mapper/.
# The MILP uses COIN-OR CBC with the Clp LP solver (Debian's coinor-libcbc-dev).
set(MCMSIM_OPTIMIZE_SOURCES
  optimize/search_space.cpp
  optimize/route_policy.cpp
  optimize/objective.cpp
  optimize/genome.cpp
  optimize/problem.cpp
  optimize/genetic.cpp
  optimize/formulation.cpp
  optimize/exhaustive.cpp
  optimize/milp.cpp
  optimize/tiny_instance.cpp
  optimize/optimize.cpp
  optimize/hardware_point.cpp
  optimize/progress.cpp
)
pkg_check_modules(CBC REQUIRED IMPORTED_TARGET cbc osi-clp)
find_package(Threads REQUIRED)
set(MCMSIM_OPTIMIZE_LIBS PkgConfig::CBC Threads::Threads)
