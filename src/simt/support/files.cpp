// Files and processes (POSIX).
#include "support/files.h"
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include "support/error.h"

extern char** environ;

namespace simt {

bool read_file(const std::string& path, std::string& out) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    out.clear();
    char buf[1 << 16];
    while (true) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            ::close(fd);
            return false;
        }
        if (n == 0) break;
        out.append(buf, size_t(n));
    }
    ::close(fd);
    return true;
}

std::string unique_suffix() {
    static std::atomic<uint64_t> counter{0};
    static const uint64_t salt = std::random_device{}();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%d.%llu.%llx", int(::getpid()), (unsigned long long)counter++,
                  (unsigned long long)(salt & 0xffffffffu));
    return buf;
}

std::vector<std::string> split(const std::string& text, const char* separators) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find_first_of(separators, start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

void write_file_atomic(const std::string& path, const std::string& data) {
    std::string tmp = path + ".tmp." + unique_suffix();
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) raise(ErrorKind::Os, "cannot write %s: %s", tmp.c_str(), std::strerror(errno));
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            raise(ErrorKind::Os, "cannot write %s: %s", tmp.c_str(), std::strerror(err));
        }
        done += size_t(n);
    }
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        raise(ErrorKind::Os, "cannot rename %s to %s: %s", tmp.c_str(), path.c_str(), std::strerror(err));
    }
}

bool file_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

void make_private_directory(const std::string& path) {
    if (path.empty()) raise(ErrorKind::Value, "empty directory path");
    size_t pos = 0;
    while (true) {
        pos = path.find('/', pos + 1);
        std::string part = path.substr(0, pos);
        bool last = pos == std::string::npos;
        if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
            raise(ErrorKind::Os, "cannot create directory %s: %s", part.c_str(), std::strerror(errno));
        if (last) break;
    }
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) raise(ErrorKind::Os, "cannot stat %s: %s", path.c_str(), std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) raise(ErrorKind::Os, "%s is not a directory", path.c_str());
    if (st.st_uid != ::geteuid())
        raise(ErrorKind::Os, "cache directory %s is owned by another user; simt loads code from it, so it must be yours", path.c_str());
    if (st.st_mode & 077) {
        if (::chmod(path.c_str(), 0700) != 0)
            raise(ErrorKind::Os, "cache directory %s is accessible to other users and cannot be made private", path.c_str());
    }
}

std::string find_in_path(const std::string& program) {
    if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0 ? program : "";
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        if (dir.empty()) dir = ".";
        std::string candidate = dir + "/" + program;
        struct stat st;
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return "";
}

ProcessResult run_process(const std::vector<std::string>& argv) {
    ProcessResult result;
    int pipefd[2];
    if (::pipe2(pipefd, O_CLOEXEC) != 0) raise(ErrorKind::Os, "pipe failed: %s", std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipefd[1]);
    if (rc != 0) {
        ::close(pipefd[0]);
        raise(ErrorKind::Os, "cannot run %s: %s", argv[0].c_str(), std::strerror(rc));
    }
    char buf[4096];
    while (true) {
        ssize_t n = ::read(pipefd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.output.append(buf, size_t(n));
    }
    ::close(pipefd[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

}  // namespace simt
