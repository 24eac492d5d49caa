"""The card-corner reader: a straightened card named from its two corner regions at once."""

import numpy as np
import pytest

from companion.cards import RANKS, SUITS
from hardware.vision.card_corners import MODEL_PATH, CardCornerReader, corner_region, default_card_reader
from hardware.vision.classify import Reading
from hardware.vision.recognise import WITNESSED, read_image, read_outlined
from hardware.vision.detect import warp_card
from hardware.vision.render import CARD_H, CARD_W, card_quad, paste_card, random_style, render_card, texture

shipped = pytest.mark.skipif(not MODEL_PATH.is_file(), reason="the model is not shipped")
CODES = [r + s for s in SUITS for r in RANKS]


def straightened_from_a_table(code, rng, style=None, off=3.0):
    """A drawn card laid turned on a drawn table, straightened from an outline a few pixels off."""
    table = texture(480, 640, rng)
    quad = card_quad(320, 240, 200, float(rng.uniform(-180, 180)))
    paste_card(table, render_card(code, style), quad)
    found = quad + rng.normal(0, off, quad.shape).astype(np.float32)
    return warp_card(table, found)


def test_the_corner_region_is_the_top_left_of_the_card_whatever_its_size():
    card = np.zeros((CARD_H * 2, CARD_W * 2, 3), np.uint8)
    card[: int(0.34 * CARD_H * 2), : int(0.30 * CARD_W * 2)] = 255  # the region, white; the rest black
    region = corner_region(card)
    assert region.shape[:2] == (76, 48)
    assert region.min() == 255


@shipped
def test_drawn_cards_of_designs_never_seen_are_named_and_never_wrongly_sure():
    reader = default_card_reader()
    rng = np.random.default_rng(77)  # not the training seed
    right = sure = sure_wrong = 0
    for code in rng.choice(CODES, 40, replace=False):
        reading, joker = reader.read(straightened_from_a_table(str(code), rng, random_style(rng)))
        assert not joker
        right += reading is not None and reading.card == code
        if reading is not None and reading.sure:
            sure += 1
            sure_wrong += reading.card != code
    assert right >= 38, f"{right}/40 named right"
    assert sure >= 34, f"only {sure}/40 sure"
    assert sure_wrong == 0


@shipped
@pytest.mark.parametrize("kind", ["joker", "table", "noise", "black"])
def test_a_joker_or_no_card_at_all_is_not_named(kind):
    rng = np.random.default_rng(3)
    if kind == "joker":
        card = straightened_from_a_table("joker", rng)
    elif kind == "table":
        card = texture(CARD_H, CARD_W, rng, "wood")
    elif kind == "noise":
        card = rng.integers(0, 256, (CARD_H, CARD_W, 3), dtype=np.uint8)
    else:
        card = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    reading, joker = default_card_reader().read(card)
    assert reading is None
    assert joker == (kind == "joker")


@shipped
def test_both_corners_must_agree_for_a_sure_name():
    # A card whose two corners were printed for different cards (a 7H at the top, a 2S at the
    # bottom): neither is sure.
    top = render_card("7H")
    other = render_card("2S")
    top[CARD_H // 2:] = other[CARD_H // 2:]
    reading, _ = default_card_reader().read(top)
    assert reading is None or not reading.sure
    assert default_card_reader().read(render_card("7H"))[0].card == "7H"


def test_a_damaged_model_file_is_refused(tmp_path):
    bad = tmp_path / "card_corners.onnx"
    bad.write_bytes(b"not a model")
    from hardware.vision.network import ModelUnreadable

    with pytest.raises(ModelUnreadable, match="card_corners.onnx"):
        CardCornerReader(bad)


class Says:
    """A card-corner model that gives a set answer, to pin down how its reading is weighed."""

    def __init__(self, card=None, score=0.0, joker=False, sure=0.995):
        self.answer = (Reading(card, score >= sure, score, [card]) if card else None, joker)

    def read(self, card):
        return self.answer


BLANK_CARD = np.full((CARD_H, CARD_W, 3), 240, np.uint8)  # no ink: the glyph classifier names nothing


def test_an_outlined_card_takes_the_models_name_sure_only_at_its_threshold_or_witnessed(classifier):
    unsure_indexes = Reading("9C", False, 0.6, ["9C", "9S"])
    # Sure on its own.
    assert read_outlined(BLANK_CARD, classifier, None, Says("9S", 0.999)) == Reading("9S", True, 0.999, ["9S"])
    # Under its threshold: taken, unsure, unless the indexes name the same card.
    assert read_outlined(BLANK_CARD, classifier, None, Says("9S", 0.9)).sure is False
    assert read_outlined(BLANK_CARD, classifier, unsure_indexes, Says("9S", 0.9)).card == "9S"
    assert read_outlined(BLANK_CARD, classifier, unsure_indexes, Says("9S", 0.9)).sure is False
    assert read_outlined(BLANK_CARD, classifier, unsure_indexes, Says("9C", 0.9)).sure is True
    assert read_outlined(BLANK_CARD, classifier, unsure_indexes, Says("9C", WITNESSED - 0.01)).sure is False


def test_a_sure_glyph_reading_of_another_card_leaves_the_models_name_unsure(classifier):
    # A deck the table taught is read surely by its glyphs; the model, which never saw it, may
    # be sure of another card: the table is asked, both cards offered.
    drawn = render_card("7D")
    reading = read_outlined(drawn, classifier, None, Says("8D", 0.999))
    assert (reading.card, reading.sure) == ("8D", False)
    assert reading.candidates[:2] == ["8D", "7D"]
    assert read_outlined(drawn, classifier, None, Says("7D", 0.9)).sure is True  # a sure glyph witness


def test_a_joker_the_model_sees_is_not_named_whatever_the_indexes_said(classifier):
    assert read_outlined(BLANK_CARD, classifier, Reading("AD", False, 0.7, ["AD"]), Says(joker=True)) is None


def test_with_no_name_from_the_model_the_indexes_or_glyphs_are_taken_as_before(classifier):
    unsure_indexes = Reading("9C", False, 0.6, ["9C", "9S"])
    assert read_outlined(BLANK_CARD, classifier, unsure_indexes, Says()) == unsure_indexes
    assert read_outlined(BLANK_CARD, classifier, None, Says()) is None
    drawn = render_card("7D")
    assert read_outlined(drawn, classifier, None, Says()).card == "7D"  # the glyph classifier's reading
    assert read_outlined(drawn, classifier, None, None).card == "7D"  # no model at all


def test_a_design_the_indexes_do_not_know_is_read_by_the_model_on_each_outline(classifier):
    # A camera frame whose card the indexes name nothing on (here: no detector's index at all,
    # a blank card) has each outline read by the model too; without the detector (the pile
    # watcher's first look) by the glyphs alone.
    frame = texture(480, 640, np.random.default_rng(2), "wood")
    paste_card(frame, np.full((CARD_H, CARD_W, 3), 235, np.uint8), card_quad(320, 240, 200, 10))

    class NoIndexes:
        def detect(self, image, scale=None):
            return []

        def scale_for(self, image):
            return 1.0

    seen, top = read_image(frame, classifier, NoIndexes(), card_reader=Says("5S", 0.999))
    assert (top, seen[0].sure) == ("5S", True)
    assert read_image(frame, classifier, None, card_reader=Says("5S", 0.999)) == ([], None)


@shipped
def test_a_drawn_card_straightened_from_a_table_is_read_sure_by_the_shipped_model(classifier):
    rng = np.random.default_rng(8)
    for code in ("10H", "QS", "3C"):
        reading = read_outlined(straightened_from_a_table(code, rng, random_style(rng)), classifier)
        assert (reading.card, reading.sure) == (code, True)


def test_a_small_picture_no_reader_names_is_read_as_one_card_filling_it(classifier):
    picture = np.full((224, 224, 3), 240, np.uint8)  # a photo of one card: nothing for the indexes or glyphs
    seen, top = read_image(picture, classifier, card_reader=Says("QH", 0.999))
    assert (top, seen[0].sure) == ("QH", True)
    assert seen[0].outline.tolist() == [[0, 0], [223, 0], [223, 223], [0, 223]]
    assert read_image(picture, classifier, card_reader=Says(joker=True)) == ([], None)
    assert read_image(picture, classifier, card_reader=None) == ([], None)


def test_a_camera_frame_is_never_taken_for_one_card_filling_it(classifier):
    frame = np.full((480, 640, 3), 60, np.uint8)  # a dark table: no card's edge, no index
    assert read_image(frame, classifier, card_reader=Says("QH", 0.999)) == ([], None)
    small = np.full((224, 224, 3), 60, np.uint8)  # the same, as a small picture, is one card
    assert read_image(small, classifier, card_reader=Says("QH", 0.999))[1] == "QH"
