// Device memory that grows to the largest size asked of it and is kept between
// calls, and CUDA errors as exceptions that name the device and the step. For the
// CUDA backend's files only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mcsim {

inline void check_cuda(cudaError_t e, int device, const std::string& what) {
  if (e != cudaSuccess)
    throw std::runtime_error("CUDA error on device " + std::to_string(device) + " during " + what + ": " +
                             cudaGetErrorString(e));
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // At least `bytes` on the current device; what it held is kept unless it grows.
  void* room(std::size_t bytes, int device) {
    if (bytes > bytes_) {
      if (ptr_) cudaFree(ptr_);
      ptr_ = nullptr;
      check_cuda(cudaMalloc(&ptr_, bytes), device, "allocation of " + std::to_string(bytes) + " bytes");
      bytes_ = bytes;
    }
    return ptr_;
  }
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace mcsim
