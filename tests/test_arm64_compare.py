"""tools/arm64-check's comparison: what an arm64 run must say exactly as the x86 run did.

The check itself needs qemu and takes hours; its judge and its running of the photos on every core
are plain Python, tested here.
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "arm64_compare.py"
spec = importlib.util.spec_from_file_location("arm64_compare", TOOL)
arm64_compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(arm64_compare)


def a_run(machine: str) -> dict:
    """A small run as ``arm64_compare.py run`` writes it."""
    return {
        "versions": {"machine": machine, "python": "3.11.2", "libc": "glibc 2.36", "numpy": "2.4.6",
                     "opencv": "4.14.0", "kivy": "2.3.1", "lgpio": "present"},
        "seconds": {"tests": 1.0, "all": 2.0},
        "tests": {"tests.test_undo::test_a": "passed", "tests.test_undo::test_b": "passed",
                  "tests.test_store::test_c": "skipped"},
        "replay": {"jacks-basic.jsonl": {"code": 0, "out": '{"game": "jacks"}\n', "err": ""},
                   "slapjack-bad-card.jsonl": {"code": 1, "out": "", "err": "refused\n"}},
        "simulate": {"2 players, 40 games, seed 1": {"code": 0, "out": '{"game": 1}\n{"summary": true}\n', "err": ""}},
        "vision": {"code": 0, "err": "", "lines": [
            {"image": f"/var/tmp/{machine}/drawn-000.png", "top": "7C", "ms": 20.0, "cards": [
                {"card": "7C", "sure": True, "score": 0.981, "outline": [[0, 0], [10, 0], [10, 14], [0, 14]]},
                {"card": "JH", "sure": False, "score": 0.651, "outline": [[5, 5], [15, 5], [15, 19], [5, 19]]}]},
            {"image": "drawn-001.png", "top": None, "ms": 18.0, "cards": []},
        ]},
    }


def test_identical_runs_differ_in_nothing_and_say_what_was_compared():
    diffs, report = arm64_compare.compare(a_run("x86_64"), a_run("aarch64"), {"drawn-000.png": "7C"})
    assert diffs == []
    assert report[0] == "rules tests: 2 of 3 passed on both (1 skipped)"
    assert report[1].startswith("replay: 2 of 2 golden logs")
    assert report[2].startswith("simulate: 1 of 1 ")
    assert "2 photos, 2 cards named (1 sure)" in report[3] and "top right in 1 of 1" in report[3]


def test_scores_and_outlines_may_differ_in_their_last_digits():
    arm = a_run("aarch64")
    card = arm["vision"]["lines"][0]["cards"][1]
    card["score"], card["outline"][2] = 0.653, [16, 19]
    diffs, report = arm64_compare.compare(a_run("x86_64"), arm)
    assert diffs == []
    assert "largest score difference 0.002, largest outline difference 1 px" in report[3]


@pytest.mark.parametrize("change, said", [
    (lambda r: r["vision"]["lines"][0]["cards"][1].update(card="JD"), "vision drawn-000.png: 7C, JH? on x86_64, 7C, JD?"),
    (lambda r: r["vision"]["lines"][0]["cards"][1].update(sure=True), "vision drawn-000.png: 7C, JH? on x86_64, 7C, JH on"),
    (lambda r: r["vision"]["lines"][0].update(top="JH"), "vision drawn-000.png: top 7C on x86_64, JH on aarch64"),
    (lambda r: r["vision"]["lines"][1]["cards"].append(
        {"card": "AS", "sure": False, "score": 0.4, "outline": []}), "vision drawn-001.png: no card on x86_64, AS?"),
    (lambda r: r["vision"]["lines"].pop(), "vision drawn-001.png: read on one machine only"),
    (lambda r: r["vision"].update(code=2), "vision: exit status 0 on x86_64, 2 on aarch64"),
    (lambda r: r["tests"].update({"tests.test_undo::test_b": "failed"}), "test tests.test_undo::test_b: passed on x86_64, failed on aarch64"),
    (lambda r: r["tests"].pop("tests.test_undo::test_a"), "test tests.test_undo::test_a: passed on x86_64, not run on aarch64"),
    (lambda r: r["replay"]["jacks-basic.jsonl"].update(out='{"game": "jack"}\n'), "replay jacks-basic.jsonl: out differs"),
    (lambda r: r["replay"]["slapjack-bad-card.jsonl"].update(code=0), "replay slapjack-bad-card.jsonl: code differs"),
    (lambda r: r["simulate"]["2 players, 40 games, seed 1"].update(out='{"game": 1}\n'), "simulate 2 players, 40 games, seed 1: out differs"),
])
def test_a_changed_name_flag_outcome_or_output_is_a_difference(change, said):
    arm = copy.deepcopy(a_run("aarch64"))
    change(arm)
    diffs, _ = arm64_compare.compare(a_run("x86_64"), arm)
    assert len(diffs) == 1 and diffs[0].startswith(said), diffs


def test_a_test_failing_on_both_machines_is_no_proof():
    x86, arm = a_run("x86_64"), a_run("aarch64")
    for side in (x86, arm):
        side["tests"]["tests.test_undo::test_a"] = "failed"
    diffs, _ = arm64_compare.compare(x86, arm)
    assert diffs == ["test tests.test_undo::test_a: failed on both"]


def test_pytest_junit_outcomes_are_read_per_test():
    xml = """<?xml version="1.0"?><testsuites><testsuite name="pytest">
      <testcase classname="tests.test_undo" name="test_a" time="0.1"/>
      <testcase classname="tests.test_undo" name="test_b[1]" time="0.1"><failure message="x">boom</failure></testcase>
      <testcase classname="tests.test_store" name="test_c" time="0"><skipped message="no"/></testcase>
      <testcase classname="tests.test_store" name="test_d" time="0"><error message="e"/></testcase>
    </testsuite></testsuites>"""
    assert arm64_compare.tests_outcomes(xml) == {
        "tests.test_undo::test_a": "passed", "tests.test_undo::test_b[1]": "failed",
        "tests.test_store::test_c": "skipped", "tests.test_store::test_d": "error"}


@pytest.mark.parametrize("n, k", [(66, 2), (66, 4), (5, 8), (1, 2), (7, 3)])
def test_the_photos_are_read_in_runs_one_a_core_together_in_their_order(n, k):
    photos = [f"drawn-{i:03}.png" for i in range(n)]
    parts = arm64_compare._parts(photos, k)
    assert [p for part in parts for p in part] == photos       # every photo once, in order
    assert len(parts) == min(n, k) and all(parts)              # no core given nothing to read
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_commands_run_together_each_keeps_its_own_output_and_status():
    import sys

    say = "import sys; print(sys.argv[1]); sys.exit(int(sys.argv[2]))"
    done = arm64_compare._in_parallel([[sys.executable, "-c", say, "first", "0"],
                                       [sys.executable, "-c", say, "second", "2"]])
    assert [(d["out"], d["code"]) for d in done] == [("first\n", 0), ("second\n", 2)]


def test_onnx_runtimes_cpu_probe_in_a_root_without_sys_is_set_aside_and_said_but_nothing_else():
    probe = ("Error in cpuinfo: failed to parse the list of possible processors in /sys/devices/system/cpu/possible\n"
             "onnxruntime cpuid_info warning: Unknown CPU vendor. cpuinfo_vendor value: 0\n"
             "onnxruntime warning: cpuinfo_initialize failed. May cause CPU EP performance degradation.\n")
    arm = a_run("aarch64")
    arm["vision"]["err"] = probe * 2
    diffs, report = arm64_compare.compare(a_run("x86_64"), arm)
    assert diffs == []
    assert "vision: 6 lines of ONNX Runtime's CPU probe set aside (0 on x86_64, 6 on aarch64)" in report[-1]
    arm["vision"]["err"] = probe + "drawn-003.png: not an image OpenCV can read\n"
    diffs, _ = arm64_compare.compare(a_run("x86_64"), arm)
    assert diffs == ["vision: its error output differs"]
