"""The CI check that every kernel specialization generated during a test session is valid CUDA
C++ for sm_90: at session end the CUDA source of each (recorded by simt while the tests ran, on
any backend) goes through NVRTC for sm_90, in parallel, and the session fails on any NVRTC error;
each kernel's NVVM IR (the cuda backend's faster path, where it covers the kernel) goes through
libNVVM for compute_90 the same way, and the summary names what keeps the other kernels on the
CUDA C++ path. Skipped, with the reason printed, only when NVRTC (or, for the IR, libNVVM) cannot
be found. With pytest-xdist each worker checks its own kernels and the controller reports them
all; a kernel both workers generated is checked by the first to claim it in a directory they
share (about one in eight of the suite's kernels)."""
import os
import shutil
import tempfile

import pytest

ARCH = 90
_KEY = "simt_nvrtc_check"
_CLAIMS = "simt_nvrtc_claims"
# NVRTC's device front end (every source and template error, in about two thirds of a full
# compile's time) unless SIMT_NVRTC_CHECK=full asks for cubins; the GPU suite compiles them all.
FULL = os.environ.get("SIMT_NVRTC_CHECK", "") == "full"


def start_recording():
    import simt
    simt._simt._record_cuda_sources(True)


def configure_node(node):
    """The controller hands each xdist worker the directory where checks are claimed."""
    config = node.config
    if not hasattr(config, "_simt_nvrtc_claims"):
        config._simt_nvrtc_claims = tempfile.mkdtemp(prefix="simt-nvrtc-claims-")
    node.workerinput[_CLAIMS] = config._simt_nvrtc_claims


def run_check(claim_dir=""):
    """Checks what was recorded; returns a picklable result dict."""
    import simt
    available, why = simt._simt._nvrtc_available()
    if not available:
        return {"checked": 0, "failures": [], "skipped": why}
    threads = max(1, (os.cpu_count() or 1))
    report = simt._simt._nvrtc_check(ARCH, threads, full=FULL, claim_dir=claim_dir)
    return {"checked": report["checked"], "failures": list(report["failures"]), "skipped": "",
            "nvvm_checked": report["nvvm_checked"], "nvvm_skipped": report["nvvm_skipped"],
            "nvvm_not_covered": list(report["nvvm_not_covered"])}


def merge(results):
    merged = {"checked": 0, "failures": [], "skipped": "", "nvvm_checked": 0, "nvvm_skipped": "", "nvvm_not_covered": []}
    for r in results:
        merged["checked"] += r["checked"]
        merged["failures"].extend(r["failures"])
        merged["skipped"] = merged["skipped"] or r["skipped"]
        merged["nvvm_checked"] += r.get("nvvm_checked", 0)
        merged["nvvm_skipped"] = merged["nvvm_skipped"] or r.get("nvvm_skipped", "")
        merged["nvvm_not_covered"].extend(r.get("nvvm_not_covered", []))
    return merged


def _nvvm_line(merged):
    """One line on the NVVM IR half of the check: how many kernels' IR compiled, and what keeps
    the others on the CUDA C++ path (the commonest reasons)."""
    if merged["nvvm_skipped"]:
        return "NVVM IR check SKIPPED: " + merged["nvvm_skipped"].splitlines()[0]
    reasons = {}
    for why in merged["nvvm_not_covered"]:
        reasons[why] = reasons.get(why, 0) + 1
    top = ", ".join(f"{why} {n}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:6])
    return (f"NVVM IR check: {merged['nvvm_checked']} kernel(s) compile with libNVVM for compute_{ARCH}; "
            f"{len(merged['nvvm_not_covered'])} take the CUDA C++ path ({top})")


def session_finish(session):
    config = session.config
    if hasattr(config, "workerinput"):  # an xdist worker: hand the result to the controller
        config.workeroutput[_KEY] = run_check(config.workerinput.get(_CLAIMS, ""))
        return
    result = run_check()
    claims = getattr(config, "_simt_nvrtc_claims", None)
    if claims:
        shutil.rmtree(claims, ignore_errors=True)
    results = getattr(config, "_simt_nvrtc_results", [])
    if not getattr(config, "_simt_nvrtc_distributed", False):
        results = results + [result]
    merged = merge(results)
    config._simt_nvrtc_merged = merged
    if merged["failures"] and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def node_down(node):
    config = node.config
    config._simt_nvrtc_distributed = True
    output = getattr(node, "workeroutput", None) or {}
    if _KEY in output:
        config._simt_nvrtc_results = getattr(config, "_simt_nvrtc_results", []) + [output[_KEY]]


def terminal_summary(terminalreporter, config):
    merged = getattr(config, "_simt_nvrtc_merged", None)
    if merged is None:
        return
    tr = terminalreporter
    if merged["skipped"]:
        tr.write_line(f"NVRTC check of generated kernels SKIPPED: {merged['skipped']}", yellow=True)
        return
    if not merged["failures"]:
        how = "compile to cubins" if FULL else "pass NVRTC's device front end"
        tr.write_line(f"NVRTC check: {merged['checked']} generated kernel source(s) {how} for sm_{ARCH}", green=True)
        tr.write_line(_nvvm_line(merged), green=not merged["nvvm_skipped"], yellow=bool(merged["nvvm_skipped"]))
        return
    tr.section(f"NVRTC check: {len(merged['failures'])} generated kernel(s) do not compile for sm_{ARCH}", red=True)
    for f in merged["failures"]:
        tr.write_line(f)
        tr.write_line("")
