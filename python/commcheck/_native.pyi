"""commcheck's native module: the command line's parser and checker, run in
this process (the package wraps it; docs/python.md)."""

from typing import Callable, List, Optional, Tuple

__version__: str
MACHINES: str

def run(
    words: List[str], progress: Optional[Callable[[str], None]] = None
) -> Tuple[str, str, str]:
    """Runs ``check WORDS`` (a catalogue check, ``schedule`` or ``optimal``):
    ("ok", its JSON report, a note or ""), ("usage", the message, ""), or
    ("format", JSON of file, line, column and message, ""). ``progress``
    is called with each progress line (one a second after the first two),
    then with "" when the check ends."""

def picture(words: List[str]) -> Tuple[str, str, str]:
    """The SVG picture ``check WORDS --svg -`` draws, as `run` answers."""

def describe_network(spec: str) -> Tuple[str, str, str]:
    """The network ``spec`` names, as JSON (name, nodes, links), as `run`
    answers."""
