"""The table's settings file: a broken file is reported with its line, and the app starts anyway."""

import copy
import tomllib

import pytest

from companion import config


@pytest.fixture
def path(tmp_path):
    return tmp_path / "config.toml"


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_gives_defaults_and_no_problems(path):
    settings, problems = config.load(path)
    assert problems == []
    assert settings == config.defaults()
    # The documented defaults a player relies on: Jacks to 75 (docs/rules.md), the 7" screen size.
    assert settings["jacks"]["target"] == 75
    assert settings["display"]["size"] == "800x480"
    assert settings["display"]["four_colour"] is False
    assert not path.exists(), "loading never creates the file"


def test_defaults_are_a_fresh_copy_each_time():
    first = config.defaults()
    first["pads"]["buttons"].append("GPIO99")
    first["jacks"]["target"] = 1
    assert config.defaults()["jacks"]["target"] == 75
    assert "GPIO99" not in config.defaults()["pads"]["buttons"]


def test_good_values_are_used(path):
    write(path, '[display]\nfour_colour = true\nsize = "720x1280"\n\n[jacks]\ntarget = 100\n')
    settings, problems = config.load(path)
    assert problems == []
    assert settings["display"]["four_colour"] is True
    assert settings["display"]["size"] == "720x1280"
    assert settings["jacks"]["target"] == 100
    # Settings the file does not mention keep their defaults.
    assert settings["pads"] == config.defaults()["pads"]


@pytest.mark.parametrize(
    "text, line, key",
    [
        ('[jacks]\ntarget = "eighty"\n', 2, "target"),
        ("# settings\n\n[jacks]\n\ntarget = true\n", 5, "target"),  # a bool is not a number
        ("[jacks]\ntarget = 7.5\n", 2, "target"),
        ("[display]\nfour_colour = 1\n", 2, "four_colour"),
        ('[display]\nsize = 800\n', 2, "size"),
        ('[pads]\nbuttons = "GPIO17"\n', 2, "buttons"),
        ("[jacks]  # the trick game\n\ntarget = \"x\"\n", 3, "target"),  # a comment after the header
    ],
)
def test_a_value_of_the_wrong_type_is_reported_with_its_line_and_the_default_kept(path, text, line, key):
    write(path, text)
    settings, problems = config.load(path)
    assert len(problems) == 1, problems
    assert f"line {line}:" in problems[0]
    assert key in problems[0]
    assert "config.toml" in problems[0]
    assert settings == config.defaults()


def test_one_wrong_value_does_not_spoil_the_others(path):
    write(path, '[display]\nfour_colour = true\nsize = 5\n\n[jacks]\ntarget = 90\n')
    settings, problems = config.load(path)
    assert len(problems) == 1 and "line 3:" in problems[0] and "size" in problems[0]
    assert settings["display"]["size"] == "800x480"
    assert settings["display"]["four_colour"] is True
    assert settings["jacks"]["target"] == 90


@pytest.mark.parametrize(
    "text, line",
    [
        ("[display]\nfour_colour = true\nsize = = 3\n", 3),
        ('[jacks]\ntarget = 80\n\n\n[display\n', 5),
        ('[jacks]\ntarget = 80\n[jacks]\n', 3),  # a section twice
        ('[display]\nsize = "800x480\n', 2),  # unclosed quote
    ],
)
def test_a_syntax_error_is_reported_with_its_line_and_all_defaults_used(path, text, line):
    write(path, text)
    settings, problems = config.load(path)
    assert len(problems) == 1, problems
    assert f"line {line}" in problems[0]
    assert "default" in problems[0]
    # Even the values that read well before the error are not used: the whole file is suspect.
    assert settings == config.defaults()


def test_a_file_that_is_not_text_is_reported_and_defaults_used(path):
    path.write_bytes(b"[jacks]\ntarget = \xff\xfe\n")
    settings, problems = config.load(path)
    assert len(problems) == 1 and "config.toml" in problems[0]
    assert settings == config.defaults()


def test_unknown_section_and_key_are_reported_with_their_lines(path):
    write(path, '[lights]\nglow = 3\n\n[display]\nbrightness = 2\nfour_colour = true\n')
    settings, problems = config.load(path)
    assert len(problems) == 2, problems
    section, key = problems
    assert "line 1:" in section and "[lights]" in section
    assert "line 5:" in key and "brightness" in key and "[display]" in key
    assert settings["display"]["four_colour"] is True
    assert "lights" not in settings
    assert "brightness" not in settings["display"]


def test_save_then_load_round_trips(path):
    changed = copy.deepcopy(config.defaults())
    changed["display"]["four_colour"] = True
    changed["display"]["size"] = "720x1280"
    changed["jacks"]["target"] = 50
    changed["pads"]["buttons"] = ["GPIO4", "GPIO5"]
    changed["pads"]["hub"] = "auto"
    config.save(path, changed)
    settings, problems = config.load(path)
    assert problems == []
    assert settings == changed
    # It is a real TOML file a person can read and edit.
    assert tomllib.loads(path.read_text(encoding="utf-8"))["jacks"]["target"] == 50
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"], "no temporary file left behind"


def test_save_replaces_a_broken_file(path):
    write(path, "[display\n")
    assert config.load(path)[1]
    config.save(path, config.defaults())
    assert config.load(path) == (config.defaults(), [])


def test_sound_volume_is_read_and_off_is_zero(path):
    """config.toml [sound] volume: a percentage, 0 turns the table's sounds off."""
    assert config.defaults()["sound"]["volume"] == 70
    settings, problems = config.load(write(path, "[sound]\nvolume = 0\n"))
    assert problems == [] and settings["sound"]["volume"] == 0
    settings, problems = config.load(write(path, "[sound]\nvolume = 100\n"))
    assert problems == [] and settings["sound"]["volume"] == 100


@pytest.mark.parametrize("value", ["150", "-5"])
def test_a_sound_volume_out_of_range_is_reported_with_its_line(path, value):
    settings, problems = config.load(write(path, f"[sound]\n\nvolume = {value}\n"))
    assert settings["sound"]["volume"] == 70
    assert problems == ["config.toml line 3: volume must be from 0 to 100; using 70"]
