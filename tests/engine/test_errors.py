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


def test_divide_by_a_zero_value_says_the_base_is_zero():
    with pytest.raises(ZeroDivisionError, match="base is zero"):
        Value(1.0) / Value(0.0)


@pytest.mark.parametrize("zero", [0, 0.0])
def test_divide_by_a_plain_zero(zero):
    with pytest.raises(ZeroDivisionError, match=r"1.0 / 0.0: division by zero"):
        Value(1.0) / zero


def test_a_plain_constant_stays_one_leaf():
    x = Value(2.0)
    for y in (x - 3.0, x / 4.0):
        assert len(y.topological_order()) == 3  # x, the constant and the operation
    assert (x - 3.0).data == -1.0 and (x / 4.0).data == 0.5


def test_zero_to_a_power_between_0_and_1_has_no_gradient():
    with pytest.raises(ValueError, match="infinite slope"):
        Value(0.0) ** 0.5


def test_zero_to_the_power_0_is_1_with_slope_0():
    y = Value(0.0) ** 0
    y.backward()
    assert (y.data, y._children[0].grad) == (1.0, 0.0)


def test_pow_overflow_shows_the_input():
    with pytest.raises(OverflowError, match=r"1e\+200 \*\* 2.0 is too large"):
        Value(1e200) ** 2


def test_subtracting_a_string_names_the_problem():
    with pytest.raises(TypeError, match="real number"):
        Value(1.0) - "2"


def test_the_errors_leave_no_half_built_node():
    x = Value(math.e)
    y = x.log()
    assert y.data == 1.0
