#include "traces/report/perfetto_trace.h"

#include "hw/common/input_error.h"

#include <fstream>
#include <stdexcept>

namespace mcmsim {

using nlohmann::json;

namespace {

// The trace-event format counts time in microseconds.
double to_us(double ns) { return ns / 1000.0; }

json metadata(const char* what, int pid, int tid, json args) {
    return json{{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

}  // namespace

int TraceWriter::track(const std::string& process_name, const std::string& thread_name) {
    auto key = std::make_pair(process_name, thread_name);
    auto found = track_ids_.find(key);
    if (found != track_ids_.end()) return found->second;

    auto [pit, new_process] = processes_.emplace(process_name, Process{static_cast<int>(processes_.size()) + 1});
    Process& process = pit->second;
    if (new_process) {
        events_.push_back(metadata("process_name", process.pid, 0, {{"name", process_name}}));
        // Without sort indices viewers order by pid/tid anyway; make first-use order explicit.
        events_.push_back(metadata("process_sort_index", process.pid, 0, {{"sort_index", process.pid}}));
    }
    Track t{process.pid, ++process.threads};
    events_.push_back(metadata("thread_name", t.pid, t.tid, {{"name", thread_name}}));
    events_.push_back(metadata("thread_sort_index", t.pid, t.tid, {{"sort_index", t.tid}}));

    int id = static_cast<int>(tracks_.size());
    tracks_.push_back(t);
    track_ids_.emplace(std::move(key), id);
    return id;
}

const TraceWriter::Track& TraceWriter::at(int track) const {
    if (track < 0 || static_cast<std::size_t>(track) >= tracks_.size())
        throw std::out_of_range("TraceWriter: unknown track " + std::to_string(track));
    return tracks_[static_cast<std::size_t>(track)];
}

void TraceWriter::complete(int track, const std::string& name, const std::string& category, double start_ns, double duration_ns,
                           json args) {
    const Track& t = at(track);
    if (!(duration_ns >= 0)) throw std::invalid_argument("TraceWriter: negative duration for \"" + name + "\"");
    json e{{"name", name}, {"cat", category}, {"ph", "X"}, {"ts", to_us(start_ns)}, {"dur", to_us(duration_ns)},
           {"pid", t.pid}, {"tid", t.tid}};
    if (!args.is_null() && !args.empty()) e["args"] = std::move(args);
    events_.push_back(std::move(e));
}

void TraceWriter::counter(int track, const std::string& name, double time_ns, double value) {
    const Track& t = at(track);
    events_.push_back(
        json{{"name", name}, {"ph", "C"}, {"ts", to_us(time_ns)}, {"pid", t.pid}, {"tid", t.tid}, {"args", {{"value", value}}}});
}

json TraceWriter::to_json() const { return json{{"traceEvents", events_}, {"displayTimeUnit", "ns"}}; }

void TraceWriter::write(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "", "a writable file", "none (cannot open)");
    out << to_json().dump() << '\n';
    if (!out) throw InputError(path, "", "a writable file", "a write error");
}

}  // namespace mcmsim
