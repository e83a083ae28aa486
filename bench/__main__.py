"""python -m bench [--quick] [--json PATH] [--only NAME...] [--list]: runs the suite on simt's active
backend, prints a table per workload and writes the results as JSON (default bench/results/)."""
import argparse
import datetime
import json
import os
import sys
import time

from . import SCHEMA
from .model import NA, Section, section_to_dict
from .table import ratio_legend, section_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUICK_DEADLINE_S = 150.0  # scripts/gpu-check gives the quick suite at most 200 s


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split(":", 1)[1].strip())
    p.add_argument("--quick", action="store_true", help="fewer sizes and repetitions (the GPU suite in a few minutes)")
    p.add_argument("--json", metavar="PATH", help="where to write the results (default: "
                   "bench/results/<machine>-<date>[-quick].json)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these workloads (names or prefixes)")
    p.add_argument("--deadline", type=float, metavar="SECONDS",
                   help=f"start no workload after this many seconds (default: {QUICK_DEADLINE_S:.0f} with --quick, "
                   "none otherwise); the ones left are reported as not run")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    return p.parse_args(argv)


def default_json_path(machine, mode, date):
    suffix = "-quick" if mode == "quick" else ""
    return os.path.join(ROOT, "bench", "results", f"{machine['label']}-{date[:10]}{suffix}.json")


def write_json(path, document):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(document, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(path + ".tmp", path)


def log(message):
    print(message, file=sys.stderr, flush=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    from . import suite
    if args.list:
        for w in suite.select(None):
            needs = f"  (needs {', '.join(n.label for n in w.needs)})" if w.needs else ""
            print(f"{w.name:12s} {w.title}{needs}")
        return 0
    chosen = suite.select(args.only)

    import simt

    from . import libs as libs_module
    from .machine import describe
    libs = libs_module.load_all(simt.backend())
    ctx = suite.Context(args.quick, simt.backend(), libs, ROOT, log=log)
    machine = describe(simt, libs, ROOT)
    load_at_start = os.getloadavg()[0]  # the cpu figures of a shared machine need this context
    started = datetime.datetime.now(datetime.timezone.utc)
    command = "python -m bench" + (" --quick" if args.quick else "")
    command += " --only " + " ".join(args.only) if args.only else ""
    if os.environ.get("SIMT_BACKEND"):
        command = f"SIMT_BACKEND={os.environ['SIMT_BACKEND']} {command}"
    print(f"# simt benchmarks ({ctx.mode}) on {machine['device']}, backend {ctx.backend}, "
          f"{started:%Y-%m-%d %H:%M} UTC\n", flush=True)
    print(ratio_legend() + "\n", flush=True)

    document = {"schema": SCHEMA, "date": started.isoformat(timespec="seconds"), "mode": ctx.mode,
                "command": command, "seconds": 0.0, "machine": machine,
                "methods": {w.name: w.method for w in chosen}, "sections": []}
    path = args.json or default_json_path(machine, ctx.mode, document["date"])
    deadline = args.deadline if args.deadline is not None else (QUICK_DEADLINE_S if args.quick else None)
    t0 = time.perf_counter()
    for w in chosen:
        if deadline is not None and time.perf_counter() - t0 > deadline:
            section = Section(w.name, w.title, NA, f"not run: the {deadline:.0f} s time budget was spent")
        else:
            log(f"[{w.name}] {w.title}")
            section = suite.run_workload(ctx, w)
        print(f"## {w.title}\n", flush=True)
        print("\n".join(section_table(section)) + "\n", flush=True)
        # Written after every workload, so a run that is stopped keeps what it measured.
        document["sections"].append(section_to_dict(section))
        document["seconds"] = round(time.perf_counter() - t0, 1)
        machine["load_average"] = [round(load_at_start, 2), round(os.getloadavg()[0], 2)]
        write_json(path, document)
    print(f"suite took {document['seconds']:.0f} s; results written to {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
