"""Training the card-vision models and choosing their thresholds (``python -m tools.vision.<script>``).

They need the ``train`` extra (PyTorch and onnx) and the photographs of ``../shared/vision-data``;
the app reads only what they export to ``hardware/vision/models/`` (docs/vision.md, "The
trained models"), so they stay out of the installed package.
"""

import argparse
from pathlib import Path


def vision_data(path: str) -> str:
    """``--data``'s check: a folder of the photographs (its ``scenes/`` and ``crops/`` with
    their labels), or one line saying what is missing, before any training starts."""
    folder = Path(path)
    missing = [f"{part}/labels.json" for part in ("scenes", "crops") if not (folder / part / "labels.json").is_file()]
    if missing:
        raise argparse.ArgumentTypeError(f"{path} has no {' and no '.join(missing)}: it should be the photographs "
                                         "of ../shared/vision-data (docs/vision.md, \"The trained models\")")
    return path
