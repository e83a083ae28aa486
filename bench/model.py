"""The result model shared by the runner, the tables and the report: cells, rows, sections."""
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional

OK, NA, WRONG, ERROR = "ok", "n/a", "wrong", "error"


@dataclass
class Cell:
    """One implementation's figure in a row: a value in the row's unit, or why there is none."""
    status: str
    value: Optional[float] = None
    note: str = ""
    stats: Dict[str, float] = field(default_factory=dict)

    @classmethod
    def ok(cls, value, note="", stats=None):
        return cls(OK, float(value), note, dict(stats or {}))

    @classmethod
    def na(cls, reason):
        return cls(NA, None, reason)

    @classmethod
    def error(cls, reason):
        return cls(ERROR, None, reason)

    @classmethod
    def wrong(cls, value, reason, stats=None):
        return cls(WRONG, None if value is None else float(value), reason, dict(stats or {}))

    @property
    def usable(self):
        """A figure that may be compared: measured and verified."""
        return self.status == OK and self.value is not None


@dataclass
class Row:
    """One case of a workload (a size, a variant) measured by several implementations."""
    case: str
    unit: str
    higher_is_better: bool = False
    cells: Dict[str, Cell] = field(default_factory=dict)
    params: Dict[str, object] = field(default_factory=dict)
    limit: Optional[Cell] = None      # what the hardware can do, in the row's unit
    limit_name: str = ""
    target: Optional[float] = None    # a project target (a time not to exceed), in the row's unit


@dataclass
class Section:
    """The result of one workload."""
    name: str
    title: str
    status: str = OK
    note: str = ""
    rows: List[Row] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    seconds: float = 0.0


def section_to_dict(section):
    return asdict(section)


def section_from_dict(d):
    rows = []
    for r in d.get("rows", []):
        cells = {k: Cell(**v) for k, v in r.get("cells", {}).items()}
        limit = Cell(**r["limit"]) if r.get("limit") else None
        rows.append(Row(r["case"], r["unit"], r.get("higher_is_better", False), cells, r.get("params", {}), limit,
                        r.get("limit_name", ""), r.get("target")))
    return Section(d["name"], d.get("title", d["name"]), d.get("status", OK), d.get("note", ""), rows,
                   list(d.get("notes", [])), d.get("seconds", 0.0))
