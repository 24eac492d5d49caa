import pytest

cv2 = pytest.importorskip("cv2")


@pytest.fixture(scope="session")
def classifier():
    from hardware.vision.classify import builtin_classifier

    return builtin_classifier()
