import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture
def medium(catalog):
    return build_template("medium", catalog=catalog)
