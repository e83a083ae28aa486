"""What the suite ran on: machine, device, versions; and the label used in result file names."""
import os
import platform
import re
import shutil
import subprocess


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def memory_bytes(field="MemAvailable"):
    """A field of /proc/meminfo in bytes (MemTotal, MemAvailable), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def last_level_cache_bytes():
    """The largest CPU cache, from sysfs (the rotation target for host buffers)."""
    best = 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in os.listdir(base):
            try:
                with open(os.path.join(base, entry, "size")) as f:
                    text = f.read().strip()
            except OSError:
                continue
            scale = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(text[-1:], 1)
            best = max(best, int(text.rstrip("KMG")) * scale)
    except OSError:
        pass
    return best or 32 * 1024 ** 2


def find_nvcc():
    """Path of nvcc (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin), or None."""
    found = shutil.which("nvcc")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return os.path.join(root, "bin", "nvcc")
    return None


def _command_output(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def git_commit(root):
    """SIMT_BENCH_COMMIT where set (a copy of the tree whose git metadata lags, as on a lent GPU
    machine), else the checkout's HEAD."""
    return os.environ.get("SIMT_BENCH_COMMIT") or _command_output(["git", "-C", root, "rev-parse", "--short", "HEAD"])


def describe(simt, libs, root):
    """The machine block of a result file."""
    backend = simt.backend()
    info = {"backend": backend, "cpu": cpu_model(), "cores": cpu_count(),
            "memory_gib": round((memory_bytes("MemTotal") or 0) / 1024 ** 3, 1),
            "os": f"{platform.system()} {platform.release()}", "python": platform.python_version(),
            "numpy": __import__("numpy").__version__, "simt": simt.__version__, "commit": git_commit(root)}
    if backend == "cuda":
        dev = simt.cuda.Device()
        info["device"] = dev.name
        info["compute_capability"] = ".".join(map(str, dev.compute_capability))
        info["device_memory_gib"] = round(dev.attributes.get("total_memory", 0) / 1024 ** 3, 1)
        smi = _command_output(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
        if smi:
            info["driver"] = smi.splitlines()[0]
        nvcc = find_nvcc()
        if nvcc:
            release = re.search(r"release ([0-9.]+)", _command_output([nvcc, "--version"]))
            info["nvcc"] = release.group(1) if release else "present"
        info["label"] = _slug(dev.name)
    else:
        info["device"] = f"{info['cpu']}, {info['cores']} cores (cpu backend)"
        info["label"] = f"{_slug(info['cpu'])}-{info['cores']}core"
    info["anchors"] = {name: lib.version() for name, lib in libs.items()
                       if name != "simt" and lib.unavailable_reason() is None}
    return info
