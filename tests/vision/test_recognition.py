"""Naming cards in pictures the project draws itself: turned, blurred, unevenly lit, on textures."""

import numpy as np
import pytest

from companion.cards import RANKS, SUITS
from hardware.vision.recognise import read_image
from hardware.vision.render import random_scene, render_card, texture, paste_card, card_quad

CODES = [r + s for s in SUITS for r in RANKS]


def test_single_cards_of_varied_designs_are_named_and_never_wrongly_sure(classifier):
    rng = np.random.default_rng(2024)
    right = wrong_sure = 0
    codes = list(rng.choice(CODES, 40, replace=False))
    for code in codes:
        image, _ = random_scene(rng, [code])
        seen, top = read_image(image, classifier)
        right += top == code
        wrong_sure += sum(1 for s in seen if s.sure and s.card != code)
    assert right >= 36, f"{right}/40 named right"
    assert wrong_sure == 0


def test_the_outline_surrounds_the_card(classifier):
    rng = np.random.default_rng(5)
    image, quads = random_scene(rng, ["JH"], blur=0.5)
    seen, top = read_image(image, classifier)
    assert top == "JH"
    got = seen[0].outline
    # Every true corner lies within a few pixels of a found corner.
    for corner in quads[0]:
        assert np.min(np.linalg.norm(got - corner, axis=1)) < 8


@pytest.mark.parametrize("kind", ["noise", "black", "table", "hand", "joker"])
def test_bad_input_names_no_card(classifier, kind):
    rng = np.random.default_rng(11)
    if kind == "noise":
        image = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    elif kind == "black":
        image = np.zeros((480, 640, 3), np.uint8)
    elif kind == "table":
        image = texture(480, 640, rng, "wood")
    elif kind == "hand":
        from hardware.vision.synthetic import _hand

        image = texture(480, 640, rng, "cloth")
        _hand(image, 320, 260)
    else:
        image = texture(480, 640, rng, "cloth")
        paste_card(image, render_card("joker"), card_quad(320, 240, 180, 15))
    seen, top = read_image(image, classifier)
    assert top is None and seen == []


def test_a_taught_deck_is_kept_and_read_with_its_own_glyphs(tmp_path, classifier):
    from hardware.vision.templates import DeckTemplates, TemplateError

    store = DeckTemplates(tmp_path / "deck")
    style = {"font": 0, "thickness": 3, "rank_h": 0.1}
    store.save("7h", render_card("7H", style))
    assert store.taught() == ["7H"] and len(store.missing()) == 51
    clf = store.classifier(classifier)
    assert len(clf.rank_y) == len(classifier.rank_y) + 1
    with pytest.raises(TemplateError, match="no corner index"):
        store.save("8H", np.full((350, 250, 3), 240, np.uint8))
