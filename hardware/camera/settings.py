"""The ``[camera]`` table of config.toml, checked: :func:`camera_settings`.

>>> camera_settings({}).source
''
>>> camera_settings({"source": "/dev/video0", "size": [640, 480], "fps": 30}).size
(640, 480)
>>> camera_settings({"fps": 0})
Traceback (most recent call last):
...
hardware.camera.settings.CameraSettingsError: camera fps must be a number from 1 to 120, not 0
"""

from __future__ import annotations

from dataclasses import dataclass


class CameraSettingsError(ValueError):
    """A ``[camera]`` value that cannot be used; the message names it."""


@dataclass(frozen=True)
class CameraSettings:
    source: str = ""                 # "" none, "auto", "picamera", "/dev/videoN", a file or folder
    size: tuple[int, int] = (640, 480)
    fps: float = 30.0
    region: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)  # x, y, w, h as fractions


def camera_settings(table: dict) -> CameraSettings:
    """Check a ``[camera]`` table (missing keys take their defaults)."""
    if not isinstance(table, dict):
        raise CameraSettingsError("[camera] must be a table")
    unknown = set(table) - {"source", "size", "fps", "region"}
    if unknown:
        raise CameraSettingsError(f"[camera] has unknown keys: {', '.join(sorted(unknown))}")
    source = table.get("source", "")
    if not isinstance(source, str):
        raise CameraSettingsError('camera source must be text: "", "auto", "picamera", "/dev/video0" or a path')
    size = table.get("size", [640, 480])
    if (not isinstance(size, (list, tuple)) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 4096 for v in size)):
        raise CameraSettingsError(f"camera size must be [width, height] in pixels (16 to 4096), not {size!r}")
    fps = table.get("fps", 30)
    if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not 1 <= fps <= 120:
        raise CameraSettingsError(f"camera fps must be a number from 1 to 120, not {fps!r}")
    region = table.get("region", [0.0, 0.0, 1.0, 1.0])
    ok = (isinstance(region, (list, tuple)) and len(region) == 4
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in region))
    if ok:
        x, y, w, h = (float(v) for v in region)
        ok = 0 <= x < 1 and 0 <= y < 1 and 0 < w <= 1 - x + 1e-9 and 0 < h <= 1 - y + 1e-9
    if not ok:
        raise CameraSettingsError(f"camera region must be [x, y, width, height], fractions of the frame inside it, "
                                  f"not {region!r}")
    return CameraSettings(source, (int(size[0]), int(size[1])), float(fps), tuple(float(v) for v in region))
