"""Training the card-vision models and choosing their thresholds (``python -m tools.vision.<script>``).

They need the ``train`` extra (PyTorch and onnx) and the photographs of ``../shared/vision-data``;
the app reads only what they export to ``hardware/vision/models/`` (docs/vision.md, "The
trained models"), so they stay out of the installed package.
"""
