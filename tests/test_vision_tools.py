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
