// Checkpoints that cannot be written (a full disk, a file-size limit) stop the
// run in one line and keep the last good one; damaged or forged checkpoints are
// refused by file name on --resume, and nothing is written from them.
#include <catch2/catch.hpp>
#include <sys/mount.h>

#include <cmath>
#include <functional>

#include "harness.hpp"
#include "io/checkpoint.hpp"
#include "reduce/partial.hpp"

using namespace robust;
namespace io = mcsim::io;
namespace reduce = mcsim::reduce;

namespace {

// 1831 chunks of 16384 paths: a checkpoint grows from a few KB to about 60 KB.
std::string job_file(const Scratch& d, const std::string& out, double checkpoint_s, const std::string& name = "job.yaml") {
  const std::string path = d / name;
  write_file(path, "run: { name: ck, paths: 30_000_000, seed: 9, chunk_paths: 16384, checkpoint_s: " +
                       std::to_string(checkpoint_s) + ", output: \"" + out + "\" }\nmodel:\n  type: option\n"
                       "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
                       "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n");
  return path;
}

// A run stopped by SIGTERM once its checkpoint exists.
void stopped_run(const std::string& job, const std::string& ckpt, const std::string& log) {
  const pid_t pid = test_exe::start({"run", job, "--backend", "cpu", "-q"}, log);
  for (int i = 0; i < 2000 && !fs::exists(ckpt); ++i) test_exe::sleep_s(0.01);
  test_exe::sleep_s(0.1);
  ::kill(pid, SIGTERM);
  REQUIRE(test_exe::wait_for(pid) == 3);
  REQUIRE(fs::exists(ckpt));
}

// The estimates of a whole run of the job (no stop), as `show --csv` prints them.
std::string clean_answer(const Scratch& d) {
  const std::string out = d / "clean.h5";
  const std::string job = job_file(d, out, 0, "clean.yaml");
  const auto r = cli("run " + job + " --backend cpu -q");
  REQUIRE(r.status == 0);
  const auto shown = cli("show " + out + " --csv");
  fs::remove(out);
  return shown.output;
}

// The estimates of the job resumed from its checkpoint.
std::string resumed_answer(const std::string& job, const std::string& out) {
  const auto r = cli("run " + job + " --backend cpu -q --resume");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto shown = cli("show " + out + " --csv");
  fs::remove(out);
  return shown.output;
}

struct H5File {
  hid_t id;
  explicit H5File(const std::string& p) : id(H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) { REQUIRE(id >= 0); }
  ~H5File() { H5Fclose(id); }
};
void set_done(const std::string& p, const std::function<void(std::vector<double>&)>& edit) {
  const H5File f(p);
  const hid_t d = H5Dopen2(f.id, "done", H5P_DEFAULT);
  const hid_t s = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  REQUIRE(v.size() >= 2);
  edit(v);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(s), H5Dclose(d);
}
void flip_partial_byte(const std::string& p, std::size_t at) {
  const H5File f(p);
  const hid_t d = H5Dopen2(f.id, "partial", H5P_DEFAULT);
  const hid_t s = H5Dget_space(d);
  std::string v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)), '\0');
  H5Dread(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  v[at % v.size()] ^= 0x10;
  H5Dwrite(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(s), H5Dclose(d);
}
void set_u64(const std::string& p, const char* name, std::uint64_t v) {
  const H5File f(p);
  const hid_t a = H5Aopen(f.id, name, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_UINT64, &v);
  H5Aclose(a);
}
// A forgery: the partial's tallies rewritten and every checksum made to match,
// through mcsim's own writer.
void forge(const std::string& p, const std::function<void(std::vector<double>&)>& edit) {
  io::Checkpoint c = io::read_checkpoint(p);
  const reduce::PartialLayout layout{"option.chunks", 1};
  reduce::Unpacker in(c.partial, layout, "forge");
  std::uint64_t width = 0;
  std::vector<std::uint64_t> chunks;
  std::vector<double> tallies;
  in.get(width), in.get(chunks), in.get(tallies), in.finish();
  edit(tallies);
  reduce::Packer out(layout);
  out.put(width), out.put(chunks), out.put(tallies);
  c.partial = out.take();
  io::write_checkpoint(p, c);
}

struct Damage {
  const char* name;
  std::function<void(const std::string& ckpt, const std::string& good_results)> apply;
  const char* refusal;
};

}  // namespace

TEST_CASE("damaged or forged checkpoints are refused on resume by file name", "[robustness]") {
  const std::vector<Damage> cases = {
      {"a unit index of 1e9", [](auto p, auto) { set_done(p, [](auto& v) { v[0] = 1e9; }); }, "damaged: it lists unit 1000000000 of a job of 1832"},
      {"a unit index of -5", [](auto p, auto) { set_done(p, [](auto& v) { v[0] = -5; }); }, "damaged: it lists unit -5 of a job of 1832"},
      {"a fractional unit index", [](auto p, auto) { set_done(p, [](auto& v) { v[0] = 0.5; }); }, "damaged: it lists unit 0.5"},
      {"a NaN unit index", [](auto p, auto) { set_done(p, [](auto& v) { v[0] = std::nan(""); }); }, "damaged: it lists unit nan"},
      {"a unit listed twice", [](auto p, auto) { set_done(p, [](auto& v) { v[1] = v[0]; }); }, "damaged: it lists unit"},
      {"a unit index changed", [](auto p, auto) { set_done(p, [](auto& v) { v[0] = v.back() + 1; }); }, "fails its content_checksum"},
      {"a flipped byte in the partial", [](auto p, auto) { flip_partial_byte(p, 200); }, "damaged: its partial fails its checksum"},
      {"a flipped byte in the partial's header", [](auto p, auto) { flip_partial_byte(p, 3); }, "damaged: its partial fails its checksum"},
      {"the unit count changed", [](auto p, auto) { set_u64(p, "chunks", 4000); }, "fails its content_checksum"},
      {"an older checkpoint format", [](auto p, auto) { set_u64(p, "format_version", 2); }, "in another format; it cannot be resumed"},
      {"a forged NaN tally", [](auto p, auto) { forge(p, [](auto& t) { t[1] = std::nan(""); }); }, "holds a value that is not finite"},
      {"a forged infinite tally", [](auto p, auto) { forge(p, [](auto& t) { t[0] = INFINITY; }); }, "holds a value that is not finite"},
      {"a forged tally of the wrong width", [](auto p, auto) { forge(p, [](auto& t) { t.pop_back(); }); }, "does not match this job's tally"},
      {"a forged fingerprint", [](auto p, auto) { io::Checkpoint c = io::read_checkpoint(p); c.fingerprint = "0123456789abcdef"; io::write_checkpoint(p, c); }, "belongs to a different job"},
      {"an empty file", [](auto p, auto) { write_file(p, ""); }, "as HDF5"},
      {"half the file", [](auto p, auto) { const std::string b = read_file(p); write_file(p, b.substr(0, b.size() / 2)); }, "checkpoint '"},
      {"a results file in its place", [](auto p, auto good) { fs::copy_file(good, p, fs::copy_options::overwrite_existing); }, "not an mcsim checkpoint"},
  };
  const Scratch d("ckpt");
  const std::string good = d / "good.h5";
  REQUIRE(cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 -o " + good).status == 0);
  const std::string out = d / "out.h5", ckpt = d / "out.ckpt.h5";
  const std::string job = job_file(d, out, 0.02);
  stopped_run(job, ckpt, d / "stop.log");
  const std::string saved = d / "saved.ckpt";
  fs::copy_file(ckpt, saved);
  // One stopped run for every case (a section would rerun it each time).
  for (const Damage& c : cases) {
    INFO(c.name);
    fs::copy_file(saved, ckpt, fs::copy_options::overwrite_existing);
    c.apply(ckpt, good);
    const std::string damaged = read_file(ckpt);
    const auto r = cli("run " + job + " --backend cpu -q --resume");
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(one_error_line(r));
    CHECK(has(r, "checkpoint '" + ckpt + "'"));
    CHECK(has(r, c.refusal));
    CHECK_FALSE(fs::exists(out));       // nothing written from it
    CHECK(read_file(ckpt) == damaged);  // and it is left as it was, for a look
  }
  // The checkpoint as written resumes to the bits of a run never stopped.
  fs::copy_file(saved, ckpt, fs::copy_options::overwrite_existing);
  const std::string resumed = resumed_answer(job, out);
  CHECK(resumed == clean_answer(d));
}

TEST_CASE("a checkpoint that cannot be written stops the run in one line and keeps the last good one", "[robustness]") {
  const Scratch d("ckfull");
  const std::string out = d / "out.h5", ckpt = d / "out.ckpt.h5";
  const std::string job = job_file(d, out, 0.02);
  // A file-size limit of 32 KB: the first checkpoints fit, later ones do not (the
  // write fails with EFBIG, as a full disk fails with ENOSPC).
  const auto r = cli("run " + job + " --backend cpu -q", file_size_limit(32));
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(one_mcsim_error(r));
  CHECK(has(r, "mcsim: error: cannot write '" + ckpt + "': file too large; the run stopped, and the last checkpoint written before is kept"));
  REQUIRE(fs::exists(ckpt));
  CHECK(d.files() == std::set<std::string>{"job.yaml", "out.ckpt.h5"});  // no temp left, no results
  const io::Checkpoint kept = io::read_checkpoint(ckpt);
  CHECK(kept.done.size() > 0);
  CHECK(kept.done.size() < kept.chunks);
  // With room again, the run resumes to the bits of a run never stopped.
  const std::string resumed = resumed_answer(job, out);
  CHECK(resumed == clean_answer(d));
}

TEST_CASE("results that cannot be written say why in one line and leave no temp file", "[robustness]") {
  const Scratch d("resfull");
  const std::string out = d / "out.h5";
  const auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 -o " + out,
                       file_size_limit(4));
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(one_mcsim_error(r));
  CHECK(has(r, "mcsim: error: cannot write '" + out + "': file too large"));
  CHECK(d.files().empty());
}

TEST_CASE("a full disk gives mcsim's own no-space line for checkpoints and results", "[robustness]") {
  const Scratch d("enospc");
  const std::string disk = d / "disk";
  fs::create_directories(disk);
  if (::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=96k") != 0) {
    WARN("no tmpfs can be mounted here (not root, or no CAP_SYS_ADMIN): the file-size limit cases stand in");
    return;
  }
  struct Unmount {
    std::string at;
    ~Unmount() { ::umount(at.c_str()); }
  } unmount{disk};
  const std::string out = disk + "/out.h5", ckpt = disk + "/out.ckpt.h5";
  const std::string job = job_file(d, out, 0.02);
  auto r = cli("run " + job + " --backend cpu -q");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(one_error_line(r));
  CHECK(has(r, "cannot write '" + ckpt + "': no space left on device; the run stopped, and the last checkpoint written before is kept"));
  CHECK(io::read_checkpoint(ckpt).done.size() > 0);
  fs::remove(ckpt);
  // The final write: a disk too full for the results.
  write_file(disk + "/filler", std::string(90 * 1024, 'x'));
  r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 -o " + out);
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK(has(r, "no space left on device"));
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(disk)) left.insert(e.path().filename().string());
  CHECK(left == std::set<std::string>{"filler"});
}

TEST_CASE("the hint a stopped run prints is a command that resumes it", "[robustness]") {
  const Scratch d("hint");
  const std::string out = d / "my out.h5";
  const pid_t pid = test_exe::start({"run", quickstart(), "--backend", "cpu", "-q", "--set", "run.paths=1e8", "--set",
                                     "run.seed=5", "--set", "run.checkpoint_s=0.05", "-o", out},
                                    d / "run.log");
  for (int i = 0; i < 2000 && !fs::exists(d / "my out.ckpt.h5"); ++i) test_exe::sleep_s(0.01);
  ::kill(pid, SIGTERM);
  REQUIRE(test_exe::wait_for(pid) == 3);
  const std::string log = read_file(d / "run.log");
  INFO(log);
  const std::string lead = "continue with: mcsim ";
  const auto at = log.find(lead);
  REQUIRE(at != std::string::npos);
  const std::string args = log.substr(at + lead.size(), log.find('\n', at) - at - lead.size());
  CHECK(args.find("--set run.seed=5") != std::string::npos);
  CHECK(args.find("-o '" + out + "'") != std::string::npos);  // quoted: the path has a space
  CHECK(args.find("--backend cpu") != std::string::npos);
  const auto r = cli(args);  // through sh, as a user pastes it
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(fs::exists(out));
}
