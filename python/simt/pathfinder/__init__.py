"""simt.pathfinder: where this machine's CUDA pieces are — the driver (libcuda), NVRTC, the CUDA
headers, libdevice and libNVVM (optional: the faster compile path) — and, for anything missing,
every place that was tried.

`python -m simt.pathfinder` prints the report. The search itself is C++ (the cuda backend uses
the same results): libcuda through the OS loader only; NVRTC in $CUDA_PATH, $CUDA_HOME, NVIDIA
wheels in site-packages, the OS loader, then /usr/local/cuda."""
from .. import _simt

__all__ = ["NotFoundError", "report", "format_report", "find_libcuda", "find_nvrtc", "find_cuda_include_dir",
           "find_libdevice", "find_libnvvm"]

_WHAT = {
    "libcuda": "the CUDA driver (libcuda.so.1)",
    "nvrtc": "NVRTC (libnvrtc.so)",
    "include": "the CUDA headers (cuda_runtime.h)",
    "libdevice": "libdevice (libdevice.10.bc)",
    "libnvvm": "libNVVM (libnvvm.so)",
}


class NotFoundError(FileNotFoundError):
    """A CUDA component is not on this machine; the message lists every place tried."""


def report():
    """Everything the pathfinder knows, as a dict: for 'libcuda', 'nvrtc', 'include' and
    'libdevice' a dict with 'path' (None if not found), 'found_by' and 'tried'; 'driver' and
    'nvrtc_library' (versions, devices, supported architectures); 'backend'."""
    r = _simt.pathfinder_report()
    r["backend"] = _simt.backend_name()
    return r


def _find(key):
    entry = _simt.pathfinder_report()[key]
    if entry["path"] is None:
        lines = "\n".join("  - " + t for t in entry["tried"])
        what = _WHAT[key]
        raise NotFoundError(f"{what[0].upper()}{what[1:]} was not found. Looked in:\n{lines}")
    return entry["path"]


def find_libcuda():
    """Path of the CUDA driver library, as the OS loader resolves it."""
    return _find("libcuda")


def find_nvrtc():
    """Path of the NVRTC library simt compiles kernels with."""
    return _find("nvrtc")


def find_cuda_include_dir():
    """Directory holding cuda_runtime.h."""
    return _find("include")


def find_libdevice():
    """Path of libdevice.10.bc."""
    return _find("libdevice")


def find_libnvvm():
    """Path of libNVVM, which the cuda backend compiles most kernels with when it is there
    (NVRTC compiles the rest, and all of them without it)."""
    return _find("libnvvm")


def _version(v):
    return f"{v[0]}.{v[1]}" if v else "?"


def format_report(r=None):
    """The report as text (what `python -m simt.pathfinder` prints)."""
    r = report() if r is None else r
    out = [f"simt pathfinder: where the CUDA pieces are (active backend: {r['backend']})", ""]
    rows = []
    for key, label in (("libcuda", "CUDA driver"), ("nvrtc", "NVRTC"), ("include", "CUDA headers"),
                       ("libdevice", "libdevice"), ("libnvvm", "libNVVM")):
        e = r[key]
        rows.append((label, e["path"] or "not found", f"(found by {e['found_by']})" if e["path"] else ""))
    width = max(len(p) for _, p, _ in rows)
    for label, path, how in rows:
        out.append(f"  {label:<13} {path:<{width}}  {how}".rstrip())
    out.append("")
    driver = r["driver"]
    if driver.get("loaded"):
        out.append(f"  driver: CUDA {_version(driver.get('version'))}")
        devices = driver.get("devices", [])
        if not devices:
            out.append("  devices: none")
        for i, (name, cc) in enumerate(devices):
            out.append(f"  device {i}: {name} (compute capability {cc[0]}.{cc[1]}, sm_{cc[0]}{cc[1]})")
    else:
        out.append("  driver: not loaded")
    lib = r["nvrtc_library"]
    if lib.get("loaded"):
        archs = lib.get("archs", [])
        span = f"sm_{archs[0]} to sm_{archs[-1]}" if archs else "none"
        out.append(f"  NVRTC: version {_version(lib.get('version'))}, targets {span}")
    else:
        out.append("  NVRTC: not loaded")
    for key in ("libcuda", "nvrtc", "include", "libdevice"):
        e = r[key]
        if e["path"] is None:
            out.append("")
            what = _WHAT[key]
            out.append(f"{what[0].upper()}{what[1:]} was not found. Looked in:")
            out.extend("  - " + t for t in e["tried"])
    if r["libnvvm"]["path"] is None:
        out.append("")
        out.append("libNVVM was not found: every kernel compiles through NVRTC (slower to compile, the same code); "
                   "`pip install nvidia-nvvm` or a CUDA toolkit's nvvm/lib64 provides it.")
    if r["backend"] != "cuda" and r["libcuda"]["path"] and r.get("cuda_unavailable_reason"):
        out.append("")
        out.append("The cuda backend is unavailable: " + r["cuda_unavailable_reason"])
    return "\n".join(out)
