# The genetic optimiser's wall time with its default budget (bench_ga [simba|organic|all]).
add_executable(bench_ga EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench_ga.cpp)
target_link_libraries(bench_ga PRIVATE mcmsim_mapper)
add_dependencies(benchmarks bench_ga)
