"""``jack-companion pads --mock``: the wiring check runs by itself and says what it saw."""

from __future__ import annotations

import re

from ui.launcher import main


def run(capsys, tmp_path, *args, config="[pads]\nstuck_ms = 200\n"):
    (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    status = main(["pads", "--mock", "--data-dir", str(tmp_path), *args])
    return status, capsys.readouterr().out


def test_mock_wiring_check_lists_presses_lights_and_stuck_pads(capsys, tmp_path):
    status, out = run(capsys, tmp_path)
    assert status == 0
    assert out.startswith("4 pads: mock pads (asked for).\nTiming: mock pads: edge timestamps as driven.\n")
    assert [f"Lighting Pad {i} ({pin})" for i, pin in enumerate(["GPIO5", "GPIO6", "GPIO13", "GPIO19"], 1)] == \
        re.findall(r"^Lighting .*$", out, re.M)
    presses = re.findall(r"^ *\d+\.\d{6} s  (Pad \d) +press +(GPIO\d+)", out, re.M)
    assert presses == [("Pad 1", "GPIO17"), ("Pad 2", "GPIO27"), ("Pad 4", "GPIO23"), ("Pad 3", "GPIO22"),
                       ("Pad 4", "GPIO23")]
    assert len(re.findall(r"^ *\d+\.\d{6} s  Pad \d +release", out, re.M)) == 5
    # Pad 3's edge came 2.5 ms before pad 4's, though its callback came second.
    assert re.search(r"Pad 3 +press +GPIO22 +2\.5 ms BEFORE Pad 4's press \(reported late\)", out)
    assert re.search(r"Pad 2 +press +GPIO27 +\+\d+ ms after Pad 1's press", out)
    assert re.search(r"^STUCK: Pad 4 \(GPIO23\) held down for 0\.\d s", out, re.M)
    assert "Pad 4 is free again." in out
    assert "  Pad 2: 1 press (4 bounce edges ignored)" in out
    assert out.rstrip().endswith("Stuck pads: none")


def test_seconds_stops_the_check_and_a_pad_never_pressed_is_named(capsys, tmp_path):
    status, out = run(capsys, tmp_path, "--seconds", "0.2")
    assert status == 0
    assert "  Pad 3: 0 presses (never pressed: check its button and wiring)" in out


def test_a_bad_pin_map_is_one_clear_line(capsys, tmp_path):
    (tmp_path / "config.toml").write_text('[pads]\nbuttons = ["GPIO17"]\n', encoding="utf-8")
    assert main(["pads", "--mock", "--data-dir", str(tmp_path)]) == 2
    assert "a table needs 2 to 8" in capsys.readouterr().err
