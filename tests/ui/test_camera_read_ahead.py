"""A table with a camera makes it ready from home on (ui/camera_link.py, ``read_ahead``): the
camera's code, its models and the drawn glyphs, which took seconds the first time a start of the
app opened the camera (the camera naming no card meanwhile), are made on a thread of their own,
and the glyphs are kept with the table's games to be read back at the next start."""

import pytest

from hardware.vision import classify, kept, learned


class Table:
    """What the link asks of the app: its settings, its data folder, and to hear when it stops."""

    def __init__(self, data_dir, settings):
        self.data_dir, self.settings = data_dir, settings

    def bind(self, **handlers):
        pass


def CameraLink(table):
    from ui.camera_link import CameraLink as Link

    return Link(table)


@pytest.fixture
def fresh(driver, monkeypatch):
    """A process that has made nothing yet, keeping nothing but where the app says (Kivy set up
    as the app sets it up, by the tests' app, before the link is imported)."""
    monkeypatch.delenv(kept.CACHE_ENV, raising=False)
    monkeypatch.setattr(kept, "_folder", None)
    monkeypatch.setattr(classify, "_BUILT", None)
    monkeypatch.setattr(learned, "_DEFAULT", None)


def test_a_table_with_a_camera_makes_it_ready_from_home_and_keeps_the_drawn_glyphs(tmp_path, monkeypatch, fresh):
    table = Table(tmp_path, {"camera": {"source": "/dev/video0"}})
    thread = CameraLink(table).read_ahead()
    thread.join(120)
    assert not thread.is_alive() and learned._DEFAULT is not None   # ready before any game asks
    assert len(list((tmp_path / "drawn").glob("glyphs-*.kept"))) == 1

    # The next start of the app reads the glyphs back rather than drawing them again.
    monkeypatch.setattr(classify, "_BUILT", None)
    monkeypatch.setattr(learned, "_DEFAULT", None)

    def not_again(*how):
        raise AssertionError("drawn again")

    monkeypatch.setattr(classify, "_build", not_again)
    thread = CameraLink(table).read_ahead()
    thread.join(120)
    assert learned._DEFAULT is not None and classify._BUILT is not None


def test_a_table_without_a_camera_reads_nothing_ahead(tmp_path, fresh):
    assert CameraLink(Table(tmp_path, {})).read_ahead() is None
    assert CameraLink(Table(tmp_path, {"camera": {"source": ""}})).read_ahead() is None
    assert learned._DEFAULT is None and not (tmp_path / "drawn").exists()
