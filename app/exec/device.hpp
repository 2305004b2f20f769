// A device of this rank (the CPU's OpenMP threads, or one GPU): its kind, name and
// the time spent on it, and the executors the families run on it. An executor is
// made on a family's first use of the device and kept for the device's life, so a
// job's scenarios and Greek reruns reuse what it set up (CUDA contexts, device
// copies of the model, buffers). The device knows no family: each family's
// executor type names itself (Executor::make) and the device only keeps it.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <vector>

#include "app/exec/trace.hpp"
#include "io/config.hpp"

namespace mcsim {

enum class DeviceKind { Cpu, Cuda };
const char* to_string(DeviceKind k);  // "cpu", "cuda": the backend as results name it

struct DeviceTiming {
  std::string device;
  double seconds = 0;    // wall time of the calls made to it
  double kernel_ms = 0;  // GPU: kernel time by CUDA events (0 on the CPU)
  std::uint64_t paths = 0;
};

class Device;

// What every family's executor derives from.
class Executor {
 public:
  virtual ~Executor() = default;
};

class Device {
 public:
  Device(DeviceKind kind, int ordinal, std::string name);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  DeviceKind kind() const { return kind_; }
  int ordinal() const { return ordinal_; }  // the CUDA device number (0 for the CPU)
  const std::string& name() const { return name_; }
  // The fewest chunks worth handing over at once (the CPU: one per thread).
  std::uint64_t min_unit() const { return min_unit_; }
  // True when work runs off the host's cores, so the host may prepare the next unit
  // meanwhile (a GPU; not the CPU, whose threads would compete).
  bool beside_host() const { return kind_ != DeviceKind::Cpu; }

  // Runs f on the CPU device's own thread and waits for it, so the device's
  // OpenMP team is made once and kept: a team belongs to the thread that starts it,
  // and a fresh one a call (a sweep's scenario, a unit on a new thread) would leave
  // the last one's threads spinning on the cores the next one needs. On a GPU, or
  // from that thread, f runs where it is called. f's exception is rethrown here.
  void run(const std::function<void()>& f);

  // Adds a call's figures; calls may overlap (risk losses ahead of sums), so
  // overlapping calls count their wall time twice.
  void add_time(double seconds, double kernel_ms, std::uint64_t paths);
  DeviceTiming timing() const;

  // E's executor on this device: E::make(*this) on first use, then the same one.
  template <class E>
  E& executor() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<Executor>& slot = executors_[std::type_index(typeid(E))];
    if (!slot) slot = E::make(*this);
    return static_cast<E&>(*slot);
  }

 private:
  DeviceKind kind_;
  int ordinal_;
  std::string name_;
  std::uint64_t min_unit_;
  mutable std::mutex mutex_;
  DeviceTiming timing_;
  std::map<std::type_index, std::unique_ptr<Executor>> executors_;
  struct Home;  // the CPU's own thread (device.cpp)
  std::unique_ptr<Home> home_;
};

// One call's figures, added to its device when the call ends (however it ends).
class TimedCall {
 public:
  TimedCall(Device& device, std::uint64_t paths)
      : device_(device), paths_(paths), start_(std::chrono::steady_clock::now()), range_(device.name().c_str()) {}
  ~TimedCall() {
    device_.add_time(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(), kernel_ms, paths_);
  }
  TimedCall(const TimedCall&) = delete;
  TimedCall& operator=(const TimedCall&) = delete;
  double kernel_ms = 0;

 private:
  Device& device_;
  std::uint64_t paths_;
  std::chrono::steady_clock::time_point start_;
  TraceRange range_;  // the call on the profiler's timeline, named after the device
};

// A family's executor for the device's kind, from its CPU and CUDA makers (the
// latter MCSIM_CUDA_MAKER(f), null in a build without CUDA).
template <class E>
std::unique_ptr<E> executor_for(Device& d, std::unique_ptr<E> (*cpu)(Device&), std::unique_ptr<E> (*cuda)(Device&)) {
  if (d.kind() == DeviceKind::Cpu) return cpu(d);
  if (!cuda) throw std::logic_error("a CUDA device in a build without CUDA");
  return cuda(d);
}
#ifdef MCSIM_HAVE_CUDA
#define MCSIM_CUDA_MAKER(f) (&f)
#else
#define MCSIM_CUDA_MAKER(f) nullptr
#endif

using Devices = std::vector<std::unique_ptr<Device>>;

// This rank's devices: the CPU, or its GPUs (all of the node's when it is the
// node's only rank, else the GPU of its node-local rank). Auto takes the GPUs when
// one is usable; Cuda throws, saying why, when none is.
Devices make_devices(io::BackendChoice choice);
std::unique_ptr<Device> make_cpu_device();

// CUDA devices (app/exec/cuda_devices.cu; without a CUDA build, none).
// How many are usable, or 0 with the reason in *why.
int cuda_device_count(std::string* why);
std::string cuda_device_name(int ordinal);  // "cuda:N NAME"
// Empty when this binary holds code device `ordinal` runs; else why not and how to
// rebuild (a run stops on it before any work).
std::string cuda_device_unusable(int ordinal);
// One line per CUDA device, or the reason there is none.
std::vector<std::string> cuda_device_report();

// The first block of each stream (seed, subsequence) as drawn on the GPU: its four
// words, four float normals and two double normals. Lets tests and `mcsim devices`
// check that the device streams equal the host's. Empty when no device is usable.
struct StreamDraws {
  std::vector<std::uint32_t> words;  // 4 per stream
  std::vector<float> normals_f;      // 4 per stream
  std::vector<double> normals_d;     // 2 per stream
};
StreamDraws cuda_stream_draws(std::uint64_t seed, const std::vector<std::uint64_t>& subsequences);

}  // namespace mcsim
