// MPI behind one small header: the rest of mcsim asks for its rank and exchanges
// plain vectors. Without MPI in the build (or outside mpirun) there is one rank
// and every call is local.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mcsim::mpi {

// Whether a launcher (mpirun, mpiexec, srun) started this process: one of the
// variables launchers set is present. Outside one, mcsim is one rank without
// initialising MPI (a singleton start costs about half a second).
bool launched();
// Both are safe to call in a build without MPI.
void init(int* argc, char*** argv);
void finalize();

int rank();
int size();
inline bool master() { return rank() == 0; }
// Rank among the ranks of the same node, and how many share it (picks a GPU).
int local_rank();
int local_size();

// The largest of each rank's v, on every rank (any rank's stop stops all).
int max_over_ranks(int v);
// Rank 0's value, on every rank.
int broadcast(int v);
std::uint64_t broadcast(std::uint64_t v);
std::vector<double> broadcast(std::vector<double> v);  // short vectors (a plan)
std::string broadcast(std::string v);                  // any length (sent in pieces)

// Rank 0 gets every rank's vector, in rank order; other ranks get an empty list.
// Vectors of any length (sent in pieces below MPI's int count limit).
std::vector<std::vector<double>> gather(const std::vector<double>& mine);
std::vector<std::string> gather(const std::string& mine);

// Stops every rank at once (MPI_Abort), or exits when there is one.
[[noreturn]] void abort_all(int status);

}  // namespace mcsim::mpi
