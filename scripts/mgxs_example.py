#!/usr/bin/env python3
"""Writes configs/data/two-group-mgxs.h5: a two-group library in OpenMC's MGXS layout
(what openmc.MGXSLibrary.export_to_hdf5 writes), for configs/transport-eigen-library.yaml.

  python3 scripts/mgxs_example.py configs/data/two-group-mgxs.h5

Data sets: `fuel`, the two-group fuel of configs/transport-eigen-infinite.yaml
(k_inf = 1.22) with P1 moments, and `water`, a moderator with upscatter.
"""
import sys

import h5py
import numpy as np


def data_set(f, name, total, absorption, scatter_p0, scatter_p1=None, fission=None, nu_fission=None, chi=None):
    """One data set at 294K: isotropic, P0 scattering or (with scatter_p1) P1."""
    order = 0 if scatter_p1 is None else 1
    g = f.create_group(name)
    g.attrs["order"] = order
    g.attrs["fissionable"] = fission is not None
    g.attrs["representation"] = np.bytes_("isotropic")
    g.attrs["scatter_shape"] = np.bytes_("[G][G'][Order]")
    g.attrs["scatter_format"] = np.bytes_("legendre")
    g.create_group("kTs").create_dataset("294K", data=2.53e-8)
    t = g.create_group("294K")
    t.create_dataset("total", data=np.array(total))
    t.create_dataset("absorption", data=np.array(absorption))
    if fission is not None:
        t.create_dataset("fission", data=np.array(fission))
        t.create_dataset("nu-fission", data=np.array(nu_fission))
        t.create_dataset("chi", data=np.array(chi))
    # Flattened by incoming group, outgoing groups g_min..g_max (from 1), then order.
    moments = [np.array(scatter_p0)] + ([] if scatter_p1 is None else [np.array(scatter_p1)])
    g_min, g_max, flat = [], [], []
    for g_in, row0 in enumerate(moments[0]):
        used = np.nonzero(row0)[0]
        g_min.append(used[0] + 1)
        g_max.append(used[-1] + 1)
        for h in range(used[0], used[-1] + 1):
            flat += [m[g_in][h] for m in moments]
    s = t.create_group("scatter_data")
    s.create_dataset("g_min", data=np.array(g_min, dtype=np.int32))
    s.create_dataset("g_max", data=np.array(g_max, dtype=np.int32))
    s.create_dataset("scatter_matrix", data=np.array(flat))


def main(path):
    with h5py.File(path, "w") as f:
        f.attrs["filetype"] = np.bytes_("mgxs")
        f.attrs["version"] = np.array([1, 0])
        f.attrs["energy_groups"] = 2
        f.attrs["delayed_groups"] = 0
        f.attrs["group structure"] = np.array([1e-5, 0.625, 2e7])
        data_set(f, "fuel", [0.6, 1.2], [0.08, 0.30], [[0.40, 0.12], [0.0, 0.90]], [[0.05, 0.01], [0.0, 0.10]],
                 fission=[0.02, 0.2], nu_fission=[0.052, 0.48], chi=[1.0, 0.0])
        data_set(f, "water", [0.65, 2.0], [0.0004, 0.02], [[0.58, 0.0696], [0.001, 1.979]],
                 [[0.30, 0.02], [0.0, 0.60]])


if __name__ == "__main__":
    main(sys.argv[1])
