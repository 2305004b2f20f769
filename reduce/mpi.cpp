#include "reduce/mpi.hpp"

#include <cstdlib>

#if defined(MCSIM_HAVE_MPI)
#define OMPI_SKIP_MPICXX 1  // the C API only: no C++ bindings to link
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#endif

namespace mcsim::mpi {

bool launched() {
  // Open MPI's mpirun; PMI/PMI-2 (MPICH, Intel MPI, srun --mpi=pmi2); PMIx (srun
  // --mpi=pmix, Open MPI 4); MVAPICH2.
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

#if defined(MCSIM_HAVE_MPI)

namespace {
bool started() {
  int init = 0, done = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&done);
  return init && !done;
}
MPI_Comm node_comm() {
  static MPI_Comm comm = MPI_COMM_NULL;
  if (comm == MPI_COMM_NULL) MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm);
  return comm;
}
constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;  // elements per message
constexpr int kTagLength = 1, kTagData = 2;

template <class T>
void send_all(const T* data, std::uint64_t n, MPI_Datatype type) {
  MPI_Send(&n, 1, MPI_UINT64_T, 0, kTagLength, MPI_COMM_WORLD);
  for (std::uint64_t at = 0; at < n; at += kPiece)
    MPI_Send(data + at, static_cast<int>(std::min(kPiece, n - at)), type, 0, kTagData, MPI_COMM_WORLD);
}
template <class Vec>
Vec receive_all(int from, MPI_Datatype type) {
  std::uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, kTagLength, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Vec v(n, typename Vec::value_type{});
  for (std::uint64_t at = 0; at < n; at += kPiece)
    MPI_Recv(&v[at], static_cast<int>(std::min(kPiece, n - at)), type, from, kTagData, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  return v;
}
template <class Vec>
std::vector<Vec> gather_any(const Vec& mine, MPI_Datatype type) {
  if (size() == 1) return {mine};
  if (!master()) {
    send_all(mine.data(), mine.size(), type);
    return {};
  }
  std::vector<Vec> all{mine};
  for (int r = 1; r < size(); ++r) all.push_back(receive_all<Vec>(r, type));
  return all;
}
}  // namespace

void init(int* argc, char*** argv) {
  if (!started()) MPI_Init(argc, argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}
void finalize() {
  if (started()) MPI_Finalize();
}
int rank() {
  if (!started()) return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  if (!started()) return 1;
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
int local_rank() {
  if (!started()) return 0;
  int r = 0;
  MPI_Comm_rank(node_comm(), &r);
  return r;
}
int local_size() {
  if (!started()) return 1;
  int s = 1;
  MPI_Comm_size(node_comm(), &s);
  return s;
}
int max_over_ranks(int v) {
  if (size() == 1) return v;
  int out = v;
  MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}
int broadcast(int v) {
  if (size() > 1) MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}
std::uint64_t broadcast(std::uint64_t v) {
  if (size() > 1) MPI_Bcast(&v, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return v;
}
std::vector<double> broadcast(std::vector<double> v) {
  if (size() <= 1) return v;
  std::uint64_t n = broadcast(static_cast<std::uint64_t>(v.size()));
  v.resize(n);
  if (n) MPI_Bcast(v.data(), static_cast<int>(n), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return v;
}
std::string broadcast(std::string v) {
  if (size() <= 1) return v;
  const std::uint64_t n = broadcast(static_cast<std::uint64_t>(v.size()));
  v.resize(n);
  for (std::uint64_t at = 0; at < n; at += kPiece)
    MPI_Bcast(&v[at], static_cast<int>(std::min(kPiece, n - at)), MPI_CHAR, 0, MPI_COMM_WORLD);
  return v;
}
std::vector<std::vector<double>> gather(const std::vector<double>& mine) {
  return gather_any(mine, MPI_DOUBLE);
}
std::vector<std::string> gather(const std::string& mine) { return gather_any(mine, MPI_CHAR); }
void abort_all(int status) {
  if (size() > 1) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

#else  // one rank

void init(int*, char***) {}
void finalize() {}
int rank() { return 0; }
int size() { return 1; }
int local_rank() { return 0; }
int local_size() { return 1; }
int max_over_ranks(int v) { return v; }
int broadcast(int v) { return v; }
std::uint64_t broadcast(std::uint64_t v) { return v; }
std::vector<double> broadcast(std::vector<double> v) { return v; }
std::string broadcast(std::string v) { return v; }
std::vector<std::vector<double>> gather(const std::vector<double>& mine) { return {mine}; }
std::vector<std::string> gather(const std::string& mine) { return {mine}; }
void abort_all(int status) { std::exit(status); }

#endif

}  // namespace mcsim::mpi
