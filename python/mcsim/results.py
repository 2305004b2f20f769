"""Results: one run's estimates, tables, chunks, provenance and timing as pandas objects.

Built from what mcsim._core returns (a results file read, or a run just made), so
a file and an in-process run give the same object.
"""
import math

import numpy as np
import pandas as pd

ESTIMATE_COLUMNS = ["scenario", "name", "value", "std_error", "ci_low", "ci_high", "samples", "samples_of", "unit",
                    "reference", "reference_tolerance", "z", "minus_base", "minus_base_std_error",
                    "minus_base_ci_low", "minus_base_ci_high", "minus_base_unpaired_std_error", "minus_base_reference"]


def _number(text):
    """A scenario parameter as a number where it is one ("0.25" -> 0.25)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return text


class Results:
    """A run's results. Attributes (DataFrames unless said):

    estimates    one row per scenario and estimate: value, std_error, 95% interval,
                 samples (and what they count), unit, reference and z (NaN where the
                 reference is approximate: see reference_tolerance), and the
                 difference from the base scenario with its paired error
    tables       {name: DataFrame}: flux, k_generation, quantiles, contributions,
                 loss_histogram, ... with a scenario column; df.attrs["units"] names
                 each column's unit where it has one
    scenarios    one row per scenario (index: its name), its overridden keys as columns
    diagnostics  scenario, name, value: figures about how the estimates were made
    chunks       scenario, chunk, then the chunk partials' fields (counts, sums)
    config       the job's YAML text as run (str)
    provenance   version, git sha, date, command, backend, devices, seed, sizes (dict)
    timing       wall_s, paths_per_s, stages (dict), devices (DataFrame)
    path         the file it was read from or written to (None for neither)
    """

    def __init__(self, raw, path=None):
        self._raw = raw
        self.path = path
        self.config = raw["config"]
        self.provenance = dict(raw["provenance"])
        t = raw["timing"]
        self.timing = {
            "wall_s": t["wall_s"],
            "paths_per_s": t["paths_per_s"],
            "stages": dict(t["stages"]),
            "devices": pd.DataFrame(t["devices"], columns=["rank", "device", "seconds", "kernel_s", "paths"]),
        }
        self._estimates = self._tables = self._chunks = None

    @property
    def scenario_names(self):
        return [s["name"] for s in self._raw["scenarios"]]

    @property
    def estimates(self):
        if self._estimates is None:
            self._estimates = pd.DataFrame([row for s in self._raw["scenarios"] for row in _estimate_rows(s)],
                                           columns=ESTIMATE_COLUMNS)
        return self._estimates

    @property
    def scenarios(self):
        rows = [{k: _number(v) for k, v in s["overrides"].items()} for s in self._raw["scenarios"]]
        df = pd.DataFrame(rows, index=pd.Index(self.scenario_names, name="scenario"))
        return df

    @property
    def diagnostics(self):
        return pd.DataFrame([(s["name"], k, v) for s in self._raw["scenarios"] for k, v in s["diagnostics"]],
                            columns=["scenario", "name", "value"])

    @property
    def tables(self):
        if self._tables is None:
            pieces, units = {}, {}
            for s in self._raw["scenarios"]:
                for table in s["tables"]:
                    name, columns, data = table[0], list(table[1]), np.asarray(table[2])
                    df = pd.DataFrame(data, columns=columns)
                    if table[4]:  # a name per row: the position of a contribution
                        df.insert(0, "name", list(table[4]))
                    df.insert(0, "scenario", s["name"])
                    pieces.setdefault(name, []).append(df)
                    units[name] = {c: u for c, u in zip(columns, table[3]) if u}
            self._tables = {}
            for name, dfs in pieces.items():
                df = pd.concat(dfs, ignore_index=True)
                df.attrs["units"] = units.get(name, {})
                self._tables[name] = df
        return self._tables

    @property
    def chunks(self):
        if self._chunks is None:
            dfs = []
            for s in self._raw["scenarios"]:
                df = pd.DataFrame(np.asarray(s["chunk_tallies"]), columns=list(s["tally_layout"]))
                df.insert(0, "chunk", np.arange(len(df), dtype=np.int64))
                df.insert(0, "scenario", s["name"])
                dfs.append(df)
            self._chunks = pd.concat(dfs, ignore_index=True) if dfs else pd.DataFrame()
        return self._chunks

    def estimate(self, name, scenario=None):
        """One estimate's row (a Series), of the base scenario (the first) unless named."""
        e = self.estimates
        e = e[(e["name"] == name) & (e["scenario"] == (scenario or self.scenario_names[0]))]
        if e.empty:
            raise KeyError(f"no estimate {name!r} in scenario {scenario or self.scenario_names[0]!r}")
        return e.iloc[0]

    def __repr__(self):
        p = self.provenance
        head = f"mcsim Results: {len(self.scenario_names)} scenario(s), {len(self.estimates)} estimates, " \
               f"{p['paths']} paths on {p['backend']}"
        return head + (f" ({self.path})" if self.path else "")


def _estimate_rows(s):
    refs = {name: (value, tol) for name, value, tol in s["references"]}
    diffs = {d[0]: d for d in s["differences"]}
    info = s["estimate_info"]
    for name, value, se, lo, hi, samples in s["estimates"]:
        ref, tol = refs.get(name, (math.nan, math.nan))
        z = (value - ref) / se if not math.isnan(ref) and tol == 0 and se > 0 else math.nan
        d = diffs.get(name)
        minus = (d[1], d[2], d[4], d[5], d[3], d[7]) if d else (math.nan,) * 6
        samples_of, unit = info.get(name, ("samples", ""))
        yield (s["name"], name, value, se, lo, hi, samples, samples_of, unit, ref, tol, z) + minus
