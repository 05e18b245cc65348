"""Every number a plan file holds is checked for vanishingly small values: each record of the
plan model with a float field passes its fields through ``physical_number``."""

import typing

import pytest
from pydantic import BaseModel, ValidationError

from planner.plan import model


def _floats(cls: type[BaseModel]) -> list[str]:
    def has_float(t) -> bool:
        return t is float or any(has_float(a) for a in typing.get_args(t))
    return [name for name, info in cls.model_fields.items() if has_float(info.annotation)]


RECORDS = [c for c in vars(model).values() if isinstance(c, type) and issubclass(c, BaseModel)
           and c.__module__ == model.__name__ and not c.__name__.startswith("_")]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_with_a_float_refuses_a_denormal(cls):
    validators = cls.__pydantic_decorators__.field_validators
    if _floats(cls):
        assert "_physical" in validators, f"{cls.__name__} has floats {_floats(cls)} but no physical_number check"


def test_a_denormal_rack_power_cap_is_refused():
    with pytest.raises(ValidationError, match="too small to be a real quantity"):
        model.Rack(id="r1", name="R1", power_cap_kw=1e-310)
