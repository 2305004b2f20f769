#include "app/exec/device.hpp"

#include <omp.h>

#include <condition_variable>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

#include "app/exec/cpu_clones.hpp"
#include "reduce/mpi.hpp"

namespace mcsim {

const char* to_string(DeviceKind k) { return k == DeviceKind::Cpu ? "cpu" : "cuda"; }

Device::Device(DeviceKind kind, int ordinal, std::string name)
    : kind_(kind),
      ordinal_(ordinal),
      name_(std::move(name)),
      min_unit_(kind == DeviceKind::Cpu ? static_cast<std::uint64_t>(omp_get_max_threads()) : 1) {
  timing_.device = name_;
}

// One task at a time: callers queue on `calls`, the thread runs `task` and
// clears it.
struct Device::Home {
  std::mutex calls, mutex;
  std::condition_variable wake, done;
  const std::function<void()>* task = nullptr;
  std::exception_ptr error;
  bool stop = false;
  std::thread thread;

  Home() : thread([this] { loop(); }) {}
  ~Home() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    wake.notify_one();
    thread.join();
  }
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [this] { return stop || task; });
      if (!task) return;
      lock.unlock();
      std::exception_ptr e;
      try {
        (*task)();
      } catch (...) {
        e = std::current_exception();
      }
      lock.lock();
      error = e, task = nullptr;
      done.notify_one();
    }
  }
  void run(const std::function<void()>& f) {
    std::lock_guard<std::mutex> one(calls);
    std::unique_lock<std::mutex> lock(mutex);
    task = &f;
    wake.notify_one();
    done.wait(lock, [this] { return task == nullptr; });
    if (std::exception_ptr e = std::exchange(error, nullptr)) std::rethrow_exception(e);
  }
};

Device::~Device() = default;

void Device::run(const std::function<void()>& f) {
  if (kind_ != DeviceKind::Cpu) return f();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!home_) home_ = std::make_unique<Home>();
  }
  if (std::this_thread::get_id() == home_->thread.get_id()) return f();
  home_->run(f);
}

void Device::add_time(double seconds, double kernel_ms, std::uint64_t paths) {
  std::lock_guard<std::mutex> lock(mutex_);
  timing_.seconds += seconds;
  timing_.kernel_ms += kernel_ms;
  timing_.paths += paths;
}

DeviceTiming Device::timing() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return timing_;
}

std::unique_ptr<Device> make_cpu_device() {
  if (const char* level = missing_cpu_level())
    throw std::runtime_error(std::string("this mcsim's CPU loops were built for ") + level +
                             " CPUs alone (MCSIM_CPU_LEVELS=host) and this CPU lacks it; rebuild with "
                             "-DMCSIM_CPU_LEVELS=all for a binary that runs on any x86-64 CPU");
  return std::make_unique<Device>(DeviceKind::Cpu, 0, "cpu (" + std::to_string(omp_get_max_threads()) + " threads)");
}

Devices make_devices(io::BackendChoice choice) {
  Devices out;
  std::string why;
  const int count = choice == io::BackendChoice::Cpu ? 0 : cuda_device_count(&why);
  if (count > 0) {
    const auto add = [&](int d) {
      if (const std::string why_not = cuda_device_unusable(d); !why_not.empty()) throw std::runtime_error(why_not);
      out.push_back(std::make_unique<Device>(DeviceKind::Cuda, d, cuda_device_name(d)));
    };
    if (mpi::local_size() > 1) add(mpi::local_rank() % count);
    else
      for (int d = 0; d < count; ++d) add(d);
    return out;
  }
  if (choice == io::BackendChoice::Cuda) throw std::runtime_error("backend cuda was requested but is not usable: " + why);
  out.push_back(make_cpu_device());
  return out;
}

}  // namespace mcsim
