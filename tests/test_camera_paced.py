"""The camera's schedule the bench plays its videos on (hardware/camera/paced.py): a reader
slower than the camera gets the newest frame, and what it skipped is counted. The camera part's
figures themselves (the watcher at 30 fps at both sizes, a slow reader, Slapjack on the camera
feed in the real app) are checked, figure by figure, by the quick bench's camera test
(tests/test_bench_command.py)."""

from __future__ import annotations

import time

import pytest

from hardware.camera.paced import PacedFrames


def test_a_reader_slower_than_the_camera_gets_the_newest_frame_and_the_skipped_are_counted():
    images = list(range(40))
    source = PacedFrames(images, fps=100)
    read = []
    while (frame := source.read()) is not None:
        read.append(frame)
        time.sleep(0.025)        # a reader at 40 a second behind a camera at 100
    indexes = [f.index for f in read]
    assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes), "never an older frame after a newer"
    assert all(f.image == f.index for f in read), "each frame is the image captured at its index"
    assert source.skipped, "a slow reader skips frames"
    assert sorted(indexes + source.skipped) == images[:max(indexes) + 1], "every frame read or counted as skipped"
    assert indexes[-1] == 39, "the last frame is not lost"
    assert all(f.t == pytest.approx(source.start_at + f.index / 100) for f in read), "stamped at its capture time"
