"""The bounded readers: JSON and YAML nested at most 32 levels, YAML's aliases expanded at most
1,000,000 values, each refusal one line that quotes no value."""

from __future__ import annotations

import pytest
import yaml

from planner.readfile import MAX_NESTING, YamlLimitError, safe_yaml, strict_json


def nested_json(levels: int) -> str:
    return "[" * (levels - 1) + "{}" + "]" * (levels - 1)  # ``levels`` containers, one in the other


def test_json_nested_32_levels_is_read_and_33_is_refused_in_one_line():
    assert MAX_NESTING == 32
    value = strict_json(nested_json(32))
    for _ in range(31):
        value = value[0]
    assert value == {}
    for levels in (33, 500, 100_000):  # 100,000 is past Python's own recursion limit
        with pytest.raises(ValueError, match="nested too deeply") as info:
            strict_json(nested_json(levels))
        assert "\n" not in str(info.value)


def test_json_depth_counts_objects_and_lists_alike():
    deep = '{"a": ' * 33 + "1" + "}" * 33
    with pytest.raises(ValueError, match="more than 32 levels"):
        strict_json(deep)
    assert strict_json('{"a": ' * 32 + "1" + "}" * 32)["a"]["a"]["a"] is not None


def test_yaml_without_aliases_reads_as_plain_data():
    assert safe_yaml("a: [1, 2]\nb: {c: d}\n") == {"a": [1, 2], "b": {"c": "d"}}


def test_a_few_aliases_that_expand_to_little_are_read():
    # what people use anchors for: one interface repeated
    data = safe_yaml("x: &i {type: 400gbase-x-osfp}\ninterfaces: [*i, *i, *i]\n")
    assert data["interfaces"] == [{"type": "400gbase-x-osfp"}] * 3


def test_aliases_expanding_past_a_million_values_are_refused_before_anything_is_built():
    # each level: 11 aliases of the one before; 11**6 = 1,771,561 leaves at the top
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcde", "bcdef"):
        lines.append(f"{name}: &{name} [" + ", ".join(f"*{prev}" for _ in range(11)) + "]")
    with pytest.raises(YamlLimitError, match="more than 1,000,000 values"):
        safe_yaml("\n".join(lines))
    # five levels: 11**5 = 161,051 leaves (and the lists holding them): read
    assert len(safe_yaml("\n".join(lines[:5]))["e"]) == 11


def test_aliases_that_stack_nesting_past_32_levels_are_refused():
    # each anchor is 20 levels deep and holds the previous one: 40 levels once expanded
    inner = "[" * 19 + "x" + "]" * 19
    text = f"a: &a {inner}\nb: " + "[" * 19 + "*a" + "]" * 19 + "\n"
    with pytest.raises(YamlLimitError, match="nest it more than 32 levels"):
        safe_yaml(text)


def test_a_long_chain_of_anchors_is_refused_without_deep_recursion():
    # 3,000 anchors each holding the one before: 3,000 levels expanded, refused at 32
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 3000)]
    with pytest.raises(YamlLimitError, match="32 levels"):
        safe_yaml("\n".join(lines))


@pytest.mark.parametrize("text, words", [
    ("n: " + "9" * 5000, "cannot be read"),          # Python builds no int of more than 4,300 digits
    ("d: 2024-13-45", "cannot be read"),             # no 13th month
])
def test_values_python_cannot_build_are_one_line(text, words):
    with pytest.raises(YamlLimitError, match=words) as info:
        safe_yaml(text)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_python_tags_are_not_built():
    with pytest.raises(yaml.YAMLError):
        safe_yaml("x: !!python/object/apply:os.system ['true']")


@pytest.mark.parametrize("text, value", [("null", None), ("3", 3), ('"a"', "a"), ("[]", []), ("{}", {})])
def test_json_that_is_one_value_is_read(text, value):
    assert strict_json(text) == value
