"""Teach your deck, measured (docs/vision.md, "Teach your deck"): a deck the project draws in a
design no model saw is read, once taught, as well as the public drawn decks."""

import numpy as np
import pytest

from hardware.vision.feed import classifier_for
from hardware.vision.indexes import SeenCard
from hardware.vision.learned import default_classifier
from hardware.vision.recognise import taught_look
from hardware.vision.render import random_scene
from hardware.vision.teach_measure import UNSEEN_DESIGN, read_deck, teach


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deck")
    assert teach(folder, UNSEEN_DESIGN) == []  # every card kept, each shown at most four times
    return classifier_for(folder)


def test_a_deck_no_model_saw_is_read_as_well_as_the_public_one_once_taught(taught):
    public = read_deck(default_classifier(), None)
    before = read_deck(default_classifier(), UNSEEN_DESIGN)
    after = read_deck(taught, UNSEEN_DESIGN)
    assert after["named_sure"] >= public["named_sure"] - 1, (public, after)
    assert after["top_right"] >= public["top_right"] - 1, (public, after)
    assert after["sure_not_in_photo"] <= 1, after
    # Teaching is what did it: the same photos before it.
    assert before["named_sure"] <= after["named_sure"] - 8, (before, after)


def test_the_taught_glyphs_have_the_last_word_on_a_card_whose_outline_was_found(taught):
    image, quads = random_scene(np.random.default_rng(8), ["JS"], style=UNSEEN_DESIGN)
    wrong = [SeenCard("QS", True, 0.99, quads[0], ["QS"], True, outlined=True)]
    seen, top = taught_look(image, wrong, "QS", taught, quads)
    assert [(s.card, s.sure) for s in seen] == [("JS", True)] and top == "JS"
    # Without a taught deck the readers' names stand.
    assert taught_look(image, wrong, "QS", default_classifier(), quads) == (wrong, "QS")
