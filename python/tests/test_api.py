"""The Python package against the command line: the same reports, field
for field; schedules however they are given; every exception; a hang
seeded in a plan built here; quiet, interruptible calls."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import commcheck
from plans import Program, allreduce

ROOT = Path(__file__).resolve().parents[2]
# The command line the reports are compared with: the README's test
# command builds it (cargo test --profile no-lto --tests).
CHECK = Path(os.environ.get("COMMCHECK_BIN", ROOT / "target" / "no-lto" / "check"))

# What differs between two runs of one check: how long it took.
VOLATILE = {"elapsed_ms", "seconds"}


def stable(value):
    """`value` without its timings."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def cli(*words):
    assert CHECK.exists(), f"{CHECK}: build it with cargo build --profile no-lto (or set COMMCHECK_BIN)"
    done = subprocess.run([str(CHECK), *words, "--json"], capture_output=True, text=True)
    assert done.returncode in (0, 1, 3), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "algorithm, n, options, words",
    [
        ("nob", 3, {}, []),
        ("sbt", 3, {"ports": "one"}, ["--ports", "one"]),
        ("mnb-sbt", 3, {}, []),
        ("mnb", 3, {"engine": "executor"}, ["--engine", "executor"]),
        ("ft-trees", 3, {"faults": 1}, ["--faults", "1"]),
        ("kbcast", 3, {"k": 2}, ["--k", "2"]),
        ("dilated-diagonal", "5x5", {"source": "0,0"}, ["--source", "0,0"]),
    ],
)
def test_catalogue_reports_are_the_command_lines(algorithm, n, options, words):
    report = commcheck.check(algorithm, n, **options)
    expected = cli(algorithm, str(n), *words)
    assert stable(report.to_dict()) == stable(expected)
    # The objects say what the JSON says.
    for p, q in zip(report.properties, expected["properties"]):
        assert (p.name, p.status, p.claimed) == (q["name"], q["status"], q["claimed"])
    assert report.time == expected["time"]["measured"]
    claimed_hold = all(q["status"] == "holds" for q in expected["properties"] if q["claimed"])
    none_violated = not any(q["status"] == "violated" for q in expected["properties"])
    assert report.ok == (claimed_hold and none_violated)


def test_every_algorithm_of_the_catalogue_reports_as_the_command_line_does():
    listed = subprocess.run([str(CHECK), "list"], capture_output=True, text=True).stdout
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert len(names) > 40, listed
    for name in names:
        # Its smallest size the command line takes (exit 2: refused).
        for n in ["3", "2", "4", "5x5"]:
            done = subprocess.run([str(CHECK), name, n, "--json"], capture_output=True, text=True)
            if done.returncode != 2:
                break
        else:
            pytest.fail(f"{name}: no size taken")
        assert stable(commcheck.check(name, n).to_dict()) == stable(json.loads(done.stdout)), name


def test_a_counterexample_is_an_object_with_a_picture():
    report = commcheck.check("mnb-sbt", 3)
    assert not report.ok
    (c,) = [p.counterexample for p in report if p.name == "contention-freedom"]
    assert c.slot == 2 and c.resource == "arc 000->001"
    assert c.transmissions == ["000->001", "000->001"]
    assert c.rank is None  # a field this counterexample does not have
    assert report["contention-freedom"].counterexample.to_dict() == c.to_dict()
    assert report._repr_svg_().lstrip().startswith("<svg")
    assert "contention-freedom" in report._repr_html_()


def test_a_sweep_is_a_list_of_reports():
    reports = commcheck.check("kbcast-random", 2, all_k=True)
    expected = cli("kbcast-random", "2", "--all-k")
    assert len(reports) == len(expected) > 1
    assert [stable(r.to_dict()) for r in reports] == stable(expected)


def test_a_schedule_given_as_a_path_a_string_a_dict_or_a_program_is_one_report(tmp_path):
    plan = allreduce(4)
    path = tmp_path / "allreduce.json"
    path.write_text(json.dumps(plan))
    options = dict(network="dgx-h100:1", switching="wh")
    by_path = commcheck.check_schedule(path, **options)
    by_str_path = commcheck.check_schedule(str(path), **options)
    by_text = commcheck.check_schedule(json.dumps(plan), **options)
    by_bytes = commcheck.check_schedule(json.dumps(plan).encode(), **options)
    by_dict = commcheck.check_schedule(plan, **options)
    by_program = commcheck.check_schedule(Program(plan), **options)
    expected = cli("schedule", str(path), "--network", "dgx-h100:1", "--switching", "wh")
    assert stable(by_path.to_dict()) == stable(expected)
    assert stable(by_str_path.to_dict()) == stable(expected)
    assert by_path.ok, by_path
    # Given as content, the file is named by how it was given.
    for report, name in [
        (by_text, "<string>"),
        (by_bytes, "<bytes>"),
        (by_dict, "<dict>"),
        (by_program, "<Program.to_json()>"),
    ]:
        text = json.dumps(stable(report.to_dict()))
        assert "commcheck-" not in text, text
        assert json.loads(text.replace(name, str(path))) == stable(expected)


def test_a_missing_signal_is_a_hang_named_in_the_plans_terms():
    report = commcheck.check_schedule(
        allreduce(4, drop_signal=True), network="dgx-h100:1", switching="wh"
    )
    assert not report.ok
    matching = report["matching"]
    assert matching.status == "violated"
    assert "gpus[3].threadblocks[0].ops[" in str(matching.counterexample)
    assert "waits for a message no operation sends" in str(matching.counterexample)
    # The rank and the waiting op as fields.
    assert matching.counterexample.rank == 3
    (op,) = matching.counterexample.operations
    assert op.startswith("rank 3 (gpu3), gpus[3].threadblocks[0].ops[")
    fixed = commcheck.check_schedule(allreduce(4), network="dgx-h100:1", switching="wh")
    assert fixed["matching"].status == "holds" and fixed.ok


def test_time_under_a_cost_model_in_microseconds():
    report = commcheck.check_schedule(
        allreduce(4), network="dgx-h100:1", switching="wh", cost="alpha-beta", bytes=1 << 20
    )
    assert report.cost["time_us"] > 0
    assert report.cost["model"].startswith("alpha-beta")


def test_optimal_is_the_command_lines():
    # One method: the default races the search against SAT, and either
    # may win.
    found = commcheck.optimal("broadcast", "hypercube:3", method="search")
    expected = cli("optimal", "broadcast", "hypercube:3", "--method", "search")
    assert stable(found.to_dict()) == stable(expected)
    assert found.slots == 3 and found.witness_check == "holds"


def test_networks_have_their_nodes_and_links(tmp_path):
    cube = commcheck.Network("hypercube:3")
    assert [n.id for n in cube.nodes] == list(range(8))
    assert len(cube.links) == 24
    server = commcheck.Network("dgx-h100")
    kinds = {n.kind for n in server.nodes}
    assert "gpu" in kinds and any(k.startswith("nvswitch") or k == "switch" for k in kinds), kinds
    assert any(l.bandwidth for l in server.links)
    assert "dgx-h100[:K]" in commcheck.Network.MACHINES
    graph = tmp_path / "ring.json"
    graph.write_text(json.dumps(
        {"format": "commcheck-network", "version": 1, "nodes": 3, "links": [[0, 1], [1, 2], [2, 0]]}
    ))
    ring = commcheck.Network.from_file(graph)
    assert len(ring.nodes) == 3 and len(ring.links) == 6
    # A Network is passed as network=.
    report = commcheck.check_schedule(allreduce(4), network=commcheck.Network("dgx-h100:1"),
                                      switching="wh")
    assert report.ok


def test_usage_errors_are_the_command_lines_one_line():
    with pytest.raises(commcheck.UsageError) as e:
        commcheck.check("no-such-algorithm", 3)
    assert "\n" not in str(e.value) and "no-such-algorithm" in str(e.value)
    with pytest.raises(commcheck.UsageError) as e:
        commcheck.check("nob", 3, no_such_flag=True)
    assert "--no-such-flag" in str(e.value)
    with pytest.raises(commcheck.UsageError):
        commcheck.check("nob", 99)
    with pytest.raises(commcheck.UsageError):
        commcheck.check_schedule(allreduce(4), network="no-such-network")
    with pytest.raises(commcheck.UsageError):
        commcheck.check_schedule(object(), network="hypercube:2")
    assert issubclass(commcheck.UsageError, commcheck.CommcheckError)
    assert issubclass(commcheck.FormatError, ValueError)


def test_format_errors_say_where(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<algo name="x" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="2"'
                   ' coll="allgather" inplace="0">\n  <gpu id="0" i_chunks="1" o_chunks="x"'
                   ' s_chunks="0">\n  </gpu>\n</algo>\n')
    with pytest.raises(commcheck.FormatError) as e:
        commcheck.check_schedule(bad, network="hypercube:1")
    assert e.value.file == str(bad) and e.value.line == 2 and e.value.column > 0
    assert str(e.value).startswith(f"{bad}:2:")
    with pytest.raises(commcheck.FormatError) as e:
        commcheck.check_schedule('{"version": 1, "ranks": 2, "ops": [}', network="hypercube:1")
    assert e.value.file == "<string>" and e.value.line == 1
    with pytest.raises(commcheck.FormatError) as e:
        commcheck.Network.from_file(tmp_path / "missing.json")
    assert e.value.file.endswith("missing.json")


def test_a_check_writes_nothing_on_stdout_or_stderr(capfd):
    commcheck.check("nob", 4)
    commcheck.check("mnb", 4, engine="executor")
    commcheck.check_schedule(allreduce(4), network="dgx-h100:1", switching="wh")
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_ctrl_c_stops_a_check_within_a_second():
    # A check of about 30 s (the executor's multinode broadcast on the
    # 15-cube, 150 MB), interrupted after one second by SIGINT. (Not a
    # search of delays: one of its states can have millions of
    # successors, made before the search looks at its budget again.)
    # Python raises KeyboardInterrupt on SIGINT only where it found SIGINT
    # not ignored at its start; a job a shell runs in the background (as
    # CI may run this) inherits it ignored: the child sets the handler a
    # terminal's Python has.
    script = textwrap.dedent(
        """
        import os, signal, threading, time, commcheck
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            commcheck.check("mnb", 15, engine="executor", timeout="none")
            print("ended")
        except KeyboardInterrupt:
            print("interrupted", round(time.monotonic() - start, 2))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    words = done.stdout.split()
    assert words[:1] == ["interrupted"], done.stdout + done.stderr
    assert float(words[1]) < 2.5, words


def test_a_budget_that_ends_while_the_model_is_built_raises():
    # The 24-cube's gather trees take seconds to build; nothing is judged.
    start = time.monotonic()
    with pytest.raises(commcheck.BudgetError, match="nothing was judged"):
        commcheck.check("gather", 24, timeout=1)
    assert time.monotonic() - start < 2.5


def test_a_budget_that_ends_while_a_schedule_is_read_raises(tmp_path):
    # A pipe whose writer waits after its first line: the file is still
    # being read when the budget ends; nothing is judged.
    import threading

    fifo = tmp_path / "endless.goal"
    os.mkfifo(fifo)
    opened = []

    def write():
        f = open(fifo, "w")
        f.write("num_ranks 2\n")
        f.flush()
        opened.append(f)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    start = time.monotonic()
    try:
        with pytest.raises(commcheck.BudgetError, match="nothing was judged"):
            commcheck.check_schedule(str(fifo), "hypercube:1", format="goal", timeout=1)
        assert time.monotonic() - start < 2.5
    finally:
        writer.join()
        for f in opened:
            f.close()


def test_the_gil_is_released_while_checking():
    import threading

    counted = []

    def count():
        n, end = 0, time.monotonic() + 0.5
        while time.monotonic() < end:
            n += 1
        counted.append(n)

    t = threading.Thread(target=count)
    t.start()
    commcheck.check("mnb", 3, delay=1, timeout=1)
    t.join()
    assert counted and counted[0] > 10_000


def test_progress_goes_where_it_is_asked_to():
    lines = []
    commcheck.check("mnb", 3, delay=1, observe_all=True, timeout=3, progress=lines.append)
    # A line a second after the first two, then "" as the check ends.
    assert len(lines) >= 2 and lines[-1] == "", lines
    assert all("states" in line for line in lines[:-1]), lines


def test_progress_true_rewrites_one_line_on_stderr(capfd):
    commcheck.check("mnb", 3, delay=1, observe_all=True, timeout=3, progress=True)
    out, err = capfd.readouterr()
    assert out == ""
    assert "states" in err and err.startswith("\r") and err.endswith("\r"), repr(err)
