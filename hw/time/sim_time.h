#pragma once
// Models compute with integer picoseconds (hw/time/tick.h) and touch sc_time only to schedule
// their next wake-up.
#include "hw/time/tick.h"

#include <systemc>

namespace mcmsim {

/// Call once before any sc_time is built; the whole simulator assumes 1 ps resolution.
void init_time_resolution();

inline Tick now_ticks() { return sc_core::sc_time_stamp().value(); }
inline sc_core::sc_time to_sc_time(Tick t) { return sc_core::sc_time::from_value(t); }

}  // namespace mcmsim
