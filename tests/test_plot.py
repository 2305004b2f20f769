#!/usr/bin/python3
"""scripts/plot.py on real results files: every PNG is written, and what it drew
(plots.json) is the file's data, recomputed here from the file with h5py.

  tests/test_plot.py MCSIM_EXE SOURCE_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

try:
    import h5py
    import matplotlib  # noqa: F401 (scripts/plot.py needs it)
    import numpy as np
except ImportError as e:  # ctest reports 77 as skipped: scripts/install-deps.sh installs them
    print(f"SKIPPED: {e} (Debian: python3-h5py python3-matplotlib)")
    sys.exit(77)

EXE, SOURCE = sys.argv[1], sys.argv[2]
PLOT = os.path.join(SOURCE, "scripts", "plot.py")


def run(config, out, *sets):
    args = [EXE, "run", os.path.join(SOURCE, "configs", config), "--backend", "cpu", "-q", "--force", "-o", out]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def plot(results, outdir):
    subprocess.run([PLOT, results, "-o", outdir], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(outdir, "plots.json")) as f:
        return json.load(f)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def estimates(group):
    return {r["name"].decode(): float(r["value"]) for r in group["estimates"][()]}


class Plots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="mcsim-plot-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def check_pngs(self, outdir, manifest):
        self.assertTrue(manifest)
        for name in manifest:
            w, h = png_size(os.path.join(outdir, name))
            self.assertGreater(w, 300)
            self.assertGreater(h, 200)

    def test_options_convergence_and_sweep(self):
        results, outdir = os.path.join(self.dir, "s.h5"), os.path.join(self.dir, "s")
        run("scenarios.yaml", results, "run.paths=200000")
        manifest = plot(results, outdir)
        self.check_pngs(outdir, manifest)
        with h5py.File(results, "r") as f:
            order = [n.decode() for n in f["scenarios"].attrs["order"]]
            for name in order:
                g = f["scenarios"][name]
                rows = g["chunks/tally"][()]
                layout = [x.decode() for x in g["chunks"].attrs["layout"]]
                price = manifest[f"{name}.convergence.png"]["series"]["price"]
                n, s = rows[:, layout.index("price.count")], rows[:, layout.index("price.sum")]
                self.assertEqual(price["points"], len(rows))
                self.assertAlmostEqual(price["final_mean"], s.sum() / n.sum(), places=12)
                self.assertAlmostEqual(price["final_mean"], estimates(g)["price"], places=12)
            # The 2 x 2 grid: one line per volatility, the strikes along x.
            sweep = manifest["sweep.price.png"]
            self.assertEqual(sweep["keys"], ["model.instrument.strike", "model.process.volatility"])
            self.assertEqual(sorted(sweep["series"]), ["volatility=0.15", "volatility=0.3"])
            for label, series in sweep["series"].items():
                self.assertEqual(series["x"], [90.0, 110.0])
                for scen, y in zip(series["scenarios"], series["y"]):
                    self.assertEqual(y, estimates(f["scenarios"][scen])["price"])

    def test_pnl_histogram_marks_var_and_es(self):
        results, outdir = os.path.join(self.dir, "v.h5"), os.path.join(self.dir, "v")
        run("var.yaml", results, "run.paths=200000")
        manifest = plot(results, outdir)
        self.check_pngs(outdir, manifest)
        pnl = manifest["base.pnl.png"]
        with h5py.File(results, "r") as f:
            g = f["scenarios/base"]
            self.assertEqual(pnl["total"], f.attrs["paths"])
            q = g["quantiles"][()]
            self.assertEqual([lv["var"] for lv in pnl["levels"]], list(q[:, 1]))
            self.assertEqual([lv["es"] for lv in pnl["levels"]], list(q[:, 4]))
            # Each VaR line sits where the histogram leaves 1 - level of the scenarios above it.
            h = g["loss_histogram"][()]
            for lv in pnl["levels"]:
                tail = h[h[:, 0] >= lv["var"], 2].sum() / pnl["total"]
                self.assertLess(abs(tail - (1 - lv["level"])), 0.002 + 4 * np.sqrt(lv["level"] * (1 - lv["level"]) / pnl["total"]))

    def test_flux_profile_and_eigenvalue_convergence(self):
        results, outdir = os.path.join(self.dir, "t.h5"), os.path.join(self.dir, "t")
        run("transport-fixed-slab.yaml", results, "run.paths=100000",
            "model.materials.0.scatter=0", "model.tallies=[transmission, {flux: {bins: 20}}]")
        manifest = plot(results, outdir)
        self.check_pngs(outdir, manifest)
        flux = manifest["base.flux.png"]["groups"]["0"]
        with h5py.File(results, "r") as f:
            table = f["scenarios/base/flux"][()]
            self.assertEqual(flux["track"], list(table[:, 3]))
        self.assertTrue(flux["reference"])  # a beam through an absorber has a closed form

        results, outdir = os.path.join(self.dir, "e.h5"), os.path.join(self.dir, "e")
        run("transport-eigen-slab.yaml", results, "run.paths=10000", "model.eigenvalue.inactive=10",
            "model.eigenvalue.active=30")
        manifest = plot(results, outdir)
        self.check_pngs(outdir, manifest)
        k = manifest["base.convergence.png"]["series"]["k_collision"]
        with h5py.File(results, "r") as f:
            t = f["scenarios/base/k_generation"][()]
            active = t[t[:, 6] == 1]
            self.assertEqual(k["points"], 30)
            self.assertAlmostEqual(k["final_mean"], active[:, 1].mean(), places=12)

    def test_not_a_results_file(self):
        bad = os.path.join(self.dir, "bad.h5")
        with h5py.File(bad, "w") as f:
            f.attrs["format"] = "other"
        self.assertNotEqual(subprocess.run([PLOT, bad], capture_output=True).returncode, 0)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
