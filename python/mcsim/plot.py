"""Plots of mcsim Results (matplotlib), one function per kind, and every one of a
file's plots as PNGs with what each was drawn from (plots.json):

    python3 -m mcsim.plot RESULTS.h5 [-o DIR]      (or: mcsim plot RESULTS.h5)

  <scenario>.convergence.png  each estimate the run reports, after more and more
                              paths (log scale), with its 95% band and its
                              reference (a band where the reference is approximate)
  <scenario>.k.png            eigenvalue runs: k per generation by each estimator,
                              the inactive generations shaded, and the entropy of
                              the fission source
  <scenario>.pnl.png          the P&L histogram with each level's VaR and ES
  <scenario>.pnl_groups.png   risk with model.portfolio.standalone: each group's
                              own P&L distribution and standalone VaR, a panel
                              per grouping column
  <scenario>.flux.png         the flux against depth or radius, region boundaries
                              marked, the closed form where there is one
  <scenario>.<NAME>_power.png CSG lattice and mesh tallies: the normalised power
                              map (pin powers; a hexagonal lattice's hexagons)
                              and its relative error, the largest and least
                              powers marked; 3-D tallies averaged along z, with
                              the axial profile beside
  sweep.<estimate>.png        an estimate across a sweep's grid
"""
import argparse
import json
import math
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

Z95 = 1.959963984540054


def readable(x):
    """A number for a legend: 4 significant digits, thousands grouped."""
    if x is None or not math.isfinite(x):
        return str(x)
    if abs(x) >= 1e4 and abs(x) < 1e15:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def _reference(est):
    ref, tol = est["reference"], est["reference_tolerance"]
    return (None, None) if not math.isfinite(ref) else (ref, tol if math.isfinite(tol) and tol > 0 else 0.0)


def _spans_decades(values, decades=2):
    v = np.abs(np.asarray(values, dtype=float))
    v = v[np.isfinite(v) & (v > 0)]
    return len(v) > 1 and v.max() / v.min() >= 10 ** decades


def convergence_series(results, scenario):
    """(name, paths, value, std_error) for each reported estimate that has a history:
    the run's convergence table (options), or running means of the chunk tallies
    of estimates that are plain means of them (fixed-source transport)."""
    e = results.estimates
    reported = list(e[e.scenario == scenario]["name"])
    tables = results.tables
    if "convergence" in tables:
        c = tables["convergence"]
        c = c[c.scenario == scenario]
        return [(n, c["paths"].to_numpy(), c[n].to_numpy(), c[n + "_std_error"].to_numpy())
                for n in reported if n in c.columns]
    if "k_generation" in tables:
        return []  # eigenvalue runs: k_generation (k_plot)
    ch = results.chunks
    ch = ch[ch.scenario == scenario]
    out = []
    paths, chunk = results.provenance["paths"], results.provenance["chunk_paths"]
    m = np.array([min(chunk, paths - i * chunk) for i in range(len(ch))], dtype=float)
    for n in reported:
        if n in ch.columns and len(ch) > 1:  # a tally summed per history, its error from the chunks' spread
            x = ch[n].to_numpy() / m
            N = np.cumsum(m)
            mean = np.cumsum(ch[n].to_numpy()) / N
            se = np.array([math.sqrt(np.sum(m[:b + 1] * (x[:b + 1] - mean[b]) ** 2) / (N[b] * b)) if b else np.nan
                           for b in range(len(m))])
            out.append((n, N, mean, se))
    return out


def convergence(results, scenario="base"):
    """The figure of every reported estimate's convergence, or None when none has a history."""
    series = convergence_series(results, scenario)
    if not series:
        return None, {}
    cols = min(3, len(series))
    rows = math.ceil(len(series) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
    record = {"kind": "convergence", "scenario": scenario, "series": {}}
    e = results.estimates
    for ax, (name, x, mean, se) in zip(axes.flat, series):
        est = e[(e.scenario == scenario) & (e.name == name)].iloc[0]
        ax.plot(x, mean, color="C0", lw=1.2, marker="." if len(x) < 30 else None, label="estimate")
        ax.fill_between(x, mean - Z95 * se, mean + Z95 * se, color="C0", alpha=0.25, lw=0, label="95% band")
        ref, tol = _reference(est)
        if ref is not None and tol:
            ax.axhspan(ref - tol, ref + tol, color="C3", alpha=0.15, lw=0, label=f"reference {readable(ref)} ± {readable(tol)}")
        elif ref is not None:
            ax.axhline(ref, color="C3", ls="--", lw=1, label=f"reference {readable(ref)}")
        if _spans_decades(x, decades=1):
            ax.set_xscale("log")
        ax.set_title(name + (f" ({est['unit']})" if est["unit"] else ""))
        ax.set_xlabel(est["samples_of"] or "paths")
        ax.legend(fontsize=7)
        record["series"][name] = {"points": len(x), "final_value": float(mean[-1]), "final_std_error": float(se[-1]),
                                  "estimate": float(est["value"]), "reference": ref, "tolerance": tol,
                                  "log_x": ax.get_xscale() == "log"}
    for ax in axes.flat[len(series):]:
        ax.axis("off")
    fig.suptitle(f"{scenario}: convergence")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig, record


def k_plot(results, scenario="base"):
    """k per generation by each estimator and the source's entropy; None without k_generation."""
    if "k_generation" not in results.tables:
        return None, {}
    k = results.tables["k_generation"]
    k = k[k.scenario == scenario]
    g = k["generation"].to_numpy()
    active = k["active"].to_numpy() == 1
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, gridspec_kw={"height_ratios": [2, 1]})
    for i, name in enumerate(("k_collision", "k_absorption", "k_track")):
        top.plot(g, k[name], ".", ms=2.5, color=f"C{i}", label=name)
    e = results.estimates
    keff = e[(e.scenario == scenario) & (e.name == "k_eff")].iloc[0]
    top.axhline(keff["value"], color="k", lw=1, label=f"k_eff {keff['value']:.5f} ± {keff['std_error']:.5f}")
    top.axhspan(keff["value"] - Z95 * keff["std_error"], keff["value"] + Z95 * keff["std_error"], color="k", alpha=0.15, lw=0)
    ref, tol = _reference(keff)
    if ref is not None:
        top.axhline(ref, color="C3", ls="--", lw=1, label=f"reference {readable(ref)}")
    first_active = g[active][0] if active.any() else g[-1] + 1
    for ax in (top, bottom):
        ax.axvspan(g[0] - 0.5, first_active - 0.5, color="0.85", lw=0)
    top.set_ylabel("k")
    top.legend(fontsize=7, ncol=2)
    top.set_title(f"{scenario}: k per generation (inactive generations shaded)")
    bottom.plot(g, k["entropy"], color="C4", lw=1)
    bottom.set_ylabel("entropy (bits)")
    bottom.set_xlabel("generation")
    fig.tight_layout()
    record = {"kind": "k", "scenario": scenario, "generations": len(g), "active": int(active.sum()),
              "k_eff": float(keff["value"]), "entropy_last": float(k["entropy"].iloc[-1])}
    return fig, record


def pnl(results, scenario="base"):
    """The P&L histogram (loss bins regrouped to about 200) with each level's VaR and ES."""
    if "loss_histogram" not in results.tables:
        return None, {}
    h = results.tables["loss_histogram"]
    h = h[h.scenario == scenario]
    low, high, count = (h[c].to_numpy() for c in ("low", "high", "count"))
    total = float(count.sum())
    finite = np.isfinite(low) & np.isfinite(high)
    low, high, count = low[finite], high[finite], count[finite]
    used = np.nonzero(count)[0]
    lo, hi = used[0], used[-1] + 1
    step = max(1, (hi - lo) // 200)
    starts = list(range(lo, hi, step))
    left = np.array([-high[min(i + step, hi) - 1] for i in starts])  # P&L = -loss
    width = np.array([high[min(i + step, hi) - 1] - low[i] for i in starts])
    counts = np.array([count[i:min(i + step, hi)].sum() for i in starts])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(left, counts, width=width, align="edge", color="C0", alpha=0.7, label="P&L")
    q = results.tables["quantiles"]
    q = q[q.scenario == scenario]
    record = {"kind": "pnl", "scenario": scenario, "total": total, "levels": []}
    for i, row in enumerate(q.itertuples()):
        ax.axvline(-row.var, color=f"C{1 + i}", lw=1.2, label=f"VaR {row.level:.1%}: {readable(row.var)}")
        ax.axvline(-row.es, color=f"C{1 + i}", ls=":", lw=1.2, label=f"ES {row.level:.1%}: {readable(row.es)}")
        record["levels"].append({"level": float(row.level), "var": float(row.var), "es": float(row.es)})
    ax.set_yscale("log")
    ax.set_xlabel("P&L at the horizon (losses are negative)")
    ax.set_ylabel("scenarios")
    ax.legend(fontsize=7)
    ax.set_title(f"{scenario}: P&L with VaR (solid) and ES (dotted)")
    fig.tight_layout()
    return fig, record


def pnl_groups(results, scenario="base"):
    """Each group's own P&L distribution (model.portfolio.standalone), one panel per
    grouping column, with the group's standalone VaR at the first level."""
    if "group_loss_histograms" not in results.tables:
        return None, {}
    h = results.tables["group_loss_histograms"]
    h = h[(h.scenario == scenario) & np.isfinite(h["low"]) & np.isfinite(h["high"])]
    alone = results.tables["group_standalone"]
    alone = alone[alone.scenario == scenario]
    level = alone["level"].min()
    groups = list(dict.fromkeys(h["name"]))
    columns = list(dict.fromkeys(g.split("=", 1)[0] for g in groups))
    fig, axes = plt.subplots(len(columns), 1, figsize=(8, 3.2 * len(columns)), squeeze=False)
    record = {"kind": "pnl_groups", "scenario": scenario, "level": float(level), "groups": {}}
    for ax, column in zip(axes[:, 0], columns):
        mine = [g for g in groups if g.split("=", 1)[0] == column]
        rows = h[h["name"].isin(mine)]
        # The loss bins regrouped on one grid of 60 for the column's groups; P&L = -loss.
        centre_all = -(rows["low"].to_numpy() + rows["high"].to_numpy()) / 2
        edges = np.linspace(centre_all.min(), centre_all.max() + 1e-9 * max(1.0, abs(centre_all.max())), 61)
        many = False
        for i, g in enumerate(mine):
            one = rows[rows["name"] == g]
            centre = -(one["low"].to_numpy() + one["high"].to_numpy()) / 2
            count = one["count"].to_numpy()
            binned, _ = np.histogram(centre, bins=edges, weights=count)
            density = binned / count.sum() / np.diff(edges)
            many = many or count.sum() >= 10000
            var = float(alone[(alone["name"] == g) & (alone["level"] == level)]["var"].iloc[0])
            ax.stairs(density, edges, color=f"C{i}", lw=1.2, label=f"{g.split('=', 1)[1]}: VaR {readable(var)}")
            ax.axvline(-var, color=f"C{i}", ls="--", lw=0.8)
            record["groups"][g] = {"scenarios": float(count.sum()), "var": var}
        if many:
            ax.set_yscale("log")
        ax.set_ylabel("density")
        ax.set_title(f"{scenario}: P&L by {column}, standalone VaR {level:.1%} dashed", fontsize=9)
        ax.legend(fontsize=7)
    axes[-1, 0].set_xlabel("P&L at the horizon (losses are negative)")
    fig.tight_layout()
    return fig, record


def _geometry(results, scenario):
    """The scenario's geometry block (its override, else the job's), or {}."""
    import yaml
    raw = next(s for s in results._raw["scenarios"] if s["name"] == scenario)
    if "model.geometry" in raw["overrides"]:
        return yaml.safe_load(raw["overrides"]["model.geometry"]) or {}
    return ((yaml.safe_load(results.config) or {}).get("model") or {}).get("geometry") or {}


def flux(results, scenario="base"):
    """The flux per bin against depth (slab) or radius (sphere), region boundaries marked."""
    if "flux" not in results.tables:
        return None, {}
    f = results.tables["flux"]
    units = f.attrs.get("units", {})
    f = f[f.scenario == scenario]
    edge = units.get("low", "")
    axis = "radius" if "radius" in edge else "depth" if "depth" in edge else "position"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    record = {"kind": "flux", "scenario": scenario, "axis": axis, "groups": {}, "boundaries": []}
    for g in sorted(set(f["group"].astype(int))):
        sel = f[f["group"] == g]
        mid = 0.5 * (sel["low"] + sel["high"]).to_numpy()
        ax.errorbar(mid, sel["track"], yerr=Z95 * sel["track_std_error"], fmt=".", ms=3, lw=0.8, label=f"group {g}: track length")
        ax.errorbar(mid, sel["collision"], yerr=Z95 * sel["collision_std_error"], fmt="x", ms=3, lw=0.6, alpha=0.6,
                    label=f"group {g}: collision")
        ref = sel["reference"].to_numpy()
        has_ref = bool(np.all(np.isfinite(ref)))
        if has_ref:
            ax.step(np.append(sel["low"], sel["high"].iloc[-1]), np.append(ref, ref[-1]), where="post", color="C3", lw=1,
                    label=f"group {g}: closed form")
        record["groups"][str(g)] = {"bins": len(sel), "track": [float(v) for v in sel["track"]], "reference": has_ref}
    geometry = _geometry(results, scenario)
    edges = geometry.get("radii") or geometry.get("boundaries") or []
    for i, b in enumerate(edges):
        ax.axvline(float(b), color="0.4", ls=":", lw=1, label="region boundary" if i == 0 else None)
        record["boundaries"].append(float(b))
    values = f["track"].to_numpy()
    if _spans_decades(values):
        ax.set_yscale("log")
    record["log_y"] = ax.get_yscale() == "log"
    ax.set_xlabel(f"{axis} (cm)")
    ax.set_ylabel(f"scalar flux ({units.get('track', 'per source particle')}; 95% bars)")
    ax.legend(fontsize=7)
    ax.set_title(f"{scenario}: flux by {axis}")
    fig.tight_layout()
    return fig, record


def _hex_lattice(results, scenario, tally):
    """The hexagonal lattice a lattice tally bins by, as (orientation, pitch, centre
    x, centre y), from the scenario's config; None for any other tally."""
    import yaml
    raw = next(s for s in results._raw["scenarios"] if s["name"] == scenario)
    model = (yaml.safe_load(results.config) or {}).get("model") or {}
    tallies = yaml.safe_load(raw["overrides"]["model.tallies"]) if "model.tallies" in raw["overrides"] else model.get("tallies")
    block = next((t for t in tallies or [] if isinstance(t, dict) and t.get("name") == tally), None)
    if not block or block.get("filter") != "lattice":
        return None
    lattice = next((l for l in _geometry(results, scenario).get("lattices") or [] if l.get("name") == block.get("lattice")), None)
    if not lattice or lattice.get("type") != "hexagonal":
        return None
    return str(lattice.get("orientation", "y")), float(lattice["pitch"][0]), float(lattice["center"][0]), float(lattice["center"][1])


def _hex_centres(hexagonal, shape):
    """Each axial index pair's element centre (x, y), arrays over (i, j)."""
    orientation, pitch, cx, cy = hexagonal
    a, b = np.meshgrid(np.arange(shape[0]) - (shape[0] - 1) // 2, np.arange(shape[1]) - (shape[1] - 1) // 2, indexing="ij")
    if orientation == "y":  # steps 30 degrees up from x, and along y
        return cx + pitch * a * math.sqrt(3) / 2, cy + pitch * (a / 2 + b)
    return cx + pitch * (a + b / 2), cy + pitch * b * math.sqrt(3) / 2  # along x, and 60 degrees up


def _map(ax, values, hexagonal, centres, cmap):
    """values over (i, j) (NaN: not drawn) as squares, or as the lattice's hexagons."""
    if hexagonal is None:
        return ax.imshow(values.T, origin="lower", cmap=cmap, interpolation="nearest")
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import RegularPolygon
    orientation, pitch = hexagonal[0], hexagonal[1]
    keep = np.isfinite(values)
    # y: flat top and bottom (a vertex along x); x: a vertex at the top.
    patches = [RegularPolygon((x, y), 6, radius=pitch / math.sqrt(3), orientation=math.pi / 6 if orientation == "y" else 0)
               for x, y in zip(centres[0][keep], centres[1][keep])]
    collection = PatchCollection(patches, cmap=cmap, edgecolor="0.3", linewidth=0.3)
    collection.set_array(values[keep])
    ax.add_collection(collection)
    ax.set_xlim(centres[0][keep].min() - pitch, centres[0][keep].max() + pitch)
    ax.set_ylim(centres[1][keep].min() - pitch, centres[1][keep].max() + pitch)
    ax.set_aspect("equal")
    return collection


def power_maps(results, scenario="base"):
    """(file name, figure, record) per NAME_power table (a CSG lattice or mesh
    tally's normalised fission rates): the map over i (x) and j (y), or over a
    hexagonal lattice's hexagons, its relative error, and for several z layers the
    axial profile; bins that read 0 (no fission) are left blank."""
    out = []
    for name, table in sorted(results.tables.items()):
        if not name.endswith("_power") or list(table.columns[-5:]) != ["i", "j", "k", "power", "power_std_error"]:
            continue
        t = table[table.scenario == scenario]
        if t.empty:
            continue
        shape = tuple(int(t[c].max()) + 1 for c in ("i", "j", "k"))
        power = np.zeros(shape)
        var = np.zeros(shape)
        i, j, k = (t[c].to_numpy().astype(int) for c in ("i", "j", "k"))
        power[i, j, k] = t["power"].to_numpy()
        var[i, j, k] = t["power_std_error"].to_numpy() ** 2
        # Along z: the radial map is each column's mean, its error from the layers' (independent enough to sum).
        radial, radial_se = power.mean(axis=2), np.sqrt(var.sum(axis=2)) / shape[2]
        fuelled = radial > 0
        shown = np.where(fuelled, radial, np.nan)
        rel = np.where(fuelled, 100 * radial_se / np.where(fuelled, radial, 1), np.nan)
        hexagonal = _hex_lattice(results, scenario, name[:-len("_power")])
        centres = _hex_centres(hexagonal, shape) if hexagonal else None
        panels = 3 if shape[2] > 1 else 2
        fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.6))
        record = {"kind": "power_map", "scenario": scenario, "table": name, "shape": list(shape),
                  "fuelled_bins": int(fuelled.sum()), "hexagonal": hexagonal is not None}
        im = _map(axes[0], shown, hexagonal, centres, "inferno")
        if fuelled.any():
            for label, pick in (("max", np.nanargmax), ("min", np.nanargmin)):
                ii, jj = np.unravel_index(pick(shown), shown.shape)
                record[label] = {"i": int(ii), "j": int(jj), "power": float(radial[ii, jj]),
                                 "std_error": float(radial_se[ii, jj])}
                at = (centres[0][ii, jj], centres[1][ii, jj]) if hexagonal else (ii, jj)
                axes[0].plot(*at, "h" if hexagonal else "s", mfc="none", mec="k" if label == "max" else "w", ms=7, mew=1.2)
            record["mean"] = float(radial[fuelled].mean())
        fig.colorbar(im, ax=axes[0], shrink=0.85, label="normalised power")
        title = f"{name}: max {readable(record['max']['power'])} +- {record['max']['std_error']:.2g}, " \
                f"min {readable(record['min']['power'])} +- {record['min']['std_error']:.2g}" if fuelled.any() else name
        axes[0].set_title(title, fontsize=9)
        im = _map(axes[1], rel, hexagonal, centres, "viridis")
        fig.colorbar(im, ax=axes[1], shrink=0.85, label="relative standard error (%)")
        axes[1].set_title("its error", fontsize=9)
        for ax in axes[:2]:
            ax.set_xlabel("x (cm)" if hexagonal else "i (x)")
            ax.set_ylabel("y (cm)" if hexagonal else "j (y)")
        if shape[2] > 1:
            axial = power.sum(axis=(0, 1))
            axial = axial / axial.mean() if axial.mean() > 0 else axial
            axes[2].plot(axial, np.arange(shape[2]), "o-", ms=3)
            axes[2].set_xlabel("layer power (mean 1)")
            axes[2].set_ylabel("k (z)")
            axes[2].set_title("axial profile", fontsize=9)
            record["axial"] = [float(a) for a in axial]
        fig.tight_layout()
        out.append((f"{_file_name(scenario)}.{_file_name(name)}.png", fig, record))
    return out


def _number(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def sweeps(results):
    """(file name, figure, record) per estimate of each grid of scenarios that set the same numeric keys."""
    grids = {}
    for s in results._raw["scenarios"][1:]:
        keys = tuple(sorted(s["overrides"]))
        values = [_number(s["overrides"][k]) for k in keys]
        if keys and all(v is not None for v in values):
            grids.setdefault(keys, []).append((values, s["name"]))
    e = results.estimates
    out = []
    for keys, points in grids.items():
        if len(points) < 2:
            continue
        names = [n for n in e[e.scenario == points[0][1]]["name"]]
        for est in names:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            record = {"kind": "sweep", "keys": list(keys), "estimate": est, "series": {}}
            series = {}
            for values, scen in points:
                row = e[(e.scenario == scen) & (e.name == est)]
                if len(row):
                    series.setdefault(tuple(values[1:]), []).append((values[0], row.iloc[0]["value"], row.iloc[0]["std_error"], scen))
            for other, pts in sorted(series.items()):
                pts.sort()
                label = ", ".join(f"{k.split('.')[-1]}={v:g}" for k, v in zip(keys[1:], other)) or est
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[Z95 * p[2] for p in pts], marker="o", ms=4,
                            capsize=3, label=label)
                record["series"][label] = {"x": [p[0] for p in pts], "y": [float(p[1]) for p in pts],
                                           "scenarios": [p[3] for p in pts]}
            ax.set_xlabel(keys[0])
            ax.set_ylabel(f"{est} (95% bars)")
            ax.legend(fontsize=7)
            ax.set_title(f"{est} across the sweep")
            fig.tight_layout()
            out.append((f"sweep.{_file_name(est)}.png", fig, record))
    return out


def _file_name(s):
    return re.sub(r"[^A-Za-z0-9_.=,+-]", "_", s)


def save_all(results, outdir):
    """Every plot of the results as PNGs in outdir, and plots.json; returns {file: record}."""
    os.makedirs(outdir, exist_ok=True)
    manifest = {}

    def save(name, fig, record):
        if fig is None:
            return
        fig.savefig(os.path.join(outdir, name), dpi=110)
        plt.close(fig)
        manifest[name] = record

    for s in results.scenario_names:
        for kind, draw in (("convergence", convergence), ("k", k_plot), ("pnl", pnl), ("pnl_groups", pnl_groups),
                           ("flux", flux)):
            save(f"{_file_name(s)}.{kind}.png", *draw(results, s))
        for name, fig, record in power_maps(results, s):
            save(name, fig, record)
    for name, fig, record in sweeps(results):
        save(name, fig, record)
    with open(os.path.join(outdir, "plots.json"), "w") as out:
        json.dump(manifest, out, indent=1)
    return manifest


def main(argv=None):
    import mcsim
    p = argparse.ArgumentParser(prog="mcsim plot", description="Plot an mcsim results file as PNGs.")
    p.add_argument("results")
    p.add_argument("-o", "--out", help="folder for the PNGs (default: RESULTS.plots)")
    a = p.parse_args(argv)
    try:
        r = mcsim.open(a.results)
    except mcsim.RunError as e:
        raise SystemExit(f"mcsim plot: {e}")
    outdir = a.out or os.path.splitext(a.results)[0] + ".plots"
    for name in sorted(save_all(r, outdir)):
        print(os.path.join(outdir, name))


if __name__ == "__main__":
    main()
