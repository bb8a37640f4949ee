#pragma once
// A small writer for the Chrome trace-event JSON format, which both Perfetto
// (ui.perfetto.dev) and chrome://tracing load. Tracks are (process, thread) pairs named by
// metadata events; activity is "complete" (ph "X") slices and optional counters.
// The format's time unit is the microsecond, so nanosecond times are divided by 1000;
// "displayTimeUnit": "ns" asks the viewer to show them as nanoseconds again.
// Output is deterministic: events appear in call order, ids in order of first use.
// Pure C++: no SystemC.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

class TraceWriter {
public:
    /// Track id for (process, thread); created on first use, stable afterwards. pids are
    /// numbered per distinct process name and tids per thread within it, from 1.
    int track(const std::string& process_name, const std::string& thread_name);

    /// A slice on `track` from start_ns lasting duration_ns (>= 0).
    void complete(int track, const std::string& name, const std::string& category, double start_ns, double duration_ns,
                  nlohmann::json args = {});

    /// A counter sample. Counters belong to the track's process (the format has no
    /// per-thread counters); each `name` becomes one counter track in the viewer.
    void counter(int track, const std::string& name, double time_ns, double value);

    std::size_t event_count() const { return events_.size(); }
    /// {"traceEvents": [...], "displayTimeUnit": "ns"}
    nlohmann::json to_json() const;
    /// Writes to_json() compactly (traces get large); throws InputError if `path` is unwritable.
    void write(const std::string& path) const;

private:
    struct Track {
        int pid;
        int tid;
    };
    struct Process {
        int pid;
        int threads = 0;
    };
    const Track& at(int track) const;

    std::map<std::string, Process> processes_;
    std::map<std::pair<std::string, std::string>, int> track_ids_;
    std::vector<Track> tracks_;
    std::vector<nlohmann::json> events_;
};

}  // namespace mcmsim
