"""What a test run keeps (hardware/vision/kept.py), the synthetic videos and the drawn glyphs,
is read back as it was made, byte for byte: the vision tests are tuned on those bytes."""

import io
import json

import numpy as np

from hardware.vision import synthetic
from hardware.vision.classify import _load_glyphs, _save_glyphs, builtin_classifier
from hardware.vision.kept import CACHE_ENV
from hardware.vision.synthetic import game_video


def test_a_kept_video_is_read_back_as_it_was_drawn(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    drawn = game_video(3, cards=("7H",))
    assert len(list(tmp_path.glob("video-*.kept"))) == 1

    def not_again(*how):
        raise AssertionError("drawn again")

    monkeypatch.setattr(synthetic, "_draw_game", not_again)
    kept = game_video(3, cards=["7H"])   # the same arguments, a list for the tuple
    assert kept[1:] == drawn[1:] == (30, [("7H", 17)])
    assert len(kept[0]) == len(drawn[0])
    assert all(a.dtype == b.dtype == np.uint8 and np.array_equal(a, b) for a, b in zip(kept[0], drawn[0]))


def test_a_video_drawn_otherwise_is_not_taken_for_a_kept_one(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    one, _, _ = game_video(3, cards=())
    other, _, _ = game_video(4, cards=())
    noisier, _, _ = game_video(3, cards=(), noise_seed=1)
    assert len(list(tmp_path.glob("video-*.kept"))) == 3
    assert not np.array_equal(one[0], other[0]) and not np.array_equal(one[0], noisier[0])


def test_the_kept_glyphs_are_the_built_ones():
    built = builtin_classifier()
    f = io.BytesIO()
    _save_glyphs(f, built)
    f.seek(0)
    kept = _load_glyphs(f)
    assert kept.rank_y == built.rank_y and kept.suit_y == built.suit_y
    for mine, theirs in ((kept.rank_x, built.rank_x), (kept.suit_x, built.suit_x)):
        assert len(mine) == len(theirs)
        assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(mine, theirs))


def test_a_damaged_kept_file_is_made_again_and_nowhere_to_keep_it_still_makes_it(tmp_path, monkeypatch):
    # The app keeps the drawn glyphs on its SD card: a file cut short by a power cut must not
    # stop the camera, and neither must a card that cannot be written.
    from hardware.vision import kept as keeping

    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setattr(keeping, "_folder", None)
    keeping.keep_in(tmp_path / "drawn")

    def save(f, made):
        f.write(json.dumps(made).encode())

    def load(f):
        return json.loads(f.read())   # a damaged file: a ValueError here

    made = []

    def make():
        made.append(1)
        return [1, 2, 3]

    assert keeping.kept("numbers", 1, (), make, save, load) == [1, 2, 3] and len(made) == 1
    assert keeping.kept("numbers", 1, (), make, save, load) == [1, 2, 3] and len(made) == 1   # read back
    [path] = (tmp_path / "drawn").glob("numbers-*.kept")
    path.write_bytes(b"[1, 2,")                                                                # cut short
    assert keeping.kept("numbers", 1, (), make, save, load) == [1, 2, 3] and len(made) == 2
    assert path.read_bytes() == b"[1, 2, 3]"                                                   # made whole again
    # What an older version kept (other code or libraries: another name) goes when a new one is made.
    older = path.with_name("numbers-0123456789abcdef01234567.kept")
    older.write_bytes(b"[0]")
    path.unlink()
    assert keeping.kept("numbers", 1, (), make, save, load) == [1, 2, 3] and len(made) == 3
    assert sorted(p.name for p in (tmp_path / "drawn").glob("*.kept")) == [path.name]
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    keeping.keep_in(blocked / "drawn")
    assert keeping.kept("numbers", 1, (), make, save, load) == [1, 2, 3] and len(made) == 4
