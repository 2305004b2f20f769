#!/usr/bin/python3
"""Plots of an mcsim results file, as PNGs:

  <scenario>.convergence.png  each estimate's running mean over the chunks, in
                              chunk order, with its 95% band, against paths
                              (histories); k per generation for eigenvalue runs
  <scenario>.pnl.png          the P&L histogram with each level's VaR and ES
  <scenario>.flux.png         the flux profile (track and collision) with the
                              closed form where the file has one
  sweep.<estimate>.png        each estimate across a sweep's grid points

plots.json lists every PNG with the numbers it was drawn from.

  scripts/plot.py RESULTS.h5 [-o DIR]      (DIR defaults to RESULTS.plots/)

Needs h5py and matplotlib (Debian: python3-h5py python3-matplotlib).
"""
import argparse
import json
import math
import os
import re
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

Z95 = 1.959963984540054


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def file_name(s):
    return re.sub(r"[^A-Za-z0-9_.=,+-]", "_", s)


def table(group, name):
    d = group[name]
    return [text(c) for c in d.attrs["columns"]], d[()]


def named_values(group, name):
    if name not in group:
        return {}
    return {text(r["name"]): float(r["value"]) for r in group[name][()]}


def estimates(group):
    return {text(r["name"]): (float(r["value"]), float(r["std_error"])) for r in group["estimates"][()]}


def scenarios(f):
    g = f["scenarios"]
    order = [text(n) for n in g.attrs["order"]] if "order" in g.attrs else list(g.keys())
    return [(n, g[n]) for n in order]


def running_moments(n, s, ss):
    """Running mean and its standard error from per-chunk count, sum, sum of squares."""
    N, S, SS = np.cumsum(n), np.cumsum(s), np.cumsum(ss)
    mean = S / N
    var = np.maximum(SS - S * mean, 0) / np.maximum(N - 1, 1)
    return N, mean, np.sqrt(var / N)


def running_batches(m, sums):
    """Running mean of batch sums over m histories each, its error from the batch means' spread."""
    N = np.cumsum(m)
    mean = np.cumsum(sums) / N
    se = np.full(len(m), np.nan)
    x = sums / m
    for b in range(1, len(m)):
        d = x[: b + 1] - mean[b]
        se[b] = math.sqrt(np.sum(m[: b + 1] * d * d) / (N[b] * b))
    return N, mean, se


def convergence_series(f, group):
    """(name, paths, running mean, std error) for every output of the chunk table."""
    chunks = group["chunks"]
    layout = [text(x) for x in chunks.attrs["layout"]]
    rows = chunks["tally"][()]
    out = []
    if rows.size == 0:
        return out
    if all(re.search(r"\.(count|sum|sum_sq)$", x) for x in layout):
        for i in range(0, len(layout), 3):
            name = layout[i][: -len(".count")]
            out.append((name,) + running_moments(rows[:, i], rows[:, i + 1], rows[:, i + 2]))
        return out
    # Transport: rows of slot sums; a row is a chunk (fixed source) or a generation.
    paths, chunk = int(f.attrs["paths"]), int(f.attrs["chunk_paths"])
    if "k_generation" in group:
        _, gens = table(group, "k_generation")
        m = np.full(len(rows), paths // len(gens), dtype=float)
    else:
        m = np.array([min(chunk, paths - r * chunk) for r in range(len(rows))], dtype=float)
    for i, name in enumerate(layout):
        if np.any(rows[:, i] != 0):
            out.append((name,) + running_batches(m, rows[:, i]))
    return out


def k_series(group):
    columns, rows = table(group, "k_generation")
    active = rows[rows[:, columns.index("active")] == 1]
    out = []
    for name in ("k_collision", "k_absorption", "k_track"):
        k = active[:, columns.index(name)]
        g = np.arange(1, len(k) + 1)
        mean = np.cumsum(k) / g
        se = np.array([np.std(k[: i + 1], ddof=1) / math.sqrt(i + 1) if i else np.nan for i in range(len(k))])
        out.append((name, g, mean, se))
    return out


def plot_convergence(f, name, group, outdir, manifest):
    series = convergence_series(f, group)
    eigen = "k_generation" in group
    if eigen:  # k per generation, not the k slots of each row again
        series = k_series(group) + [s for s in series if not s[0].startswith("k_")]
    if not series:
        return
    refs, est = named_values(group, "reference"), estimates(group)
    cols = min(3, len(series))
    rows = math.ceil(len(series) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
    record = {"kind": "convergence", "scenario": name, "series": {}}
    for ax, (label, x, mean, se) in zip(axes.flat, series):
        ax.plot(x, mean, color="C0", lw=1.2, label="running mean")
        ax.fill_between(x, mean - Z95 * se, mean + Z95 * se, color="C0", alpha=0.25, lw=0, label="95% band")
        if label in refs:
            ax.axhline(refs[label], color="C3", ls="--", lw=1, label="reference")
        ax.set_title(label)
        ax.set_xlabel("generations (active)" if eigen and label.startswith("k_") else "paths")
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 3))
        record["series"][label] = {"points": len(x), "final_mean": float(mean[-1]),
                                   "final_std_error": float(se[-1]), "reference": refs.get(label),
                                   "estimate": est.get(label, (None,))[0]}
    for ax in axes.flat[len(series):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle(f"{name}: convergence")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    save(fig, outdir, f"{file_name(name)}.convergence.png", record, manifest)


def plot_pnl(name, group, outdir, manifest):
    if "loss_histogram" not in group:
        return
    columns, h = table(group, "loss_histogram")
    low, high, count = (h[:, columns.index(c)] for c in ("low", "high", "count"))
    finite = np.isfinite(low) & np.isfinite(high)
    low, high, count_f = low[finite], high[finite], count[finite]
    used = np.nonzero(count_f)[0]
    lo_i, hi_i = used[0], used[-1] + 1
    # Regroup the fine bins into about 200 for display; P&L = -loss.
    step = max(1, (hi_i - lo_i) // 200)
    edges, counts = [], []
    for i in range(lo_i, hi_i, step):
        j = min(i + step, hi_i)
        edges.append(-high[j - 1])
        counts.append(count_f[i:j].sum())
    edges, counts = np.array(edges[::-1]), np.array(counts[::-1])
    widths = np.array([high[min(i + step, hi_i) - 1] - low[i] for i in range(lo_i, hi_i, step)][::-1])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(edges, counts, width=widths, align="edge", color="C0", alpha=0.7, label="P&L")
    qc, q = table(group, "quantiles")
    record = {"kind": "pnl", "scenario": name, "total": float(count.sum()), "levels": []}
    for i, row in enumerate(q):
        level, var, es = row[qc.index("level")], row[qc.index("var")], row[qc.index("es")]
        ax.axvline(-var, color=f"C{1 + i}", ls="-", lw=1.2, label=f"VaR {level:g}: {var:.4g}")
        ax.axvline(-es, color=f"C{1 + i}", ls=":", lw=1.2, label=f"ES {level:g}: {es:.4g}")
        record["levels"].append({"level": float(level), "var": float(var), "es": float(es)})
    ax.set_yscale("log")
    finish(fig, ax, "P&L at the horizon (losses are negative)", "scenarios",
           f"{name}: P&L with VaR (solid) and ES (dotted)", outdir, f"{file_name(name)}.pnl.png", record, manifest)


def plot_flux(name, group, outdir, manifest):
    if "flux" not in group:
        return
    columns, t = table(group, "flux")
    c = {k: t[:, columns.index(k)] for k in columns}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    record = {"kind": "flux", "scenario": name, "groups": {}}
    for g in np.unique(c["group"]).astype(int):
        sel = c["group"] == g
        mid = 0.5 * (c["low"][sel] + c["high"][sel])
        ax.errorbar(mid, c["track"][sel], yerr=Z95 * c["track_std_error"][sel], fmt=".", ms=3, lw=0.8,
                    label=f"group {g}: track length")
        ax.errorbar(mid, c["collision"][sel], yerr=Z95 * c["collision_std_error"][sel], fmt="x", ms=3, lw=0.6,
                    alpha=0.6, label=f"group {g}: collision")
        ref = c["reference"][sel] if "reference" in c else np.full(sel.sum(), np.nan)
        if np.all(np.isfinite(ref)):
            ax.step(np.append(c["low"][sel], c["high"][sel][-1]), np.append(ref, ref[-1]), where="post",
                    color="C3", lw=1, label=f"group {g}: closed form")
        record["groups"][str(g)] = {"bins": int(sel.sum()), "track": [float(v) for v in c["track"][sel]],
                                    "reference": bool(np.all(np.isfinite(ref)))}
    finish(fig, ax, "position (cm)", "scalar flux per source particle (95% bars)", f"{name}: flux profile",
           outdir, f"{file_name(name)}.flux.png", record, manifest)


def number(s):
    try:
        return float(s)
    except ValueError:
        return None


def plot_sweeps(scens, outdir, manifest):
    """Scenarios that override the same two or more numeric keys form a grid."""
    grids = {}
    for name, group in scens[1:]:
        keys = tuple(sorted(k for k in group.attrs.keys()))
        values = [number(text(group.attrs[k])) for k in keys]
        if keys and all(v is not None for v in values):
            grids.setdefault(keys, []).append((values, name, estimates(group)))
    for keys, points in grids.items():
        if len(points) < 2:
            continue
        x_key, others = keys[0], keys[1:]
        names = [n for n in points[0][2] if all(n in p[2] for p in points)]
        for est in names:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            record = {"kind": "sweep", "keys": list(keys), "estimate": est, "series": {}}
            series = {}
            for values, scen, e in points:
                series.setdefault(tuple(values[1:]), []).append((values[0], e[est][0], e[est][1], scen))
            for other, pts in sorted(series.items()):
                pts.sort()
                label = ", ".join(f"{k.split('.')[-1]}={v:g}" for k, v in zip(others, other)) or est
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[Z95 * p[2] for p in pts], marker="o",
                            ms=4, capsize=3, label=label)
                record["series"][label] = {"x": [p[0] for p in pts], "y": [p[1] for p in pts],
                                           "scenarios": [p[3] for p in pts]}
            finish(fig, ax, x_key, f"{est} (95% bars)", f"{est} across the sweep", outdir,
                   f"sweep.{file_name(est)}.png", record, manifest)


def finish(fig, ax, xlabel, ylabel, title, outdir, name, record, manifest):
    """Labels, legend and title of a one-axes chart, then save."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)
    ax.set_title(title)
    fig.tight_layout()
    save(fig, outdir, name, record, manifest)


def save(fig, outdir, name, record, manifest):
    path = os.path.join(outdir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    manifest[name] = record


def main():
    p = argparse.ArgumentParser(description="Plot an mcsim results file as PNGs.")
    p.add_argument("results")
    p.add_argument("-o", "--out", help="folder for the PNGs (default: RESULTS.plots)")
    a = p.parse_args()
    outdir = a.out or os.path.splitext(a.results)[0] + ".plots"
    with h5py.File(a.results, "r") as f:
        if text(f.attrs.get("format", b"")) != "mcsim-results":
            sys.exit(f"{a.results}: not an mcsim results file")
        os.makedirs(outdir, exist_ok=True)
        manifest = {}
        scens = scenarios(f)
        for name, group in scens:
            plot_convergence(f, name, group, outdir, manifest)
            plot_pnl(name, group, outdir, manifest)
            plot_flux(name, group, outdir, manifest)
        plot_sweeps(scens, outdir, manifest)
    with open(os.path.join(outdir, "plots.json"), "w") as out:
        json.dump(manifest, out, indent=1)
    for name in sorted(manifest):
        print(os.path.join(outdir, name))


if __name__ == "__main__":
    main()
