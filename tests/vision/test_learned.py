"""The shipped corner model: it loads, names drawn corners, and is never sure of noise."""

import numpy as np
import pytest

from companion.cards import RANKS, SUITS
from hardware.vision.glyphs import cut_index
from hardware.vision.learned import MODEL_PATH, CombinedClassifier, LearnedClassifier, default_classifier
from hardware.vision.render import CARD_H, CARD_W, render_card

pytestmark = pytest.mark.skipif(not MODEL_PATH.is_file(), reason="the trained model is not shipped")


@pytest.fixture(scope="module")
def model():
    return LearnedClassifier.load()


def test_the_shipped_model_is_small_and_used_by_default():
    assert MODEL_PATH.stat().st_size <= 10 * 1024 * 1024
    assert isinstance(default_classifier(), CombinedClassifier)


def test_drawn_corners_are_named(model):
    right = 0
    codes = [r + s for s in SUITS for r in RANKS]
    for code in codes:
        reading = model.read(cut_index(render_card(code)))
        right += reading.card == code
        assert code in reading.candidates or reading.card is None or not reading.sure
    assert right >= 48, f"{right}/52 drawn corners named right"


def test_a_corner_of_noise_is_never_sure(model):
    rng = np.random.default_rng(3)
    for _ in range(30):
        noise = rng.integers(0, 256, (CARD_H, CARD_W, 3), dtype=np.uint8)
        idx = cut_index(noise)
        if idx is not None:
            assert not model.read(idx).sure
            assert not default_classifier().read(idx).sure
