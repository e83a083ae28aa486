"""simt.pathfinder: where libcuda, NVRTC, the CUDA headers and libdevice are, and every place tried."""
import os
import subprocess
import sys

import pytest

import simt
from simt import pathfinder

from conftest import ROOT

SIMT_PATH = os.path.dirname(os.path.dirname(os.path.abspath(simt.__file__)))  # where the simt under test lives


def run_report(env_changes, code="from simt import pathfinder; import json; print(json.dumps(pathfinder.report()))"):
    env = dict(os.environ)
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SIMT_PATH, env.get("PYTHONPATH")) if p)
    env["SIMT_BACKEND"] = "cpu"  # the report needs no backend; a fake NVRTC must not stop the import
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    import json
    return json.loads(r.stdout)


def report_with_site_packages(site):
    """The report of a process that has `site` first on sys.path (and no CUDA_PATH/CUDA_HOME)."""
    code = ("import sys; sys.path.insert(0, %r); from simt import pathfinder; import json; "
            "print(json.dumps(pathfinder.report()))" % str(site))
    return run_report({"CUDA_PATH": None, "CUDA_HOME": None}, code)


def fake_file(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x7fELF fake")
    return str(path)


def test_report_has_every_component_and_what_was_tried():
    r = pathfinder.report()
    for key in ("libcuda", "nvrtc", "include", "libdevice", "libnvvm"):
        entry = r[key]
        assert set(entry) == {"path", "found_by", "tried"}
        if entry["path"] is None:
            assert entry["tried"], key  # a miss always says where it looked
        else:
            assert os.path.exists(entry["path"]) and entry["found_by"]
    assert r["backend"] == simt.backend()
    if r["libcuda"]["path"] is None:
        assert all(t.startswith("OS loader, libcuda.so") for t in r["libcuda"]["tried"])
        with pytest.raises(pathfinder.NotFoundError, match=r"(?s)The CUDA driver \(libcuda.so.1\) was not found\. "
                                                            r"Looked in:\n  - OS loader, libcuda.so.1"):
            pathfinder.find_libcuda()
        assert not simt.cuda.is_available()


def test_module_prints_a_report():
    r = subprocess.run([sys.executable, "-m", "simt.pathfinder"], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": SIMT_PATH})
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("simt pathfinder: where the CUDA pieces are (active backend: ")
    for label in ("CUDA driver", "NVRTC", "CUDA headers", "libdevice", "libNVVM"):
        assert f"  {label}" in out
    nvrtc = pathfinder.report()["nvrtc"]
    if nvrtc["path"]:
        assert nvrtc["path"] in out and f"(found by {nvrtc['found_by']})" in out


def test_cuda_path_wins_and_is_reported(tmp_path):
    lib = fake_file(tmp_path / "cuda" / "lib64" / "libnvrtc.so.13.0.1")
    fake_file(tmp_path / "cuda" / "include" / "cuda_runtime.h")
    r = run_report({"CUDA_PATH": str(tmp_path / "cuda"), "CUDA_HOME": None})
    assert r["nvrtc"]["path"] == lib and r["nvrtc"]["found_by"] == "CUDA_PATH"
    assert r["include"]["path"] == str(tmp_path / "cuda" / "include")
    assert r["nvrtc_library"]["loaded"] is False  # a fake library cannot load, and says so
    assert "cannot load NVRTC " + lib in r["nvrtc_library"]["error"]


def test_nvidia_wheel_in_site_packages_is_found(tmp_path):
    site = tmp_path / "venv" / "lib" / "site-packages"
    lib = fake_file(site / "nvidia" / "cu13" / "lib" / "libnvrtc.so.13")
    r = report_with_site_packages(site)
    assert r["nvrtc"]["path"] == lib and r["nvrtc"]["found_by"] == "site-packages"
    assert str(site) in r["site_packages"]
    assert "$CUDA_PATH: not set" in r["nvrtc"]["tried"] and "$CUDA_HOME: not set" in r["nvrtc"]["tried"]


def test_libnvvm_in_cuda_path_and_in_the_nvidia_wheel(tmp_path):
    lib = fake_file(tmp_path / "cuda" / "nvvm" / "lib64" / "libnvvm.so.4")
    r = run_report({"CUDA_PATH": str(tmp_path / "cuda"), "CUDA_HOME": None})
    assert r["libnvvm"]["path"] == lib and r["libnvvm"]["found_by"] == "CUDA_PATH"
    site = tmp_path / "venv" / "lib" / "site-packages"
    wheel = fake_file(site / "nvidia" / "cu13" / "lib" / "libnvvm.so.4")
    r = report_with_site_packages(site)
    assert r["libnvvm"]["path"] == wheel and r["libnvvm"]["found_by"] == "site-packages"


def test_find_functions_return_paths_or_list_the_places_tried():
    r = pathfinder.report()
    for key, find in (("libcuda", pathfinder.find_libcuda), ("nvrtc", pathfinder.find_nvrtc),
                      ("include", pathfinder.find_cuda_include_dir), ("libdevice", pathfinder.find_libdevice),
                      ("libnvvm", pathfinder.find_libnvvm)):
        if r[key]["path"] is not None:
            assert find() == r[key]["path"]
        else:
            with pytest.raises(pathfinder.NotFoundError) as info:
                find()
            for place in r[key]["tried"]:
                assert place in str(info.value)
