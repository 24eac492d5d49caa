"""``jack-companion vision`` and ``camera``: what they print and their exit status."""

import json

import cv2
import numpy as np

from hardware.vision.render import random_scene
from ui.launcher import main


def test_vision_prints_one_json_line_per_image_and_exit_2_for_an_unreadable_one(tmp_path, capsys):
    good = tmp_path / "jh.png"
    image, _ = random_scene(np.random.default_rng(2), ["JH"])
    cv2.imwrite(str(good), image)
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    empty = tmp_path / "table.png"
    cv2.imwrite(str(empty), np.zeros((100, 100, 3), np.uint8))
    status = main(["vision", str(good), str(bad), str(empty), "--json"])
    out, err = capsys.readouterr()
    assert status == 2
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["image"] for line in lines] == [str(good), str(empty)]
    assert lines[0]["top"] == "JH"
    card = lines[0]["cards"][0]
    assert card["card"] == "JH" and card["sure"] is True and 0 <= card["score"] <= 1
    assert len(card["outline"]) == 4 and all(len(p) == 2 for p in card["outline"])
    assert lines[1]["top"] is None and lines[1]["cards"] == []
    assert err.strip().startswith(f"{bad}: ")
    assert main(["vision", str(tmp_path / "missing.jpg")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'missing.jpg'}: no such file"


def test_a_truncated_picture_gets_one_line_naming_it_and_nothing_from_opencv(tmp_path, capfd):
    cut = tmp_path / "cut.ppm"
    cut.write_bytes(b"P6\n2 2\n255\n")  # a header promising pixels that never come
    assert main(["vision", str(cut)]) == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert err.splitlines() == [f"{cut}: not an image OpenCV can read (missing, empty or not a picture)"]


def test_camera_check_on_a_recorded_game(tmp_path, capsys):
    from hardware.vision.synthetic import game_video

    frames, fps, truth = game_video(1, cards=("7H", "KS"))
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), f)
    status = main(["camera", "--source", str(tmp_path), "--seconds", "60"])
    out = capsys.readouterr().out
    assert status == 0
    # A recording is checked once, to its end, not round and round until the time is up.
    assert "the recording ended" in out and f"{len(frames)} frames in" in out, out
    assert out.count("card 7H landed at") == 1 and out.count("card KS landed at") == 1, out
    assert "frames/s" in out


def test_camera_check_on_a_recording_it_cannot_read_says_so_and_stops(tmp_path, capsys):
    empty = tmp_path / "no-pictures"
    empty.mkdir()
    status = main(["camera", "--source", str(empty), "--seconds", "30"])
    out = capsys.readouterr().out
    assert status == 1
    assert f"cannot play the recording: {empty}: no images in the folder" in out, out
    assert "looking again" not in out and "0 frames in 0." in out, out


def test_camera_check_without_a_camera_says_so(capsys):
    status = main(["camera", "--source", "/nonexistent/cam", "--seconds", "0.5"])
    out = capsys.readouterr().out
    assert status == 1 and "camera missing" in out
