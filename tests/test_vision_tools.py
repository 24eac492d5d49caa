"""The vision training scripts (tools/vision/) say in one line what a wrong ``--data`` lacks,
before any training starts (docs/vision.md, "The trained models")."""

import importlib

import pytest

SCRIPTS = ("train", "train_corners", "train_reader", "train_card_corners", "thresholds", "card_corner_thresholds")


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_folder_without_the_photographs_is_named_not_a_traceback(script, tmp_path, capsys):
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "labels.json").write_text("{}")
    main = importlib.import_module(f"tools.vision.{script}").main
    with pytest.raises(SystemExit) as ended:
        main(["--data", str(tmp_path)])
    assert ended.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"{tmp_path} has no crops/labels.json" in said and "scenes/labels.json" not in said


def _data(tmp_path):
    for part in ("scenes", "crops"):
        (tmp_path / part).mkdir()
        (tmp_path / part / "labels.json").write_text("{}")
    return str(tmp_path)


@pytest.mark.parametrize("script, args, said", [
    ("train_reader", ["--start-from", "gone.onnx", "--out", "new.onnx"], "no exported reader at gone.onnx"),
    ("train_reader", ["--start-from", "a.onnx", "b.onnx"], "2 readers to train, 1 --out"),
    ("train_reader", ["--detected", "0.4", "--tables", "0.5"], "add up to 0.9: they must stay under 0.85"),
    ("train_corners", ["--start-from", "gone.onnx"], "no exported detector at gone.onnx"),
])
def test_training_options_that_cannot_work_are_named_before_the_photos_are_read(script, args, said, tmp_path,
                                                                                   capsys):
    main = importlib.import_module(f"tools.vision.{script}").main
    with pytest.raises(SystemExit) as ended:
        main(["--data", _data(tmp_path), *args])
    assert ended.value.code == 2
    assert said in capsys.readouterr().err.strip().splitlines()[-1]
