#include "sim/cli/child_simulation.h"

#include "hw/config/json_input.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <thread>

namespace mcmsim::cli {

namespace {

/// Starts `mcmsim simulate` for one job; returns the child's pid, or -1.
pid_t start_child(const std::string& self, const SimulationJob& job) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    std::vector<std::string> args{self,          "simulate", "--arch",    job.arch_file, "--plan",
                                  job.plan_file, "--out",    job.out_dir, "--quiet"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(self.c_str(), argv.data());
    _exit(127);
}

std::optional<nlohmann::json> read_report(const SimulationJob& job) {
    try {
        return load_json_file(job.out_dir + "/report.json");
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

int child_parallelism() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

std::vector<std::optional<nlohmann::json>> simulate_in_children(const std::vector<SimulationJob>& jobs, int parallel,
                                                                const std::function<void(std::size_t, std::size_t)>& progress) {
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::vector<std::optional<nlohmann::json>> reports(jobs.size());
    std::map<pid_t, std::size_t> running;  // child pid -> job
    std::size_t next = 0, finished = 0;
    parallel = std::max(parallel, 1);
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && static_cast<int>(running.size()) < parallel) {
            pid_t pid = start_child(self, jobs[next]);
            if (pid > 0) running.emplace(pid, next);
            ++next;  // a fork that failed leaves the job's report empty
        }
        if (running.empty()) continue;
        int status = 0;
        pid_t done = waitpid(-1, &status, 0);
        if (done < 0) {
            if (errno == EINTR) continue;
            break;  // no child left to wait for: the remaining jobs stay failed
        }
        auto it = running.find(done);
        if (it == running.end()) continue;  // not one of ours
        std::size_t job = it->second;
        running.erase(it);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) reports[job] = read_report(jobs[job]);
        if (progress) progress(++finished, jobs.size());
    }
    return reports;
}

SimulationRunner child_simulation_runner(std::function<void(std::size_t, std::size_t)> progress) {
    return
        [progress](const std::vector<SimulationJob>& jobs) { return simulate_in_children(jobs, child_parallelism(), progress); };
}

}  // namespace mcmsim::cli
