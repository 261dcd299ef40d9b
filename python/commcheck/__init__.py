"""commcheck from Python: check the classic communication algorithms of
parallel machines, and the schedules collective engineers write (MSCCL++
plans, MSCCL-IR, GOAL, Chakra traces, commcheck's JSON), on their own
networks, with the command line's checker running in this process.

>>> import commcheck
>>> report = commcheck.check("nob", 3)
>>> report.ok
True

Each function takes the command line's options as keyword arguments
(``max_states=1000`` is ``--max-states 1000``) and gives the report that
``check ... --json`` prints, as objects; ``to_dict()`` is that JSON.
Errors are the command line's one-line messages, raised as `UsageError`
or `FormatError`. docs/python.md has the whole of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

from . import _native

__all__ = [
    "check",
    "check_schedule",
    "optimal",
    "Network",
    "Node",
    "Link",
    "Report",
    "Property",
    "Counterexample",
    "OptimalReport",
    "CommcheckError",
    "UsageError",
    "FormatError",
    "BudgetError",
]

__version__: str = _native.__version__


class CommcheckError(Exception):
    """Any refusal of commcheck's: the command line's one-line message."""


class UsageError(CommcheckError, ValueError):
    """An argument or option commcheck refuses (an unknown algorithm, a
    size out of range, options that exclude each other)."""


class FormatError(CommcheckError, ValueError):
    """A schedule, network or map that cannot be read as what it should
    be: where (``file``, ``line`` and ``column`` from 1; 0 where the file
    has no line, as a JSON path names its place in the message), and why."""

    def __init__(self, message: str, file: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column


class BudgetError(CommcheckError, TimeoutError):
    """The time budget ran out before anything was judged: while the
    check's model was still being built or its schedule's file read (the
    largest take seconds to a minute). A budget that runs out later gives a report whose verdicts
    not reached are ``unknown``."""


# -- the command line's words ------------------------------------------------


def _flag_words(options: Dict[str, Any]) -> List[str]:
    """Keyword arguments as the command line's flags: ``max_states=10`` is
    ``--max-states 10``, ``True`` a bare flag, ``False`` and ``None`` none,
    a list its items joined by commas."""
    words: List[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.rstrip("_").replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            words += [flag, ",".join(str(v) for v in value)]
        else:
            words += [flag, str(value)]
    return words


def _answer(kind: str, text: str, names: Dict[str, str]) -> str:
    """The native module's answer: its text, or the exception it means."""

    def named(s: str) -> str:
        for path, name in names.items():
            s = s.replace(path, name)
        return s

    if kind == "usage":
        raise UsageError(named(text))
    if kind == "format":
        place = json.loads(text)
        raise FormatError(
            named(place["message"]), named(place["file"]), place["line"], place["column"]
        )
    return named(text)


Progress = Union[bool, Callable[[str], None]]


def _shown(progress: Progress) -> Optional[Callable[[str], None]]:
    """Where progress lines go: `progress` itself where it is a function
    (each line, then "" when the check ends), else with True one line on
    sys.stderr rewritten in place (a terminal's or a notebook cell's)."""
    if callable(progress):
        return progress
    if not progress:
        return None
    width = [0]

    def show(line: str) -> None:
        sys.stderr.write("\r" + line.ljust(width[0]) + ("\r" if not line else ""))
        sys.stderr.flush()
        width[0] = max(width[0], len(line))

    return show


def _run(words: List[str], progress: Progress, names: Dict[str, str]) -> Any:
    kind, text, note = _native.run(words, _shown(progress))
    data = json.loads(_answer(kind, text, names))
    if note and data == []:
        # Stopped before the first check's model was built: no report.
        raise BudgetError(note)
    if note:
        # A sweep cut short by its --timeout: said in each report.
        for d in data if isinstance(data, list) else [data]:
            d.setdefault("notes", []).append(note)
    return data


# -- reports -------------------------------------------------------------------


class _Fields:
    """A JSON object of the report whose fields are attributes (None where
    it has none), and to_dict() the object."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._data.get(name)

    def to_dict(self) -> Dict[str, Any]:
        """The object as the report's JSON has it."""
        return json.loads(json.dumps(self._data))


class Counterexample(_Fields):
    """The run that breaks a property, in the words of the algorithm's paper
    or the schedule's file: ``text`` says it whole; the fields the report
    gives (``slot``, ``rank``, ``buffer``, ``offset``, ``resource``, the
    contending ``transmissions``, ``input``, ``reproduce`` ...) are
    attributes, None where this counterexample has none."""

    def __str__(self) -> str:
        return str(self._data.get("text", ""))

    def __repr__(self) -> str:
        return f"Counterexample({self._data.get('text', '')!r})"


@dataclass(frozen=True)
class Property:
    """One property's verdict: ``status`` is "holds", "violated",
    "unknown" or "not judged"; ``claimed`` is true where the paper or the
    schedule claims it (else it is only observed)."""

    name: str
    status: str
    claimed: bool
    reason: Optional[str]
    counterexample: Optional[Counterexample]
    found_by: Optional[str]

    @staticmethod
    def _of(d: Dict[str, Any]) -> "Property":
        c = d.get("counterexample")
        return Property(
            name=d["name"],
            status=d["status"],
            claimed=bool(d.get("claimed", False)),
            reason=d.get("reason"),
            counterexample=Counterexample(c) if c is not None else None,
            found_by=d.get("found_by"),
        )


class Report:
    """A check's report: what ``check ... --json`` prints, as objects.

    ``properties`` has a verdict each; ``ok`` is true when every claimed
    property holds; ``counterexamples`` are those of the violated ones;
    ``time`` is the run's time in slots (``bound`` and ``lower_bound``
    beside it) and ``cost`` its time under the cost model asked for
    (``cost=...``), in microseconds where the model gives them;
    ``to_dict()`` is the JSON. In a notebook the report shows as a table,
    with the picture of its counterexample."""

    def __init__(
        self, data: Dict[str, Any], words: List[str], given: Optional[tuple] = None
    ) -> None:
        self._data = data
        self._words = words
        # A schedule given as content (text, suffix, name): written again
        # to a file of its own where a picture of it is drawn.
        self._given = given
        self._svg: Optional[str] = None
        self.properties: List[Property] = [Property._of(p) for p in data.get("properties", [])]

    def __getitem__(self, name: str) -> Property:
        for p in self.properties:
            if p.name == name:
                return p
        raise KeyError(name)

    def __iter__(self) -> Iterator[Property]:
        return iter(self.properties)

    @property
    def ok(self) -> bool:
        """True if no property is violated and every claimed one holds."""
        return all(p.status != "violated" for p in self.properties) and all(
            p.status == "holds" for p in self.properties if p.claimed
        )

    @property
    def violated(self) -> List[Property]:
        """The properties a run breaks."""
        return [p for p in self.properties if p.status == "violated"]

    @property
    def counterexamples(self) -> List[Counterexample]:
        """The counterexamples of the violated properties, in order."""
        return [p.counterexample for p in self.violated if p.counterexample is not None]

    @property
    def time(self) -> Optional[int]:
        """The run's time in slots (None where no run ended)."""
        t = self._data.get("time") or {}
        return t.get("measured")

    @property
    def bound(self) -> Optional[int]:
        """The claimed time bound in slots, where there is one."""
        return (self._data.get("time") or {}).get("bound")

    @property
    def lower_bound(self) -> Optional[int]:
        """The lower bound on any schedule's time in slots, where known."""
        return (self._data.get("time") or {}).get("lower_bound")

    @property
    def cost(self) -> Optional[Dict[str, Any]]:
        """The run timed under the cost model asked for (``cost=``): the
        report's ``cost`` object, or None."""
        return self._data.get("cost")

    @property
    def transmissions(self) -> Optional[int]:
        """Transmissions the run made."""
        return self._data.get("transmissions")

    @property
    def notes(self) -> List[str]:
        """What the report says beside its verdicts."""
        return list(self._data.get("notes", []))

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``check ... --json`` prints it."""
        return json.loads(json.dumps(self._data))

    def svg(self, slot: Optional[int] = None) -> Optional[str]:
        """The picture ``--svg`` draws of this run (its counterexample's
        slot, or ``slot``), or None where no picture is drawn."""
        extra = ["--svg", "-"] + (["--slot", str(slot)] if slot else [])
        if self._given is None:
            kind, text, _ = _native.picture(self._words + extra)
            return text if kind == "ok" else None
        text, suffix, name = self._given
        with _written(text, suffix) as path:
            words = [path if w == name else w for w in self._words]
            kind, picture, _ = _native.picture(words + extra)
            return picture if kind == "ok" else None

    def _repr_svg_(self) -> Optional[str]:
        if self._svg is None:
            self._svg = self.svg() or ""
        return self._svg or None

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>".format(
                html.escape(p.name),
                html.escape(p.status),
                "claimed" if p.claimed else "observed",
                html.escape(str(p.counterexample or p.reason or "")),
            )
            for p in self.properties
        )
        title = html.escape(str(self._data.get("algorithm") or self._data.get("schedule") or ""))
        picture = self._repr_svg_() if self.violated else None
        return (
            f"<div><b>{title}</b><table>"
            "<tr><th>property</th><th>verdict</th><th></th><th>why</th></tr>"
            f"{rows}</table>{picture or ''}</div>"
        )

    def __repr__(self) -> str:
        verdicts = ", ".join(f"{p.name}={p.status}" for p in self.properties)
        return f"Report({verdicts})"


class OptimalReport(_Fields):
    """``check optimal``'s answer: the fewest ``slots`` a schedule of the
    task needs on the network, with how it was certified
    (``certified_by``), the witness's ``transmissions`` and its check;
    ``stopped`` where a budget ran out first; ``to_dict()`` is the JSON."""

    def __repr__(self) -> str:
        return f"OptimalReport(task={self.task!r}, slots={self.slots!r})"


# -- networks --------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """A node of a network: its number, name, kind (gpu, nvswitch, nic,
    switch, node ...) and whether worms cross it."""

    id: int
    name: str
    kind: str
    forwards: bool


@dataclass(frozen=True)
class Link:
    """A directed link: its ends, kind (nvlink, pcie, net, xgmi, link ...),
    lanes, bandwidth in GB/s and latency in ns where the network gives them."""

    source: int
    target: int
    kind: str
    lanes: int
    bandwidth: Optional[float]
    latency: Optional[float]


class Network:
    """A network as ``--network`` names it: a family at a size
    (``hypercube:3``, ``mesh:4x4``, ``torus:4x4``, ``mesh-bus:4``), a
    built-in machine (``Network.MACHINES``), or a file
    (`Network.from_file`). Pass it (or its spec string) as ``network=``."""

    MACHINES: List[str] = [m.strip() for m in _native.MACHINES.split(",")]

    def __init__(self, spec: str) -> None:
        self.spec = str(spec)
        self._described: Optional[Dict[str, Any]] = None

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> "Network":
        """The network in a file: commcheck's graph JSON, NCCL's or RCCL's
        topology XML, or ASTRA-sim's network YAML (told by its content, or
        ``format`` = "graph", "nccl-topo" or "astra")."""
        prefix = {None: "graph", "graph": "graph-json", "nccl-topo": "nccl-topo", "astra": "astra"}
        if format not in prefix:
            raise UsageError(f"format {format!r}: expected graph, nccl-topo or astra")
        network = cls(f"{prefix[format]}:{os.fspath(path)}")
        network._describe()
        return network

    def _describe(self) -> Dict[str, Any]:
        if self._described is None:
            kind, text, _ = _native.describe_network(self.spec)
            self._described = json.loads(_answer(kind, text, {}))
        return self._described

    @property
    def name(self) -> str:
        """Its name in reports."""
        return str(self._describe()["name"])

    @property
    def nodes(self) -> List[Node]:
        """Its nodes, by number."""
        return [Node(**n) for n in self._describe()["nodes"]]

    @property
    def links(self) -> List[Link]:
        """Its directed links."""
        return [
            Link(
                source=a["from"],
                target=a["to"],
                kind=a["kind"],
                lanes=a["lanes"],
                bandwidth=a.get("bandwidth"),
                latency=a.get("latency"),
            )
            for a in self._describe()["links"]
        ]

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"Network({self.spec!r})"


# -- checks ----------------------------------------------------------------------


def check(algorithm: str, n: Union[int, str], *, progress: Progress = False, **options: Any) -> Any:
    """Checks a catalogued algorithm (``check list`` names them) at size
    ``n``, as ``check ALGORITHM N`` does, with the command line's options
    as keyword arguments: ``engine``, ``ports``, ``switching``, ``source``,
    ``timeout``, ``max_states``, ``max_memory``, ``faults`` ... A
    `Report`; a list of them for a sweep (``all_k=True``)."""
    words = [str(algorithm), str(n)] + _flag_words(options)
    data = _run(words, progress, {})
    if isinstance(data, list):
        return [Report(d, words) for d in data]
    return Report(data, words)


def _schedule_text(source: Any) -> Optional[tuple]:
    """A schedule given as content: (text, suffix, name), or None for a path."""
    if isinstance(source, os.PathLike):
        return None
    if isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and Path(source).exists():
            return None
        return source, _suffix(source), "<string>"
    if isinstance(source, (bytes, bytearray)):
        text = bytes(source).decode("utf-8")
        return text, _suffix(text), "<bytes>"
    if isinstance(source, dict):
        return json.dumps(source), ".json", "<dict>"
    for method in ("to_json", "generate_xml", "to_xml"):
        make = getattr(source, method, None)
        if callable(make):
            made = make()
            text = made if isinstance(made, str) else json.dumps(made)
            return text, _suffix(text), f"<{type(source).__name__}.{method}()>"
    raise UsageError(
        f"a schedule of type {type(source).__name__}: expected a path, a string, bytes, a dict, "
        "or an object with to_json() (an MSCCL++ program) or generate_xml() (an MSCCLang program)"
    )


def _suffix(text: str) -> str:
    head = text.lstrip()[:1]
    return {"<": ".xml", "{": ".json", "[": ".json"}.get(head, ".goal")


def check_schedule(
    source: Any,
    network: Union[str, Network],
    *,
    format: Optional[str] = None,
    collective: Optional[str] = None,
    cost: Optional[str] = None,
    progress: Progress = False,
    **options: Any,
) -> Report:
    """Checks a schedule on a network, as ``check schedule FILE --network
    NETWORK`` does. ``source`` is a path, a string or bytes of a file's
    content, a dict (MSCCL++'s or commcheck's JSON), or a program object
    with ``to_json()`` (MSCCL++'s DSL) or ``generate_xml()`` (MSCCLang).
    ``format`` (commcheck, goal, msccl, mscclpp, chakra) is told from the
    content where not given; ``collective`` and ``cost`` are as on the
    command line, and so are the other options (``switching``, ``ports``,
    ``map``, ``bytes``, ``timeout``, ``max_states`` ...)."""
    given = _schedule_text(source)
    flags = ["--network", str(network)] + _flag_words(
        {"format": format, "collective": collective, "cost": cost, **options}
    )
    if given is None:
        words = ["schedule", os.fspath(source)] + flags
        return Report(_run(words, progress, {}), words)
    text, suffix, name = given
    with _written(text, suffix) as path:
        data = _run(["schedule", path] + flags, progress, {path: name})
    return Report(data, ["schedule", name] + flags, given)


@contextlib.contextmanager
def _written(text: str, suffix: str) -> Iterator[str]:
    """A file of `text`, named by `suffix` (how commcheck tells a format),
    in a folder of its own, removed after."""
    with tempfile.TemporaryDirectory(prefix="commcheck-") as folder:
        path = os.path.join(folder, "schedule" + suffix)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        yield path


def optimal(task: str, network: Union[str, Network], **options: Any) -> OptimalReport:
    """The fewest slots in which ``task`` (broadcast[:ROOT], allgather,
    scatter[:ROOT], gather[:ROOT], alltoall) runs on ``network``, found and
    certified as ``check optimal`` does; options as its flags (``ports``,
    ``switching``, ``routes``, ``method``, ``max_slots``, ``timeout`` ...)."""
    words = ["optimal", str(task), "--network", str(network)] + _flag_words(options)
    return OptimalReport(_run(words, False, {}))
