"""mcsim from Python: run a job in-process, or read a results file, into DataFrames.

    import mcsim
    r = mcsim.run("configs/quickstart.yaml", paths=1e6)   # a YAML path, YAML text or a dict
    r.estimates                                           # scenario, name, value, std_error, ...
    r = mcsim.open("results/quickstart.h5")               # the same object from a file

Config errors raise mcsim.ConfigError, whose text has every FILE:LINE:COLUMN;
faults during a run raise mcsim.RunError; Ctrl-C stops a run (a checkpoint is
written when it has an output) and raises mcsim.Stopped, a KeyboardInterrupt.
docs/python.md says more.
"""
import json
import os
import sys

from . import _core
from .results import Results

__all__ = ["run", "open", "Results", "ConfigError", "RunError", "Stopped", "__version__"]
__version__ = _core.version

ConfigError = _core.ConfigError
RunError = _core.RunError
Stopped = _core.Stopped


def _yaml_value(v):
    """A Python value as the text of a --set override."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**63:
        return str(int(v))  # paths=1e6 is a count
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return v
    return json.dumps(v)  # lists and maps: JSON is YAML flow text


def _override(key, value):
    # A bare key is a run setting: paths=1e6 means run.paths.
    return f"{key if '.' in key else 'run.' + key}={_yaml_value(value)}"


def _job_source(job):
    """(text or path, is_text) for a path, YAML text or a dict."""
    if isinstance(job, dict):
        try:
            import yaml
            return yaml.safe_dump(job, sort_keys=False), True
        except ImportError:
            return json.dumps(job, indent=2), True
    if isinstance(job, os.PathLike):
        return os.fspath(job), False
    if not isinstance(job, str):
        raise TypeError(f"a job is a YAML file's path, YAML text or a dict, not {type(job).__name__}")
    if "\n" in job or (":" in job and not os.path.exists(job)):
        return job, True
    return job, False


def run(job, output=None, *, backend=None, force=False, resume=False, progress=None, **overrides):
    """Runs a job in this process and returns its Results.

    job       a YAML file's path, YAML text, or a dict of the same keys
    output    also write the results file there (checkpoints beside it, as mcsim run)
    backend   "auto", "cpu" or "cuda" (default: the job's run.backend)
    force     replace an existing output; resume: continue from its checkpoints
    progress  a progress bar on stderr (default: when stderr is a terminal)
    overrides keys to set before the job is checked: paths=1e6 (run.paths), or
              any dotted key, **{"model.process.volatility": 0.3}
    """
    source, is_text = _job_source(job)
    sets = [_override(k, v) for k, v in overrides.items()]
    if progress is None:
        progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
    command = "mcsim.run(" + ", ".join(
        [repr(job if not isinstance(job, dict) else "<dict>")] + [repr(s) for s in sets]) + ")"
    out = "" if output is None else os.fspath(output)
    raw = _core.run(source, is_text, sets, backend or "", out, force, resume, progress, command)
    return Results(raw, path=out or None)


def open(path):  # noqa: A001 - the module's verb, as mcsim.open(path)
    """Reads a results file into Results (estimates, tables, chunks, provenance, timing);
    or a run's checkpoint (RESULTS.ckpt.h5), giving what it has finished so far
    (provenance["checkpoint"] names it)."""
    return Results(_core.open(os.fspath(path)), path=os.fspath(path))
