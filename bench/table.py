"""Sections as Markdown tables: figures, simt/anchor time ratios, the hardware limit, targets;
notes and reasons collected as numbered footnotes under each table."""
from .model import NA, OK, WRONG, Cell
from .stats import fraction_of_limit, time_ratio

SIMT = "simt"


def fmt(value):
    """Three significant digits, no exponent for ordinary magnitudes."""
    if value is None:
        return "—"
    v = abs(value)
    if v == 0:
        return "0"
    if v >= 1000:
        return f"{value:,.0f}"
    if v >= 100:
        return f"{value:.0f}"
    if v >= 10:
        return f"{value:.1f}"
    if v >= 1:
        return f"{value:.2f}"
    if v >= 0.01:
        return f"{value:.3f}"
    return f"{value:.2g}"


_LARGER_TIME_UNIT = {"µs": ("ms", 1e3), "ms": ("s", 1e3), "s": ("min", 60.0)}


def scaled(value, unit):
    """A time in a larger unit when it would print with five or more digits (86,400 ms -> 86.4 s)."""
    while value is not None and unit in _LARGER_TIME_UNIT and abs(value) >= 10_000:
        unit, factor = _LARGER_TIME_UNIT[unit]
        value = value / factor
    return value, unit


def fmt_ratio(ratio):
    if ratio is None:
        return "—"
    return f"{ratio:.2f}×" if ratio >= 0.01 else f"{ratio:.2g}×"


class Footnotes:
    """Numbered notes, each text once."""

    def __init__(self):
        self.texts = []

    def mark(self, text):
        if text not in self.texts:
            self.texts.append(text)
        return f"[{self.texts.index(text) + 1}]"

    def lines(self):
        return [f"[{i}] {t}" for i, t in enumerate(self.texts, 1)]


def _columns(rows):
    """Implementation columns in first-seen order (simt first), and those n/a everywhere for one
    reason, which become a single note instead of a column."""
    names = []
    for row in rows:
        for name in row.cells:
            if name not in names:
                names.append(name)
    if SIMT in names:
        names.remove(SIMT)
        names.insert(0, SIMT)
    dropped = {}
    for name in names:
        cells = [row.cells.get(name) for row in rows]
        reasons = {c.note for c in cells if c is not None and c.status == NA}
        if name != SIMT and all(c is None or c.status == NA for c in cells) and len(reasons) <= 1:
            dropped[name] = reasons.pop() if reasons else "not measured"
    return [n for n in names if n not in dropped], dropped


def map_first(f, pair):
    return f(pair[0]), pair[1]


def _cell_text(cell, unit, notes):
    if cell is None:
        return "—"
    if cell.status == OK:
        text = "{} {}".format(*map_first(fmt, scaled(cell.value, unit)))
        return f"{text} {notes.mark(cell.note)}" if cell.note else text
    if cell.status == WRONG:
        value = " {} {}".format(*map_first(fmt, scaled(cell.value, unit))) if cell.value is not None else ""
        return f"**wrong**{value} {notes.mark(cell.note)}"
    return f"{cell.status} {notes.mark(cell.note)}" if cell.note else cell.status


def section_table(section):
    """Markdown lines for one section (title excluded)."""
    if section.status != OK and not section.rows:
        return [f"{section.status}: {section.note}"]
    rows = section.rows
    impls, dropped = _columns(rows)
    anchors = [n for n in impls if n != SIMT]
    ratio_cols = [a for a in anchors if any(
        r.cells.get(SIMT) and r.cells.get(a) and r.cells[SIMT].usable and r.cells[a].usable for r in rows)]
    limit_names = sorted({r.limit_name for r in rows if r.limit is not None})
    has_target = any(r.target is not None for r in rows)

    header = ["case"] + impls + [f"{SIMT}/{a}" for a in ratio_cols]
    if limit_names:
        header += [" / ".join(limit_names), f"{SIMT} % of it"]
    if has_target:
        header += ["target", "met"]
    notes = Footnotes()
    limit_notes = {}
    body = []
    for r in rows:
        line = [r.case] + [_cell_text(r.cells.get(n), r.unit, notes) for n in impls]
        s = r.cells.get(SIMT)
        for a in ratio_cols:
            c = r.cells.get(a)
            ratio = time_ratio(s.value, c.value, r.higher_is_better) if s and c and s.usable and c.usable else None
            line.append(fmt_ratio(ratio))
        if limit_names:
            limit = r.limit
            if limit is not None and limit.status == OK and limit.note:
                limit_notes.setdefault(f"{r.limit_name} limit: {limit.note}", None)  # once, not per row
                limit = Cell(limit.status, limit.value)
            line.append(_cell_text(limit, r.unit, notes) if limit is not None else "—")
            frac = fraction_of_limit(s.value, r.limit.value) if s and s.usable and r.limit and r.limit.usable else None
            line.append("—" if frac is None else f"{frac:.0%}")
        if has_target:
            if r.target is None:
                line += ["—", "—"]
            else:
                met = s is not None and s.usable and s.value <= r.target
                line += [f"≤ {r.target:g} {r.unit}", "yes" if met else "**no**"]
        body.append(line)

    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["--:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(line) + " |" for line in body]
    extra = notes.lines() + list(limit_notes)
    by_reason = {}
    for name, reason in dropped.items():
        by_reason.setdefault(reason, []).append(name)
    extra += [f"{', '.join(names)}: n/a ({reason})" for reason, names in by_reason.items()]
    extra += section.notes
    if extra:
        out.append("")
        out += [f"- {text}" for text in extra]
    return out


def ratio_legend():
    return ("Ratios are simt time ÷ anchor time for the same work (for rates, the inverse ratio of the "
            "rates): below 1× simt is faster. \"% of it\" is simt's rate as a share of the measured limit.")
