#include "io/output_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>

namespace mcsim::io {

namespace fs = std::filesystem;

std::string describe_errno(int error) {
  std::string s = std::strerror(error);
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

namespace {

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error(what + ": " + describe_errno(error));
}

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

void make_folder(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code e;
  fs::create_directories(parent, e);
  if (e) throw std::runtime_error("cannot write '" + path + "': cannot make its folder '" + parent.string() + "': " + e.message());
}

// O_EXCL also refuses a link (dangling or not) at the name: none is followed.
int create_exclusive(const std::string& path, std::string* name) {
  std::random_device random;
  for (int attempt = 0; attempt < 64; ++attempt) {
    *name = fmt::format("{}.{:08x}.tmp", path, random());
    const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail("cannot write '" + path + "' (creating '" + *name + "')", errno);
  }
  throw std::runtime_error("cannot write '" + path + "': no free temp name beside it");
}

bool write_all(int fd, const std::string& bytes) {
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    at += static_cast<std::size_t>(n);
  }
  return true;
}

// Moves tmp onto path unless path exists: one atomic step where the file system
// has it, else a hard link (which also refuses an existing name) and an unlink.
int rename_no_replace(const std::string& tmp, const std::string& path) {
  if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(tmp.c_str(), path.c_str()) != 0) return errno;
  ::unlink(tmp.c_str());
  return 0;
}

void sync_folder(const std::string& path) {
  const int fd = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);  // the rename survives a crash; best effort
  ::close(fd);
}

}  // namespace

namespace {
std::string control_character(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return fmt::format("holds a control character (0x{:02x})", c);
  return "";
}
}  // namespace

std::string file_name_problem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (name.size() > 200) return "has more than 200 characters";
  if (name.front() == '.') return "starts with '.'";
  if (name.find_first_of("/\\") != std::string::npos) return "holds a '/' or '\\'";
  return control_character(name);
}

std::string output_path_problem(const std::string& path) {
  if (path.empty()) return "is empty";
  if (std::string c = control_character(path); !c.empty()) return c;
  if (path.back() == '/' || fs::path(path).filename() == "." || fs::path(path).filename() == "..")
    return "names a folder, not a file";
  return "";
}

void check_output_path(const std::string& path) {
  if (const std::string problem = output_path_problem(path); !problem.empty())
    throw std::runtime_error("the results path '" + path + "' " + problem + "; give a file name with -o or run.output");
  std::error_code e;
  if (fs::is_directory(fs::symlink_status(path, e)) || fs::is_directory(path, e))
    throw std::runtime_error("the results path '" + path + "' is a folder; give a file name inside it");
}

void check_can_write(const std::string& path) {
  make_folder(path);
  std::string tmp;
  ::close(create_exclusive(path, &tmp));
  ::unlink(tmp.c_str());
}

void write_whole_file(const std::string& path, const std::string& bytes, bool replace) {
  make_folder(path);
  std::string tmp;
  const int fd = create_exclusive(path, &tmp);
  // A full disk may show at the write, the flush or the close.
  int error = write_all(fd, bytes) && ::fsync(fd) == 0 ? 0 : errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) {
    ::unlink(tmp.c_str());
    fail("cannot write '" + path + "'", error);
  }
  if (replace) {
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      error = errno;
      ::unlink(tmp.c_str());
      fail("cannot rename '" + tmp + "' to '" + path + "'", error);
    }
  } else if ((error = rename_no_replace(tmp, path)) != 0) {
    if (error == EEXIST)
      throw std::runtime_error("'" + path + "' exists (it appeared while this run was going) and is kept; pass --force "
                               "to replace it. The results are in '" + tmp + "'");
    fail("cannot rename '" + tmp + "' to '" + path + "' (the results are kept there)", error);
  }
  sync_folder(path);
}

OutputClaim::OutputClaim(const std::string& output) : lock_(output + ".lock") {
  make_folder(output);
  // A run that finishes removes its lock file: lock, then check that the name
  // still leads to the file locked, else try again with the new one.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const int fd = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot lock '" + output + "' (opening '" + lock_ + "')", errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      char pid[32] = {0};
      const ssize_t n = ::pread(fd, pid, sizeof pid - 1, 0);
      ::close(fd);
      if (error != EWOULDBLOCK) fail("cannot lock '" + output + "' ('" + lock_ + "')", error);
      std::string who = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : std::string();
      while (!who.empty() && std::isspace(static_cast<unsigned char>(who.back()))) who.pop_back();
      throw std::runtime_error("another mcsim run" + (who.empty() ? "" : " (pid " + who + ")") + " is writing '" +
                               output + "' and holds '" + lock_ + "'; wait for it, or write elsewhere with -o");
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock_.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      const std::string pid = std::to_string(::getpid()) + "\n";
      if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
  throw std::runtime_error("cannot lock '" + output + "': '" + lock_ + "' keeps changing");
}

OutputClaim::~OutputClaim() { release(); }
OutputClaim::OutputClaim(OutputClaim&& o) noexcept : fd_(o.fd_), lock_(std::move(o.lock_)) { o.fd_ = -1; }
OutputClaim& OutputClaim::operator=(OutputClaim&& o) noexcept {
  if (this != &o) {
    release();
    fd_ = o.fd_, lock_ = std::move(o.lock_);
    o.fd_ = -1;
  }
  return *this;
}
void OutputClaim::release() {
  if (fd_ < 0) return;
  ::unlink(lock_.c_str());  // while still held, so no one locks a file about to vanish
  ::close(fd_);
  fd_ = -1;
}

}  // namespace mcsim::io
