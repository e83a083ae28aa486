"""PNG plots of one result file (matplotlib): bandwidth against size, launch overhead, compile latency."""
import math
import os

COLORS = {"simt": "#d62728", "numba": "#1f77b4", "cupy": "#2ca02c", "torch": "#9467bd", "numpy": "#ff7f0e",
          "cuda-c++": "#555555", "numba-sim": "#8c564b"}
BANDWIDTH_SECTIONS = ("vecadd", "elementwise", "reduction", "scan")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _sections(document):
    from .model import section_from_dict
    return {s["name"]: section_from_dict(s) for s in document["sections"]}


def _impls(rows):
    names = []
    for row in rows:
        for name in row.cells:
            if name not in names:
                names.append(name)
    return names


def _short_title(section):
    return section.title.split(",")[0].split("(")[0].strip()


def _unavailable_note(rows, name):
    reasons = {r.cells[name].note for r in rows if name in r.cells and not r.cells[name].usable}
    return next(iter(reasons), "") if reasons else ""


def bandwidth_plot(document, path):
    """GB/s against vector size, one panel per bandwidth workload, the copy limit dashed."""
    sections = _sections(document)
    present = [sections[n] for n in BANDWIDTH_SECTIONS if n in sections and sections[n].rows]
    if not present:
        return None
    plt = _pyplot()
    cols = 2 if len(present) > 1 else 1
    rows_n = math.ceil(len(present) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6.2 * cols, 4.3 * rows_n), squeeze=False)
    exponents = sorted({int(r.params["n"]).bit_length() - 1 for s in present for r in s.rows})
    ticks = [2**p for p in range(exponents[0], exponents[-1] + 1, 2)]
    for ax, section in zip(axes.flat, present):
        missing = []
        for name in _impls(section.rows):
            points = [(r.params["n"], r.cells[name].value) for r in section.rows
                      if name in r.cells and r.cells[name].usable]
            if not points:
                if name == "simt":
                    missing.append(f"simt: n/a, {_unavailable_note(section.rows, name).split(' (')[0]}")
                continue
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", color=COLORS.get(name), label=name,
                    linewidth=2.6 if name == "simt" else 1.5, zorder=3 if name == "simt" else 2)
        limits = [r.limit.value for r in section.rows if r.limit is not None and r.limit.usable]
        if limits:
            ax.axhline(max(limits), color="black", linestyle="--", linewidth=1,
                       label=f"copy limit ({max(limits):.3g} GB/s)")
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks)
        ax.set_xlim(ticks[0] / 1.4, ticks[-1] * 1.4)
        _log_axis_plain(ax, "y")
        ax.set_xlabel("elements n")
        ax.set_ylabel("GB/s")
        ax.set_title(_short_title(section), fontsize=11, pad=18 if missing else 6)
        ax.grid(True, which="major", alpha=0.3)
        if missing:
            ax.text(0.5, 1.01, "; ".join(missing), transform=ax.transAxes, ha="center", va="bottom", fontsize=8.5,
                    color=COLORS["simt"])
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, loc="best")
    for ax in list(axes.flat)[len(present):]:
        ax.set_visible(False)
    fig.suptitle(f"Bandwidth against size: {document['machine']['device']}", fontsize=12)
    fig.tight_layout()
    return _save(fig, plt, path)


def bars_plot(document, section_name, path, log_scale=False):
    """Grouped horizontal bars, one group per row (case), one bar per implementation."""
    sections = _sections(document)
    section = sections.get(section_name)
    if section is None or not section.rows:
        return None
    names = [n for n in _impls(section.rows) if any(n in r.cells and r.cells[n].usable for r in section.rows)]
    if not names:
        return None
    plt = _pyplot()
    unit = section.rows[0].unit
    height = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.3 * len(section.rows) * len(names)))
    for k, name in enumerate(names):
        for i, row in enumerate(section.rows):
            cell = row.cells.get(name)
            if cell is None or not cell.usable:
                continue
            y = i + (k - (len(names) - 1) / 2) * height
            ax.barh(y, cell.value, height=height * 0.9, color=COLORS.get(name), label=name if i == 0 or
                    name not in ax.get_legend_handles_labels()[1] else None)
            ax.text(cell.value, y, f" {cell.value:.3g} {unit}", va="center", fontsize=8)
    ax.set_yticks(range(len(section.rows)))
    ax.set_yticklabels([r.case for r in section.rows])
    ax.invert_yaxis()
    ax.set_xlabel(unit + (" (log scale)" if log_scale else ""))
    if log_scale:
        _log_axis_plain(ax, "x")
    ax.margins(x=0.18)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    ax.set_title(f"{section.title}\n{document['machine']['device']}", fontsize=10)
    fig.tight_layout()
    return _save(fig, plt, path)


def _log_axis_plain(ax, which):
    """A log scale on axis `which` ("x" or "y") labelled 1, 2, 5, 10, 20, ... not powers of ten."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    getattr(ax, f"set_{which}scale")("log")
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 3.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def _save(fig, plt, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_all(document, img_dir):
    """Writes every plot this document has data for; returns {kind: path}."""
    label = document["machine"]["label"]
    made = {
        "bandwidth": bandwidth_plot(document, os.path.join(img_dir, f"{label}-bandwidth.png")),
        "launch": bars_plot(document, "launch", os.path.join(img_dir, f"{label}-launch.png")),
        "compile": bars_plot(document, "compile", os.path.join(img_dir, f"{label}-compile.png"), log_scale=True),
    }
    return {k: v for k, v in made.items() if v}
