"""The camera device: mock timing, a lost camera, and the [camera] settings."""

import numpy as np
import pytest

from hardware.camera.device import Camera, MockCamera
from hardware.camera.settings import CameraSettingsError, camera_settings


def frames(n):
    return [np.full((48, 64, 3), i, np.uint8) for i in range(n)]


def test_mock_frames_are_stamped_at_the_frame_rate():
    cam = Camera(source=MockCamera(frames(5), fps=25, realtime=False, start=10.0))
    times = [cam.read().t for _ in range(5)]
    assert times == pytest.approx([10.0, 10.04, 10.08, 10.12, 10.16])
    assert cam.read() is None and cam.ended


def test_realtime_mock_paces_frames_on_the_monotonic_clock():
    import time

    cam = Camera(source=MockCamera(frames(4), fps=20, realtime=True))
    t0 = time.monotonic()
    stamps = [cam.read().t for _ in range(4)]
    assert time.monotonic() - t0 >= 0.14
    assert all(abs(b - a - 0.05) < 1e-9 for a, b in zip(stamps, stamps[1:]))


def test_a_folder_of_images_plays(tmp_path):
    import cv2

    for i, f in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), f)
    cam = Camera(camera_settings({"source": str(tmp_path), "fps": 10}))
    first = cam.read()
    assert first is not None and first.image.shape == (48, 64, 3)
    cam.close()


def test_an_unplugged_camera_says_so_and_comes_back():
    mock = MockCamera(frames(10), fps=30, realtime=False)
    cam = Camera(source=mock)
    assert cam.read() is not None
    mock.unplugged = True
    assert cam.read() is None
    assert cam.status_text.startswith("camera lost")
    mock.unplugged = False
    assert cam.read() is not None and cam.status_text == "camera working"


def test_a_missing_camera_is_looked_for_again():
    now = [0.0]
    cam = Camera(camera_settings({"source": "/nonexistent/video.mp4"}), retry=2.0, clock=lambda: now[0])
    assert cam.read() is None and "camera missing" in cam.status_text and "every 2 s" in cam.status_text


@pytest.mark.parametrize("table, words", [
    ({"fps": 0}, "fps"), ({"size": [640]}, "size"), ({"region": [0.5, 0.5, 0.8, 0.2]}, "region"),
    ({"source": 3}, "source"), ({"colour": 1}, "unknown keys: colour"),
])
def test_bad_settings_name_the_problem(table, words):
    with pytest.raises(CameraSettingsError, match=words):
        camera_settings(table)


def test_settings_defaults_and_values():
    s = camera_settings({"source": "auto", "size": [1280, 720], "fps": 15, "region": [0.25, 0.1, 0.5, 0.8]})
    assert (s.source, s.size, s.fps, s.region) == ("auto", (1280, 720), 15.0, (0.25, 0.1, 0.5, 0.8))
    assert camera_settings({}).source == ""


def test_a_video_file_plays_frame_by_frame(tmp_path):
    import cv2

    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for f in frames(6):
        writer.write(f)
    writer.release()
    cam = Camera(source=MockCamera(path, fps=10, realtime=False, start=0.0))
    got = []
    while (frame := cam.read()) is not None:
        got.append(frame.t)
    assert got == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])


def test_a_camera_given_no_source_says_there_is_none():
    cam = Camera(camera_settings({}))
    assert cam.read() is None and "no camera set" in cam.status_text


def test_the_camera_fills_the_device_contract():
    """hardware/device.py: status, status_text, on_status on each change, close(), a context manager."""
    from hardware.device import CLOSED, CONNECTED, SEARCHING

    said = []
    mock = MockCamera(frames(10), fps=30, realtime=False)
    with Camera(source=mock, on_status=lambda status, text: said.append((status, text))) as cam:
        assert cam.read() is not None and (cam.status, cam.trouble) == (CONNECTED, False)
        mock.unplugged = True
        assert cam.read() is None and cam.status == SEARCHING and cam.trouble
        mock.unplugged = False
        assert cam.read() is not None and cam.read() is not None   # a second frame is no news
    assert cam.closed and cam.status == CLOSED and cam.read() is None
    assert [status for status, _ in said] == [CONNECTED, SEARCHING, CONNECTED, CLOSED]
