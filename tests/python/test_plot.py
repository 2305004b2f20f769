"""mcsim.plot and `mcsim plot` on real results files: every PNG is written, and
what each drew (its record in plots.json) is the file's data."""
import json
import os
import struct
import subprocess

import numpy as np
import pytest

import mcsim
from mcsim import plot

EXE = os.environ["MCSIM_EXE"]
CONFIGS = os.path.join(os.environ["MCSIM_SOURCE_DIR"], "configs")


def run(tmp, config, *sets):
    out = str(tmp / (config.replace(".yaml", "") + ".h5"))
    args = [EXE, "run", os.path.join(CONFIGS, config), "--backend", "cpu", "-q", "--force", "-o", out]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return out


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def saved(results, outdir):
    manifest = plot.save_all(results, str(outdir))
    assert manifest
    for name in manifest:
        w, h = png_size(os.path.join(outdir, name))
        assert w > 300 and h > 200
    with open(os.path.join(outdir, "plots.json")) as f:
        assert json.load(f) == json.loads(json.dumps(manifest))
    return manifest


def test_convergence_shows_the_reported_estimates_only(tmp_path):
    # An Asian with a control variate: the price is the controlled one, and no
    # internal tally (the control's cross terms) gets a panel.
    r = mcsim.open(run(tmp_path, "asian.yaml", "run.paths=300000"))
    m = saved(r, tmp_path / "asian")
    series = m["base.convergence.png"]["series"]
    e = r.estimates[r.estimates.scenario == "base"]
    assert set(series) == set(e["name"])
    price = e[e.name == "price"].iloc[0]
    assert series["price"]["final_value"] == price["value"]
    assert series["price"]["final_std_error"] == price["std_error"]
    ch = r.chunks[r.chunks.scenario == "base"]
    raw = ch["price.sum"].sum() / ch["price.count"].sum()
    assert abs(raw - price["value"]) > 0  # the uncontrolled mean is another number
    assert series["price"]["log_x"]  # 8192 to 300,000 paths
    assert series["control"]["reference"] == pytest.approx(e[e.name == "control"].iloc[0]["reference"])


def test_approximate_reference_is_drawn_as_a_band(tmp_path):
    r = mcsim.open(run(tmp_path, "american.yaml", "run.paths=40000", "model.regression_paths=8192"))
    m = saved(r, tmp_path / "american")
    price = m["base.convergence.png"]["series"]["price"]
    assert price["tolerance"] == r.estimate("price")["reference_tolerance"] > 0


def test_sweep_grid(tmp_path):
    r = mcsim.open(run(tmp_path, "scenarios.yaml", "run.paths=100000"))
    m = saved(r, tmp_path / "s")
    sweep = m["sweep.price.png"]
    assert sweep["keys"] == ["model.instrument.strike", "model.process.volatility"]
    assert sorted(sweep["series"]) == ["volatility=0.15", "volatility=0.3"]
    e = r.estimates
    for series in sweep["series"].values():
        assert series["x"] == [90.0, 110.0]
        for scen, y in zip(series["scenarios"], series["y"]):
            assert y == e[(e.scenario == scen) & (e.name == "price")].iloc[0]["value"]


def test_pnl_marks_var_and_es_with_readable_numbers(tmp_path):
    r = mcsim.open(run(tmp_path, "var.yaml", "run.paths=200000"))
    m = saved(r, tmp_path / "v")
    pnl = m["base.pnl.png"]
    assert pnl["total"] == r.provenance["paths"]
    q = r.tables["quantiles"]
    assert [lv["var"] for lv in pnl["levels"]] == list(q["var"])
    assert [lv["es"] for lv in pnl["levels"]] == list(q["es"])
    # Each VaR line sits where the histogram leaves 1 - level of the scenarios above it.
    h = r.tables["loss_histogram"]
    for lv in pnl["levels"]:
        tail = h[h["low"] >= lv["var"]]["count"].sum() / pnl["total"]
        assert abs(tail - (1 - lv["level"])) < 0.002 + 4 * (lv["level"] * (1 - lv["level"]) / pnl["total"]) ** 0.5
    assert plot.readable(19243.687) == "19,244" and plot.readable(0.99) == "0.99"


def test_each_groups_own_pnl_distribution_with_its_standalone_var(tmp_path):
    r = mcsim.open(run(tmp_path, "var-historical.yaml", "model.portfolio.standalone=true", "scenarios=null"))
    m = saved(r, tmp_path / "g")
    g = m["base.pnl_groups.png"]
    alone = r.tables["group_standalone"]
    first = alone[alone["level"] == alone["level"].min()]
    assert g["level"] == 0.975
    assert sorted(g["groups"]) == sorted(first["name"])
    for name, drawn in g["groups"].items():
        assert drawn["var"] == r.estimate(f"standalone_var_0.975.{name}")["value"]
        assert drawn["scenarios"] == r.provenance["paths"]  # every window in each group's histogram
    assert "base.pnl_groups.png" not in saved(mcsim.open(run(tmp_path, "var.yaml", "run.paths=20000")), tmp_path / "v")


def test_eigenvalue_k_and_entropy_per_generation(tmp_path):
    r = mcsim.open(run(tmp_path, "transport-eigen-slab.yaml", "run.paths=5000", "model.eigenvalue.inactive=10",
                       "model.eigenvalue.active=30"))
    m = saved(r, tmp_path / "e")
    k = m["base.k.png"]
    table = r.tables["k_generation"]
    assert k["generations"] == 40 and k["active"] == 30
    assert k["k_eff"] == r.estimate("k_eff")["value"]
    assert k["entropy_last"] == table["entropy"].iloc[-1]
    assert "base.convergence.png" not in m  # k per generation is the eigenvalue run's convergence
    assert m["base.flux.png"]["axis"] == "depth"
    assert m["base.flux.png"]["boundaries"] == [-1.853722, 1.853722]


def test_sphere_flux_by_radius_with_region_boundaries_on_a_log_scale(tmp_path):
    r = mcsim.open(run(tmp_path, "transport-fixed-sphere.yaml", "run.paths=20000"))
    m = saved(r, tmp_path / "sphere")
    flux = m["base.flux.png"]
    assert flux["axis"] == "radius" and flux["log_y"]
    assert flux["boundaries"] == [5.0, 20.0]
    f = r.tables["flux"]
    assert flux["groups"]["0"]["track"] == list(f[f["group"] == 0]["track"])
    # Fixed source: the tallies' running means over the chunks.
    series = m["base.convergence.png"]["series"]
    assert series["absorption"]["final_value"] == pytest.approx(r.estimate("absorption")["value"], rel=1e-12)


def test_beam_flux_has_its_closed_form(tmp_path):
    r = mcsim.open(run(tmp_path, "transport-fixed-slab.yaml", "run.paths=100000", "model.materials.0.scatter=0",
                       "model.tallies=[transmission, {flux: {bins: 20}}]"))
    m = saved(r, tmp_path / "beam")
    assert m["base.flux.png"]["groups"]["0"]["reference"]


def test_the_mcsim_plot_command(tmp_path):
    results = run(tmp_path, "quickstart.yaml", "run.paths=100000")
    out = subprocess.run([EXE, "plot", results, "-o", str(tmp_path / "p")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("base.convergence.png")
    png_size(tmp_path / "p" / "base.convergence.png")
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"\x89HDF\r\n\x1a\n not really")
    out = subprocess.run([EXE, "plot", str(bad)], capture_output=True, text=True)
    assert out.returncode != 0 and "bad.h5" in out.stderr


def test_pin_power_maps(tmp_path):
    # A 3 x 3 lattice with a water hole: 8 fuelled pins (mean power 1), and a 6 x 6
    # mesh of their quarters (32 fuelled bins); the marked extremes are the table's.
    r = mcsim.open(run(tmp_path, "transport-pin-lattice.yaml", "run.paths=2000",
                       "model.eigenvalue={inactive: 4, active: 12}"))
    m = saved(r, tmp_path / "pins")
    for table, shape, fuelled in (("pins_power", [3, 3, 1], 8), ("quarters_power", [6, 6, 1], 32)):
        rec = m[f"base.{table}.png"]
        t = r.tables[table]
        on = t[t.power > 0]
        assert rec["shape"] == shape and rec["fuelled_bins"] == fuelled == len(on)
        assert rec["mean"] == pytest.approx(1, abs=1e-12)
        for label, row in (("max", on.loc[on.power.idxmax()]), ("min", on.loc[on.power.idxmin()])):
            assert (rec[label]["i"], rec[label]["j"]) == (int(row.i), int(row.j))
            assert rec[label]["power"] == row.power and rec[label]["std_error"] == row.power_std_error
    assert m["base.pins_power.png"]["max"]["power"] > 1 > m["base.pins_power.png"]["min"]["power"]


def test_hexagonal_pin_powers_are_drawn_as_hexagons(tmp_path):
    # 37 elements, 7 of them guide tubes: 30 hexagons drawn where the lattice puts
    # them, the centre (a tube) left blank, the pin pitch between neighbours.
    r = mcsim.open(run(tmp_path, "transport-hex-assembly.yaml", "run.paths=2000",
                       "model.eigenvalue={inactive: 3, active: 8}"))
    m = saved(r, tmp_path / "hex")
    rec = m["base.pins_power.png"]
    assert rec["hexagonal"] and rec["shape"] == [7, 7, 1] and rec["fuelled_bins"] == 30
    (name, fig, record), = plot.power_maps(r)
    cells = fig.axes[0].collections[0]
    centres = np.array([p.vertices[:-1].mean(axis=0) for p in cells.get_paths()])
    assert len(centres) == 30
    nearest = sorted(np.hypot(*(centres - centres[0]).T))[1]
    assert nearest == pytest.approx(1.26, rel=1e-9)
    assert min(np.hypot(*centres.T)) == pytest.approx(1.26, rel=1e-9)  # ring 1; the centre is a tube
    plot.plt.close(fig)
