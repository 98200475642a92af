"""The seeds' worked examples, exactly as the lessons state them."""

from engine import Value


def test_L_of_a_b_c_f_and_one_step():
    a, b, c, f = Value(2.0), Value(-3.0), Value(10.0), Value(-2.0)
    e = a * b
    d = e + c
    L = d * f
    assert L.data == -8.0
    L.backward()
    assert (a.grad, b.grad, c.grad, f.grad) == (6.0, -4.0, -2.0, 4.0)
    assert (e.grad, d.grad) == (-2.0, -2.0)
    for x in (a, b, c, f):
        x.data += 0.01 * x.grad
    L = (a * b + c) * f
    assert round(L.data, 6) == -7.286496


def test_reused_input_accumulates():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    d = c + a
    d.backward()
    assert (a.grad, b.grad, c.grad) == (4.0, 2.0, 1.0)


def test_a_plus_a():
    a = Value(3.0)
    L = a + a
    L.backward()
    assert a.grad == 2.0


def test_product_sends_each_side_the_other():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    s = a + b
    L = s * c
    L.backward()
    assert s.data == -1.0
    assert s.grad == 10.0  # 1 x c
    assert c.grad == -1.0  # 1 x (a + b)
