"""The mcsim Python module against real results files of every family, and against
the mcsim command line on the same jobs (ctest runs it with PYTHONPATH=BUILD/python,
MCSIM_EXE and MCSIM_SOURCE_DIR set)."""
import csv
import io
import math
import os
import subprocess

import pytest

import mcsim

EXE = os.environ["MCSIM_EXE"]
SOURCE = os.environ["MCSIM_SOURCE_DIR"]
CONFIGS = os.path.join(SOURCE, "configs")

# Each family's example, small: (config, overrides).
JOBS = {
    "quickstart": ("quickstart.yaml", ["run.paths=200000"]),
    "scenarios": ("scenarios.yaml", ["run.paths=100000"]),
    "american": ("american.yaml", ["run.paths=40000", "model.regression_paths=8192"]),
    "var": ("var.yaml", ["run.paths=50000"]),
    "eigen": ("transport-eigen-slab.yaml", ["run.paths=2000", "model.eigenvalue.inactive=10", "model.eigenvalue.active=40"]),
    "sphere": ("transport-fixed-sphere.yaml", ["run.paths=20000"]),
}


def cli(*args):
    return subprocess.run([EXE, *args], capture_output=True, text=True)


@pytest.fixture(scope="session")
def files(tmp_path_factory):
    """Results files written by the mcsim command line, one per job."""
    d = tmp_path_factory.mktemp("results")
    out = {}
    for name, (config, sets) in JOBS.items():
        path = str(d / f"{name}.h5")
        args = ["run", os.path.join(CONFIGS, config), "--backend", "cpu", "-q", "-o", path]
        for s in sets:
            args += ["--set", s]
        r = cli(*args)
        assert r.returncode == 0, r.stderr
        out[name] = path
    return out


def csv_rows(path):
    r = cli("show", path, "--csv")
    assert r.returncode == 0, r.stderr
    return list(csv.DictReader(io.StringIO(r.stdout)))


@pytest.mark.parametrize("name", list(JOBS))
def test_open_gives_every_estimate_as_show_does(files, name):
    r = mcsim.open(files[name])
    rows = csv_rows(files[name])
    e = r.estimates
    assert len(e) == len(rows) > 0
    for (_, got), want in zip(e.iterrows(), rows):
        assert got["scenario"] == want["scenario"] and got["name"] == want["estimate"]
        assert got["value"] == float(want["value"])  # every digit: the same double
        assert got["std_error"] == float(want["std_error"] or "nan") or math.isnan(got["std_error"])
        assert got["samples"] == int(want["samples"])
        assert got["samples_of"] == want["samples_of"] and got["unit"] == want["unit"]
        if want["z"]:
            assert got["z"] == pytest.approx(float(want["z"]), rel=1e-12)
    assert r.provenance["backend"] == "cpu"
    assert r.config.startswith("run:") or "run:" in r.config
    assert r.timing["wall_s"] > 0 and len(r.timing["devices"]) >= 1


def test_in_process_run_has_the_bits_of_the_command_line(files):
    r = mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), paths=2e5, backend="cpu")
    f = mcsim.open(files["quickstart"])
    assert r.estimate("price")["value"] == f.estimate("price")["value"]
    assert r.estimate("price")["std_error"] == f.estimate("price")["std_error"]
    # The closed form within 4 standard errors.
    p = r.estimate("price")
    assert abs(p["z"]) < 4 and p["reference"] == pytest.approx(10.450583572185565, rel=1e-12)


def test_yaml_text_and_a_dict_run_as_the_file_does():
    path = os.path.join(CONFIGS, "quickstart.yaml")
    text = open(path).read()
    import yaml
    job = yaml.safe_load(text)
    a = mcsim.run(path, paths=50000, backend="cpu")
    b = mcsim.run(text, paths=50000, backend="cpu")
    c = mcsim.run(job, paths=50000, backend="cpu")
    assert a.estimate("price")["value"] == b.estimate("price")["value"] == c.estimate("price")["value"]


def test_overrides_reach_the_model():
    r = mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), paths=100000, backend="cpu",
                  **{"model.process.volatility": 0.3})
    p = r.estimate("price")
    assert p["reference"] == pytest.approx(14.231254785985819, rel=1e-9)  # Black-Scholes at 30%
    assert abs(p["z"]) < 4
    assert "volatility: 0.3" in r.config  # the job as run
    assert r.provenance["command_line"].startswith("mcsim.run(") and "model.process.volatility=0.3" in r.provenance["command_line"]


def test_output_writes_the_file_it_returns(tmp_path):
    out = tmp_path / "q.h5"
    r = mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), output=out, paths=30000, backend="cpu")
    f = mcsim.open(out)
    assert f.estimates[["name", "value", "std_error"]].equals(r.estimates[["name", "value", "std_error"]])
    assert f.chunks.equals(r.chunks)
    # A second run on the same output is refused without force, and replaces it with.
    with pytest.raises(mcsim.RunError, match="exists; pass --force"):
        mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), output=out, paths=30000, backend="cpu")
    mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), output=out, paths=40000, backend="cpu", force=True)
    assert mcsim.open(out).provenance["paths"] == 40000


def test_config_errors_carry_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("run:\n  paths: 1000\n  seed: 1\nmodel:\n  type: option\n"
                   "  process: { type: gbm, spot: 100, rate: 0.05, volatility: -0.2 }\n"
                   "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n")
    with pytest.raises(mcsim.ConfigError) as e:
        mcsim.run(bad)
    assert f"{bad}:6:" in str(e.value) and "model.process.volatility" in str(e.value)
    with pytest.raises(mcsim.ConfigError, match=r"<job text>:2:15: model.type"):
        mcsim.run("run: {paths: 10}\nmodel: {type: nope}\n")
    with pytest.raises(mcsim.ConfigError, match="run.pathz"):
        mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), pathz=10)
    assert issubclass(mcsim.ConfigError, ValueError)


def test_unreadable_files_raise_run_error(tmp_path):
    with pytest.raises(mcsim.RunError, match="does not exist"):
        mcsim.open(tmp_path / "none.h5")
    junk = tmp_path / "junk.h5"
    junk.write_bytes(b"not hdf5 at all")
    with pytest.raises(mcsim.RunError, match="junk.h5"):
        mcsim.open(junk)


def test_scenarios_have_their_parameters_and_paired_differences(files):
    r = mcsim.open(files["scenarios"])
    s = r.scenarios
    assert list(s.index) == r.scenario_names and s.index[0] == "base"
    assert s.loc["vol_up", "model.process.volatility"] == 0.25
    assert math.isnan(s.loc["base", "model.process.volatility"])
    e = r.estimates
    up = e[(e.scenario == "vol_up") & (e.name == "price")].iloc[0]
    base = e[(e.scenario == "base") & (e.name == "price")].iloc[0]
    assert up["minus_base"] == pytest.approx(up["value"] - base["value"], rel=1e-9)
    assert up["minus_base_std_error"] < up["minus_base_unpaired_std_error"]  # pairing helps
    assert math.isnan(base["minus_base"])


def test_approximate_references_are_bands_not_z(files):
    e = mcsim.open(files["american"]).estimates
    price = e[(e.scenario == "base") & (e.name == "price")].iloc[0]
    assert price["reference_tolerance"] > 0 and math.isnan(price["z"])
    assert abs(price["value"] - price["reference"]) < price["reference_tolerance"] + 4 * price["std_error"]


def test_risk_tables(files):
    r = mcsim.open(files["var"])
    q = r.tables["quantiles"]
    assert list(q.columns) == ["scenario", "level", "var", "var_ci_low", "var_ci_high", "es", "es_std_error"]
    var99 = r.estimate("var_0.99")
    assert q[q.level == 0.99]["var"].iloc[0] == var99["value"]
    c = r.tables["contributions"]
    assert set(c["name"]) == {"acme_stock", "acme_put", "bolt_calls", "crux_forward", "crux_put", "bolt_digital",
                              "crux_knockout", "acme_average", "crux_for_acme"}
    # Euler contributions add up to the VaR they split.
    at99 = c[c.level == 0.99]
    assert at99["var"].sum() == pytest.approx(var99["value"], rel=1e-6)
    h = r.tables["loss_histogram"]
    assert h["count"].sum() == r.provenance["paths"]
    assert h.attrs["units"] == {"count": "scenarios"}
    assert r.estimate("var_0.99")["samples_of"] == "scenarios"


def test_transport_tables(files):
    r = mcsim.open(files["eigen"])
    k = r.tables["k_generation"]
    assert len(k) == 50 and {"k_collision", "entropy", "active"} <= set(k.columns)
    assert k["active"].sum() == 40
    assert r.estimate("k_eff")["samples_of"] == "generations"
    assert abs(r.estimate("k_eff")["value"] - 1) < 4 * r.estimate("k_eff")["std_error"] + 2e-3
    flux = mcsim.open(files["sphere"]).tables["flux"]
    assert flux.attrs["units"]["low"] == "cm (radius)"
    assert flux.attrs["units"]["track"] == "per cm^2 per source particle"
    assert (flux["high"] > flux["low"]).all()


def test_chunks_hold_every_path(files):
    r = mcsim.open(files["quickstart"])
    ch = r.chunks
    assert list(ch.columns[:2]) == ["scenario", "chunk"]
    assert ch["price.count"].sum() == r.provenance["paths"]
    mean = ch["price.sum"].sum() / ch["price.count"].sum()
    assert mean == pytest.approx(r.estimate("price")["value"], rel=1e-12)


def test_ctrl_c_stops_a_run_and_leaves_its_checkpoint(tmp_path):
    import signal
    import threading
    out = tmp_path / "long.h5"
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(mcsim.Stopped) as e:
        mcsim.run(os.path.join(CONFIGS, "quickstart.yaml"), output=out, paths=1e10, backend="cpu")
    timer.cancel()
    assert isinstance(e.value, KeyboardInterrupt)
    assert not out.exists() and (tmp_path / "long.ckpt.h5").exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's own handler is back
    # The checkpoint shows what the run has done so far.
    so_far = mcsim.open(tmp_path / "long.ckpt.h5")
    assert so_far.provenance["checkpoint"] == str(tmp_path / "long.ckpt.h5")
    price = so_far.estimate("price")
    assert 0 < price["samples"] < 1e10 and price["samples"] % 65536 == 0 and so_far.provenance["paths"] == price["samples"]
    assert abs(price["z"]) < 4
    shown = cli("show", str(tmp_path / "long.ckpt.h5"))
    assert shown.returncode == 0 and "a checkpoint, shown" in shown.stdout and "price" in shown.stdout


def test_an_eigenvalue_checkpoint_shows_its_finished_generations(tmp_path):
    import signal
    import threading
    out = tmp_path / "k.h5"
    timer = threading.Timer(2.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(mcsim.Stopped):
        mcsim.run(os.path.join(CONFIGS, "transport-eigen-slab.yaml"), output=out, paths=5000, backend="cpu",
                  **{"model.eigenvalue.inactive": 5, "model.eigenvalue.active": 100000})
    timer.cancel()
    r = mcsim.open(tmp_path / "k.ckpt.h5")
    k = r.tables["k_generation"]
    done = len(k)
    assert done > 7 and r.provenance["paths"] == 5000 * done
    keff = r.estimate("k_eff")
    assert keff["samples"] == done - 5 and keff["samples_of"] == "generations"
    assert abs(keff["value"] - 1) < 4 * keff["std_error"] + 2e-3  # the critical slab
    assert r.estimate("k_track")["samples"] == 5000 * (done - 5)


def test_a_checkpoint_of_a_run_without_estimates_yet_says_so(tmp_path):
    ckpt = tmp_path / "r.ckpt.h5"
    ckpt.write_bytes(b"junk")
    with pytest.raises(mcsim.RunError, match="r.ckpt.h5"):
        mcsim.open(ckpt)


def test_a_fixed_source_checkpoint_shows_its_finished_histories(tmp_path, files):
    import signal
    import threading
    out = tmp_path / "f.h5"
    timer = threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(mcsim.Stopped):
        mcsim.run(os.path.join(CONFIGS, "transport-fixed-sphere.yaml"), output=out, paths=1e10, backend="cpu")
    timer.cancel()
    r = mcsim.open(tmp_path / "f.ckpt.h5")
    a = r.estimate("absorption")
    assert a["samples_of"] == "histories" and 0 < a["samples"] < 1e10
    assert a["samples"] % r.provenance["chunk_paths"] == 0 and r.provenance["paths"] == a["samples"]
    full = mcsim.open(files["sphere"]).estimate("absorption")  # another run of the same job
    assert abs(a["value"] - full["value"]) < 4 * math.hypot(a["std_error"], full["std_error"])
