"""``planner.records.record`` behaves as the ``@dataclass(frozen=True, slots=True)`` it replaces.

Each test declares the same class both ways and compares what a caller sees."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from planner.records import FrozenInstanceError, field, fields, record, replace



@record
class Feed:  # at module level, so pickle can find it
    name: str
    breaker_a: float = 0.0
    outlets: dict = field(default_factory=dict)
    note: str = field(default="", compare=False)


def _pair(frozen: bool = True):
    def body(cls_name):
        return type(cls_name, (), {
            "__annotations__": {"name": "str", "kw": "float", "tags": "list[str]", "note": "str"},
            "kw": 1.5,
            "tags": field(default_factory=list),
            "note": field(default="", compare=False, repr=False, metadata={"unit": "name"}),
            "__module__": __name__,
            "double": lambda self: self.kw * 2,
        })
    made = record(body("Rec"), frozen=frozen)
    reference = dataclasses.dataclass(frozen=frozen, slots=True)(body("Rec"))
    return made, reference


def test_a_record_takes_its_fields_by_position_and_keyword_with_defaults_and_factories():
    Rec, Ref = _pair()
    for cls in (Rec, Ref):
        a = cls("feed A")
        assert (a.name, a.kw, a.tags, a.note) == ("feed A", 1.5, [], "")
        b = cls("feed B", 2.0, ["x"], note="n")
        assert (b.name, b.kw, b.tags, b.note) == ("feed B", 2.0, ["x"], "n")
        assert cls("c").tags is not cls("c").tags  # a fresh list per record
        assert a.double() == 3.0
    with pytest.raises(TypeError):
        Rec()  # the required field
    with pytest.raises(TypeError):
        Rec("a", colour="red")  # no such field


def test_a_frozen_record_refuses_assignment_and_deletion_and_has_no_dict():
    Rec, _ = _pair()
    r = Rec("a")
    with pytest.raises(FrozenInstanceError):
        r.kw = 2.0
    with pytest.raises(FrozenInstanceError):
        del r.kw
    with pytest.raises((AttributeError, TypeError, FrozenInstanceError)):
        r.other = 1
    assert not hasattr(r, "__dict__")
    assert FrozenInstanceError is dataclasses.FrozenInstanceError


def test_equality_hash_and_repr_match_the_dataclass_over_the_compared_fields():
    Rec, Ref = _pair()
    assert Rec("a", note="x") == Rec("a", note="y")  # note is compare=False
    assert Rec("a") != Rec("b")
    assert Rec("a", tags=[]) != Ref("a", tags=[])  # another class: not equal
    assert hash(Rec("a", 2.0, ())) == hash(Rec("a", 2.0, ()))
    assert len({Rec("a", 2.0, ()), Rec("a", 2.0, ()), Rec("b", 2.0, ())}) == 2
    assert repr(Rec("a", 2.0, ["t"])) == repr(Ref("a", 2.0, ["t"])).replace("test_records._pair.<locals>.", "")


def test_a_mutable_record_takes_assignment_and_is_unhashable_like_the_dataclass():
    Rec, Ref = _pair(frozen=False)
    r = Rec("a")
    r.kw = 9.0
    assert r.kw == 9.0 and r == Rec("a", 9.0)
    with pytest.raises(AttributeError):
        r.other = 1  # slots
    for cls in (Rec, Ref):
        with pytest.raises(TypeError):
            hash(cls("a"))


def test_fields_replace_pickle_and_copy():
    Rec, Ref = _pair()
    assert [f.name for f in fields(Rec)] == [f.name for f in dataclasses.fields(Ref)]
    assert fields(Rec("a"))[3].metadata["unit"] == "name"
    r = Rec("a", 2.0, ["t"], note="n")
    changed = replace(r, kw=3.0)
    assert (changed.name, changed.kw, changed.tags, changed.note) == ("a", 3.0, ["t"], "n") and r.kw == 2.0
    with pytest.raises(TypeError):
        replace(r, colour="red")
    for twin in (copy.copy(r), copy.deepcopy(r)):
        assert twin == r and twin.note == "n" and type(twin) is Rec
    feed = Feed("A", 63.0, {"c19": 2}, note="n")
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        twin = pickle.loads(pickle.dumps(feed, protocol))
        assert twin == feed and twin.note == "n" and twin.outlets == {"c19": 2} and type(twin) is Feed
    one = record(type("One", (), {"__annotations__": {"a": "int"}, "__module__": __name__}))
    assert copy.deepcopy(one(5)).a == 5  # one field: the state is still a tuple
    with pytest.raises(TypeError):
        fields(object())


def test_declaration_mistakes_are_refused_as_the_dataclass_refuses_them():
    with pytest.raises(TypeError, match="without a default follows"):
        record(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    for name in ("a=1):\n    import os #", "class", "x y"):  # only plain identifiers reach the compiled code
        with pytest.raises(TypeError, match="is not a field name"):
            record(type("Odd", (), {"__annotations__": {name: "int"}}))
    with pytest.raises(ValueError, match="mutable default"):
        record(type("Shared", (), {"__annotations__": {"a": "list"}, "a": []}))
    with pytest.raises(ValueError, match="mutable default"):
        record(type("Shared", (), {"__annotations__": {"a": "list"}, "a": field(default=[])}))


def test_a_subclass_record_adds_its_fields_after_its_base_records_fields():
    @record
    class Base:
        def title(self) -> str:
            return type(self).__name__

    @record
    class Section(Base):
        a: int
        b: int = 2

    s = Section(1)
    assert (s.a, s.b, s.title()) == (1, 2, "Section") and [f.name for f in fields(Section)] == ["a", "b"]
    assert isinstance(s, Base) and not hasattr(s, "__dict__")


def test_a_subclass_comparing_through_super_keeps_its_own_eq_and_a_cycle_has_a_finite_repr():
    calls = []

    @record
    class Base:
        a: int

    class Sub(Base):
        def __eq__(self, other):
            calls.append("Sub")
            return super().__eq__(other)

        __hash__ = Base.__hash__

    assert Sub(1) == Sub(1) and Sub(1) == Sub(1) and not Sub(1) == Sub(2)
    assert calls == ["Sub"] * 3  # the compiled __eq__ went onto Base, not over Sub's

    @record(frozen=False)
    class Node:
        child: object = None

    node = Node()
    node.child = node
    assert repr(node).endswith(".Node(child=...)")  # as a dataclass writes a cycle
