# The benchmark harness (bench/): statistics, rotation, verification, tables, the registry, the
# report, and one end-to-end run. Logic only: no assertion depends on how fast anything is.
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from bench import libs, measure, model, report, stats, suite, table  # noqa: E402
from bench.model import Cell, Row, Section  # noqa: E402


def test_median_and_quantiles_match_numpy(rng):
    for size in (1, 2, 7, 50):
        x = rng.standard_normal(size)
        assert stats.median(x) == pytest.approx(np.median(x))
        for q in (0.0, 0.25, 0.75, 1.0):
            assert stats.quantile(x, q) == pytest.approx(np.quantile(x, q))
    with pytest.raises(ValueError):
        stats.median([])
    s = stats.summarize([3.0, 1.0, 2.0, 10.0])
    assert (s["median_s"], s["min_s"], s["reps"]) == (2.5, 1.0, 4)


def test_time_ratio_reads_the_same_for_times_and_rates():
    # simt takes 2 s where the anchor takes 4 s: half the time, whether shown as time or as rate.
    assert stats.time_ratio(2.0, 4.0, higher_is_better=False) == pytest.approx(0.5)
    assert stats.time_ratio(10.0, 5.0, higher_is_better=True) == pytest.approx(0.5)  # 10 GB/s vs 5 GB/s
    assert stats.time_ratio(None, 4.0, False) is None
    assert stats.time_ratio(0.0, 4.0, False) is None
    assert stats.fraction_of_limit(30.0, 40.0) == pytest.approx(0.75)
    assert stats.fraction_of_limit(30.0, None) is None


def test_repetitions_respect_bounds():
    assert stats.repetitions(0.01, 1.0, 5, 1000) == 100
    assert stats.repetitions(10.0, 1.0, 5, 1000) == 5
    assert stats.repetitions(1e-9, 1.0, 5, 1000) == 1000


def test_linear_fit_recovers_a_line(rng):
    a, b = rng.uniform(0, 1), rng.uniform(1e-5, 1e-3)
    xs = [256, 1024, 4096, 8192]
    fit_a, fit_b = stats.linear_fit(xs, [a + b * x for x in xs])
    assert (fit_a, fit_b) == (pytest.approx(a), pytest.approx(b))
    with pytest.raises(ValueError):
        stats.linear_fit([5, 5], [1, 2])


def test_rotation_exceeds_twice_the_cache_unless_capped():
    cache = 50 * 2**20
    assert measure.rotation_count(3 * 8 * 2**28, cache) == 1
    k = measure.rotation_count(3 * 8 * 2**20, cache)
    assert k * 3 * 8 * 2**20 >= 2 * cache and (k - 1) * 3 * 8 * 2**20 < 2 * cache
    assert measure.rotation_count(3 * 8 * 1024, cache) == measure.MAX_SETS


def test_close_enough_reports_what_differs(rng):
    x = rng.uniform(-1, 1, 100)
    assert measure.close_enough(x.copy(), x, 0.0) is None
    y = x.copy()
    y[17] += 1e-3
    assert "index 17" in measure.close_enough(y, x, 1e-6)
    assert measure.close_enough(y, x, 1e-2) is None
    assert "shape" in measure.close_enough(x[:10], x, 1.0)
    y[3] = np.nan
    assert "non-finite" in measure.close_enough(y, x, 1.0)
    assert measure.close_enough(np.float64(2.0), 2.0 + 1e-9, 1e-6) is None
    assert "expected" in measure.close_enough(np.float64(2.0), 2.5, 1e-6)


class _Ctx:
    """The parts of suite.Context that measure_case reads, with tiny budgets."""
    quick, backend, cache_bytes = True, "cpu", 2**16
    budget_s, min_reps, max_reps, warmup, max_measure_s = 0.01, 3, 5, 2, 1.0

    def fits(self, host_bytes, device_bytes):
        return None


def test_time_calls_warms_up_then_times_the_following_repetitions():
    from bench.timing import HostTimer
    calls = []
    lib = type("FakeLib", (), {"synchronize": lambda self: None,
                               "timer": lambda self: HostTimer(lambda: None)})()
    ctx = _Ctx()
    ctx.warmup = 3
    summary, last = measure.time_calls(ctx, lib, calls.append)
    assert calls == list(range(len(calls)))          # each repetition its own index: buffers rotate
    assert last == calls[-1]                         # the answer checked is the last one written
    assert summary["reps"] == len(calls) - 3 and ctx.min_reps <= summary["reps"] <= ctx.max_reps


def test_size_labels():
    from bench.workloads.common import size_label
    assert size_label(2**20) == "n = 2**20"
    assert size_label(2**24 + 11) == "n = 2**24 + 11"
    assert size_label(3000) == "n = 3000"


class _WrongNumpy(libs.Numpy):
    def _op(self, name):
        return lambda a, b, c: np.subtract(a, b, out=c)


def _vecadd_case(rng, n=1000):
    a, b = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    return measure.ArrayCase("vecadd", [a, b], a + b, 3 * a.nbytes, stats.gbps,
                             lambda r, e: measure.close_enough(r, e, 0.0, 1e-15))


def test_measure_case_verifies_and_flags_wrong_answers(rng):
    case = _vecadd_case(rng)
    good = measure.measure_case(_Ctx(), libs.Numpy("cpu"), case)
    assert good.status == model.OK and good.value > 0 and good.stats["reps"] >= 3
    bad = measure.measure_case(_Ctx(), _WrongNumpy("cpu"), case)
    assert bad.status == model.WRONG and "expected" in bad.note and bad.value > 0
    # A library that is not present here, or lacks the operation, gives n/a with the reason.
    na = measure.measure_case(_Ctx(), libs.Numpy("cuda"), case)
    assert na.status == model.NA and "cpu backend" in na.note
    assert measure.measure_case(_Ctx(), libs.Numpy("cpu"), measure.ArrayCase(
        "no-such-op", case.inputs, None, 1.0, stats.gbps, None)).status == model.NA


def test_measure_case_runs_the_seed_kernel_through_simt(rng):
    cell = measure.measure_case(_Ctx(), libs.Simt("cpu"), _vecadd_case(rng, 5000))
    assert cell.status == model.OK, cell.note


def test_simt_operations_that_are_missing_are_not_available_not_errors():
    lib = libs.Simt("cpu")
    for op in ("add", "sum", "cumsum", "matmul"):
        try:
            fn = lib.op(op)
        except libs.NotAvailable as e:
            assert "not available yet" in str(e)
        else:
            assert callable(fn)


def _section():
    rows = [Row("n = 2**20", "GB/s", True, {"simt": Cell.ok(10.0), "numpy": Cell.ok(20.0),
                                             "cupy": Cell.na("CuPy is not installed")},
                limit=Cell.ok(40.0, note="measured with numpy"), limit_name="copy"),
            Row("n = 2**22", "GB/s", True, {"simt": Cell.wrong(12.0, "got 1, expected 2"), "numpy": Cell.ok(24.0),
                                             "cupy": Cell.na("CuPy is not installed")},
                limit=Cell.ok(40.0, note="measured with numpy"), limit_name="copy"),
            Row("n = 2**24", "GB/s", True, {"simt": Cell.na("simt.sum is not available yet"), "numpy": Cell.ok(5.0),
                                             "cupy": Cell.na("CuPy is not installed")})]
    return Section("demo", "Demo workload", rows=rows, notes=["a note"])


def test_table_shows_ratios_limits_and_reasons():
    text = "\n".join(table.section_table(_section()))
    lines = text.splitlines()
    assert lines[0] == "| case | simt | numpy | simt/numpy | copy | simt % of it |"
    assert "| n = 2**20 | 10.0 GB/s | 20.0 GB/s | 2.00× | 40.0 GB/s | 25% |" in lines
    assert "**wrong** 12.0 GB/s [1]" in text and "[1] got 1, expected 2" in text
    assert "n/a [2]" in text and "[2] simt.sum is not available yet" in text
    assert "cupy: n/a (CuPy is not installed)" in text      # a column n/a everywhere becomes one note
    assert text.count("measured with numpy") == 1           # the limit's source once, not per row
    assert "- a note" in text


def test_table_targets_and_time_units():
    rows = [Row("cold", "s", False, {"simt": Cell.ok(4.0)}, target=5.0),
            Row("warm", "s", False, {"simt": Cell.ok(2.0)}, target=1.5),
            Row("kernel", "ms", False, {"simt": Cell.ok(20.0), "numba-sim": Cell.ok(2.4e6, "extrapolated")})]
    text = "\n".join(table.section_table(Section("seed", "Seed", rows=rows)))
    assert "| cold | 4.00 s | — | — | ≤ 5 s | yes |" in text
    assert "| warm | 2.00 s | — | — | ≤ 1.5 s | **no** |" in text
    assert "2,400 s [1]" in text and "[1] extrapolated" in text
    assert table.fmt(0.000123) == "0.00012" and table.fmt(1234.5) == "1,234"


def test_section_json_round_trip():
    section = _section()
    again = model.section_from_dict(json.loads(json.dumps(model.section_to_dict(section))))
    assert again == section


def test_registry_reports_unmet_needs_and_crashes_as_sections():
    ctx = type("Ctx", (), {"backend": "cpu", "log": staticmethod(lambda m: None)})()
    needs_gpu = suite.Workload("gpu-only", "t", "m", lambda c: ([], []), [suite.backend("cuda")])
    s = suite.run_workload(ctx, needs_gpu)
    assert s.status == model.NA and "cuda backend" in s.note
    missing = suite.run_workload(ctx, suite.Workload("m", "t", "m", lambda c: ([], []),
                                                     [suite.module("no_such_module_xyz")]))
    assert missing.status == model.NA and "not installed" in missing.note

    def crash(c):
        raise RuntimeError("boom")
    s = suite.run_workload(ctx, suite.Workload("crash", "t", "m", crash))
    assert s.status == model.ERROR and "boom" in s.note


def test_workload_selection_by_name_and_prefix():
    names = [w.name for w in suite.select(["launch", "comp"])]
    assert names == ["launch", "compile"]
    assert [w.name for w in suite.select(None)][0] == "limits"
    with pytest.raises(SystemExit):
        suite.select(["no-such-workload"])


def _document(label, backend, date, sections):
    return {"schema": 1, "date": date, "mode": "quick", "command": "python -m bench --quick", "seconds": 12.0,
            "machine": {"label": label, "backend": backend, "device": f"{label} device", "cpu": "CPU", "cores": 2,
                        "memory_gib": 8, "os": "Linux", "python": "3.11", "numpy": "2.0", "commit": "abc",
                        "anchors": {"numpy": "2.0"}, "load_average": [0.5, 0.7]},
            "methods": {"demo": "How demo is measured."},
            "sections": [model.section_to_dict(s) for s in sections]}


def test_report_uses_newest_file_per_machine_and_marks_gpu_pending(tmp_path):
    old = _document("cpu-box", "cpu", "2025-01-01T00:00:00", [Section("demo", "Old demo")])
    new = _document("cpu-box", "cpu", "2025-02-01T00:00:00", [_section()])
    paths = []
    for i, doc in enumerate((old, new)):
        paths.append(tmp_path / f"r{i}.json")
        paths[-1].write_text(json.dumps(doc))
    out = tmp_path / "docs" / "performance.md"
    assert report.main([str(p) for p in paths] + ["--out", str(out)]) == 0
    text = out.read_text()
    assert "Pending." in text and "scripts/gpu-check" in text
    assert "Demo workload" in text and "Old demo" not in text
    assert "| n = 2**20 | 10.0 GB/s | 20.0 GB/s | 2.00× |" in text
    assert "*Method.* How demo is measured." in text
    assert "2025-02-01 00:00:00" in text


def test_report_puts_gpu_results_first_and_drops_the_placeholder(tmp_path):
    docs = [_document("cpu-box", "cpu", "2025-02-01T00:00:00", [_section()]),
            _document("nvidia-h200", "cuda", "2025-02-02T00:00:00", [_section()])]
    text = report.render([dict(d, _path="x.json") for d in docs], str(tmp_path / "performance.md"),
                         str(tmp_path / "img"))
    assert "Pending." not in text
    assert text.index("## GPU: nvidia-h200 device") < text.index("## cpu backend")


def test_bench_command_end_to_end(tmp_path, run_script):
    out = tmp_path / "r.json"
    done = run_script("-m", "bench", "--quick", "--only", "launch", "--json", str(out))  # from the repo root
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    launch = doc["sections"][0]
    assert launch["name"] == "launch" and launch["status"] == "ok"
    assert [r["case"] for r in launch["rows"]] == ["empty kernel", "1 array argument", "3 array arguments"]
    simt_cells = [r["cells"]["simt"] for r in launch["rows"]]
    assert all(c["status"] == "ok" and c["value"] > 0 for c in simt_cells)
    if doc["machine"]["backend"] == "cpu":
        assert launch["rows"][0]["cells"]["cuda-c++"]["status"] == "n/a"
    assert "| empty kernel |" in done.stdout
    page = tmp_path / "performance.md"
    assert report.main([str(out), "--out", str(page)]) == 0
    plot = tmp_path / "img" / f"{doc['machine']['label']}-launch.png"
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # the page is still written, and says why it has no plots
        assert "matplotlib was not installed" in page.read_text() and not plot.exists()
    else:
        assert plot.stat().st_size > 1000 and plot.name in page.read_text()


def test_report_flags_results_from_a_busy_host():
    quiet = _document("cpu-box", "cpu", "2025-02-01T00:00:00", [])
    busy = _document("cpu-box", "cpu", "2025-02-01T00:00:00", [])
    busy["machine"]["load_average"] = [6.5, 7.0]
    assert "busy host" not in "\n".join(report.machine_lines(dict(quiet, _path="q.json")))
    assert "busy host" in "\n".join(report.machine_lines(dict(busy, _path="b.json")))


def test_report_without_matplotlib_says_so(tmp_path, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    doc = dict(_document("cpu-box", "cpu", "2025-02-01T00:00:00", [_section()]), _path="x.json")
    text = report.render([doc], str(tmp_path / "performance.md"), str(tmp_path / "img"))
    assert "matplotlib was not installed" in text and "![" not in text
    assert not (tmp_path / "img").exists()


def test_deadline_reports_the_workloads_left_as_not_run(tmp_path, capsys):
    from bench.__main__ import main
    out = tmp_path / "r.json"
    assert main(["--only", "launch", "compile", "--deadline", "0", "--json", str(out)]) == 0
    sections = json.loads(out.read_text())["sections"]
    assert [s["name"] for s in sections] == ["launch", "compile"]
    assert all(s["status"] == "n/a" and "time budget" in s["note"] for s in sections)
    assert "not run" in capsys.readouterr().out


def test_headlines_quote_launch_and_seed_targets():
    launch = Section("launch", "Launch", rows=[Row("empty kernel", "µs", False,
                                                   {"simt": Cell.ok(4.5), "cuda-c++": Cell.ok(2.0)})])
    seed = Section("seed", "Seed", rows=[Row("examples/vecadd.py, cold: empty kernel cache", "s", False,
                                             {"simt": Cell.ok(6.0)}, target=5.0)])
    lines = report.headlines(_document("box", "cpu", "2025-01-01T00:00:00", [launch, seed]))
    assert lines == ["- Launch overhead: 4.5 µs per launch of an empty kernel (host time), against 2 µs for CUDA C++",
                     "- `examples/vecadd.py` cold: 6 s (target 5 s: missed)"]


def test_interleaved_samples_rotate_and_drop_a_failing_sampler():
    from bench.interleave import interleaved_samples
    order = []

    def sampler(name, fail_at=None):
        def sample():
            order.append(name)
            if fail_at is not None and order.count(name) == fail_at:
                raise RuntimeError(f"{name} broke")
            return float(len(order))
        return sample
    got = interleaved_samples({"a": sampler("a"), "b": sampler("b", fail_at=2), "c": sampler("c")}, reps=3)
    # round 1: a b c; round 2 starts one later: b (fails) c a; round 3: c a (b dropped)
    assert order == ["a", "b", "c", "b", "c", "a", "c", "a"]
    assert got["a"] == [1.0, 6.0, 8.0] and got["c"] == [3.0, 5.0, 7.0]
    assert isinstance(got["b"], RuntimeError)


def test_cells_of_interleaved_samples_count_the_outlasted_repetitions():
    from bench.workloads.launch import cell_from
    cell = cell_from([1e-6, 3e-5, 2e-6], spin_s=0.02)  # 1000 launches of 30 us outlast a 20 ms spin
    assert cell.status == "ok" and cell.value == pytest.approx(2.0)
    assert "in 1 of 3 repetitions" in cell.note
    assert cell_from(ValueError("no device"), 0.02).status == "error"


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="this platform has no sched_setaffinity")
def test_one_cpu_pins_the_thread_and_its_children_then_restores(monkeypatch):
    from bench.affinity import one_cpu
    allowed = os.sched_getaffinity(0)
    wanted = min(allowed)
    monkeypatch.setenv("SIMT_BENCH_CPU", str(wanted))
    notes = []
    with one_cpu(notes) as cpu:
        assert cpu == wanted and os.sched_getaffinity(0) == {wanted}
        child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                               capture_output=True, text=True, check=True)
        assert child.stdout.strip() == f"[{wanted}]"
    assert os.sched_getaffinity(0) == allowed
    assert len(notes) == 1 and f"CPU {wanted}" in notes[0]
    for bad in (str(max(allowed) + 1000), "fast"):
        monkeypatch.setenv("SIMT_BENCH_CPU", bad)
        with pytest.raises(ValueError, match="SIMT_BENCH_CPU"):
            with one_cpu([]):
                pass
        assert os.sched_getaffinity(0) == allowed
    monkeypatch.setenv("SIMT_BENCH_CPU", str(wanted))
    with pytest.raises(RuntimeError, match="inside"):  # an error in the body: the CPUs come back
        with one_cpu([]):
            raise RuntimeError("inside")
    assert os.sched_getaffinity(0) == allowed
