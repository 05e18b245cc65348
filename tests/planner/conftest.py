import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.templates import build_template


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture
def medium(catalog):
    return build_template("medium", catalog=catalog)
