"""A trained network of card vision (an ONNX file in ``models/``), run by ONNX Runtime.

ONNX Runtime runs the shipped networks faster than OpenCV's DNN did on one core (the index
detector about 1.7 times, the readers about 1.2 times) and names the same cards, sure or not,
on every photo measured (docs/vision.md, "Figures", "The networks run by ONNX Runtime").
OpenCV still does everything else.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime


class ModelUnreadable(Exception):
    """The file is not a network ONNX Runtime can run (damaged, cut short, another format)."""


class Network:
    """One network, run on the calling thread alone: card vision reads on the camera's own
    thread, within one core, and ONNX Runtime's pool of threads would spin on the others (the
    pads' and the screen's)."""

    def __init__(self, path: Path | str) -> None:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: nothing on a player's terminal
        try:
            self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # ONNX Runtime's own errors derive from Exception alone
            raise ModelUnreadable(f"{Path(path).name}: {error}") from error
        self.input = self.session.get_inputs()[0].name

    def __call__(self, blob: np.ndarray) -> np.ndarray:
        """The network's first output for a batch (N x C x H x W, float32, as OpenCV's
        ``blobFromImages`` makes it)."""
        return self.session.run(None, {self.input: blob})[0]
