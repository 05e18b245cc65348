import pytest

from planner.catalog import default_catalog
from planner.templates import build_template


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture
def medium(catalog):
    return build_template("medium", catalog=catalog)
