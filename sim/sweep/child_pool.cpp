#include "sim/sweep/child_pool.h"

#include "hw/common/input_error.h"
#include "traces/report/report.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace mcmsim {

namespace fs = std::filesystem;

namespace {

std::string last_stderr_line(const std::string& path) {
    std::ifstream f(path);
    std::string line, last;
    while (std::getline(f, line))
        if (!line.empty()) last = line;
    return last;
}

}  // namespace

std::string prepare_point_dir(const std::string& out_dir, const SweepPoint& p, const SweepSpec& spec) {
    const std::string dir = out_dir + "/points/" + p.hash;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(dir, "", "a directory that can be created", ec.message());
    write_text_file(p.arch.dump(1) + "\n", dir + "/arch.json");
    write_text_file(p.job(spec).dump(1) + "\n", dir + "/point.json");
    fs::remove(dir + "/result.json", ec);  // from a run that was cut short
    return dir;
}

ChildPool::ChildPool(std::string self, std::string out_dir, const SweepSpec& spec, int slots)
    : self_(std::move(self)), out_dir_(std::move(out_dir)), spec_(spec), slots_(std::max(1, slots)) {}

void ChildPool::start(const SweepPoint& p, std::size_t tag) {
    const std::string dir = prepare_point_dir(out_dir_, p, spec_);
    // posix_spawn rather than fork: the parent may be an MPI rank, whose libraries do not
    // expect a forked copy of themselves.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string cmd = "sweep-point";
    std::vector<char*> argv = {self_.data(), cmd.data(), const_cast<char*>(dir.c_str()), nullptr};
    // The child is no MPI process: it gets the environment without the launcher's variables,
    // which would make the MPI library it is linked with set itself up.
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string v = *e;
        if (v.rfind("OMPI_", 0) != 0 && v.rfind("PMIX_", 0) != 0 && v.rfind("PMI_", 0) != 0) env.push_back(v);
    }
    std::vector<char*> envp;
    for (std::string& v : env) envp.push_back(v.data());
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, self_.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("sweep: cannot start " + self_ + ": " + std::strerror(rc));
    running_.emplace(pid, Child{tag, dir, std::chrono::steady_clock::now()});
}

PointResult ChildPool::result_of(const Child& c, int status) const {
    PointResult r;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        try {
            std::ifstream f(c.dir + "/result.json");
            nlohmann::json j = nlohmann::json::parse(f);
            r.status = PointStatus::Ok;
            r.figures = j.at("figures");
            return r;
        } catch (const std::exception&) {
            r.status = PointStatus::Failed;
            r.reason = "no readable result.json";
            return r;
        }
    }
    r.status = PointStatus::Failed;
    r.reason = last_stderr_line(c.dir + "/stderr.txt");
    if (r.reason.empty())
        r.reason = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                       : "exit " + std::to_string(WEXITSTATUS(status));
    return r;
}

std::vector<std::pair<std::size_t, PointResult>> ChildPool::reap(bool block) {
    std::vector<std::pair<std::size_t, PointResult>> out;
    while (!running_.empty()) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, block && out.empty() ? 0 : WNOHANG);
        if (pid == 0) break;
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        const auto it = running_.find(pid);
        if (it == running_.end()) continue;
        out.emplace_back(it->second.tag, result_of(it->second, status));
        running_.erase(it);
    }
    return out;
}

}  // namespace mcmsim
