// Device memory that grows to the largest size asked of it and is kept between
// calls, CUDA errors as exceptions that name the device and the step, and a timer
// of device work by CUDA events, streams. For the CUDA executors only.
#pragma once
#include <cuda_runtime.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>

namespace mcsim {

inline void check_cuda(cudaError_t e, int device, const std::string& what) {
  if (e != cudaSuccess)
    throw std::runtime_error("CUDA error on device " + std::to_string(device) + " during " + what + ": " +
                             cudaGetErrorString(e));
}

// Scratch bytes in a thrust::device_vector: RAII, and Thrust's allocator.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  // At least `bytes` on the current device; what it held is kept unless it grows.
  void* room(std::size_t bytes, int device) {
    if (bytes > bytes_.size()) {
      try {
        bytes_.clear();
        bytes_.shrink_to_fit();  // the old bytes go before the new: they are not kept
        bytes_.resize(bytes);
      } catch (const std::exception& e) {  // thrust::system_error, std::bad_alloc
        throw std::runtime_error("CUDA error on device " + std::to_string(device) + " during allocation of " +
                                 std::to_string(bytes) + " bytes: " + e.what());
      }
    }
    return get();
  }
  void* get() { return bytes_.empty() ? nullptr : thrust::raw_pointer_cast(bytes_.data()); }

 private:
  thrust::device_vector<unsigned char> bytes_;
};

// A stream that waits for the default stream's earlier work and is waited for by
// its later work (cudaStreamCreate's blocking kind).
class Stream {
 public:
  explicit Stream(int device) { check_cuda(cudaStreamCreate(&stream_), device, "stream creation"); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_;
};

// A point in one stream's work that another stream's later work waits for.
class Mark {
 public:
  explicit Mark(int device) : device_(device) {
    check_cuda(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), device_, "event creation");
  }
  ~Mark() { cudaEventDestroy(event_); }
  Mark(const Mark&) = delete;
  Mark& operator=(const Mark&) = delete;
  void record(cudaStream_t in) { check_cuda(cudaEventRecord(event_, in), device_, "event record"); }
  void before(cudaStream_t other) { check_cuda(cudaStreamWaitEvent(other, event_, 0), device_, "stream wait"); }

 private:
  int device_;
  cudaEvent_t event_;
};

// The device's milliseconds for the work queued on the default stream between
// construction and ms(), which waits for it.
class EventTimer {
 public:
  explicit EventTimer(int device) : device_(device) {
    check_cuda(cudaEventCreate(&start_), device_, "event creation");
    check_cuda(cudaEventCreate(&stop_), device_, "event creation");
    check_cuda(cudaEventRecord(start_), device_, "event record");
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  float ms(const std::string& what) {
    check_cuda(cudaEventRecord(stop_), device_, "event record");
    check_cuda(cudaEventSynchronize(stop_), device_, what);
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), device_, "event timing");
    return ms;
  }

 private:
  int device_;
  cudaEvent_t start_, stop_;
};

}  // namespace mcsim
