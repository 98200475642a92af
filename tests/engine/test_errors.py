"""Bad input gets a clear error that names the value and says what to do."""

import math

import pytest

from engine import Value


@pytest.mark.parametrize("bad", ["2.0", None, [1.0], 1 + 2j, {"x": 1}])
def test_non_numeric_data(bad):
    with pytest.raises(TypeError, match="real number") as info:
        Value(bad)
    assert type(bad).__name__ in str(info.value)


def test_value_of_a_value():
    with pytest.raises(TypeError, match=r"\.data"):
        Value(Value(1.0))


def test_non_numeric_operand():
    with pytest.raises(TypeError, match="real number"):
        Value(1.0) + "2"


def test_value_exponent_is_refused_with_the_reason():
    with pytest.raises(TypeError, match="exponent would get no gradient"):
        Value(2.0) ** Value(3.0)
    with pytest.raises(TypeError, match="exponent would get no gradient"):
        2.0 ** Value(3.0)


def test_log_of_non_positive():
    for x in (0.0, -1.5):
        with pytest.raises(ValueError, match=rf"log\({x}\)"):
            Value(x).log()


def test_exp_overflow_shows_the_input():
    with pytest.raises(OverflowError, match=r"exp\(1000.0\)"):
        Value(1000.0).exp()


def test_negative_base_fractional_power():
    with pytest.raises(ValueError, match="whole-number exponent"):
        Value(-4.0) ** 0.5


def test_zero_to_a_negative_power():
    with pytest.raises(ZeroDivisionError, match="base is zero"):
        Value(0.0) ** -1


def test_divide_by_zero_value():
    with pytest.raises(ZeroDivisionError):
        Value(1.0) / Value(0.0)


def test_the_errors_leave_no_half_built_node():
    x = Value(math.e)
    y = x.log()
    assert y.data == 1.0
