"""Day 29 · Making it fast: an iterative topological sort and a backward pass over data.

Lesson: docs/lessons/day29_making_it_fast.md

The engine's Value keeps, for every node, its children (`_children`, a tuple) and the
derivative of the node with respect to each child (`_local_grads`, a tuple of floats,
in the same order). Write the backward pass over that data, without recursion:

  topological_order(root)   every Value the root depends on, each one after all of
                            its children, the root last, each Value once. No recursion:
                            keep your own stack in a list, so graphs of any depth work.
  backward(root)            zero the .grad of every node that has children, add 1.0 to
                            root.grad, then walk the order from the root down and give each
                            child  local_grad * node.grad  (with +=). Leaves accumulate,
                            like engine's own backward().

Check your work:  python -m grader --exercise day29_making_it_fast.py
"""

from engine import Value


def topological_order(root):
    """Every Value `root` depends on, each after its children, `root` last."""
    order, seen = [], set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))  # come back to place it once its children are placed
            for child in node._children:
                if child not in seen:
                    stack.append((child, False))
    return order


def backward(root):
    """Fill .grad of every Value `root` depends on with d(root)/d(that Value)."""
    order = topological_order(root)
    for node in order:
        if node._children:
            node.grad = 0.0
    root.grad += 1.0
    for node in reversed(order):
        for child, local in zip(node._children, node._local_grads):
            child.grad += local * node.grad


if __name__ == "__main__":
    a, b = Value(2.0), Value(3.0)
    d = a * b + a
    backward(d)
    print("a.grad =", a.grad, "(expect 4.0), b.grad =", b.grad, "(expect 2.0)")
    x = Value(0.5)
    total = x
    for _ in range(5000):  # far deeper than Python's recursion limit
        total = total + x * 0.001
    backward(total)
    print("deep chain: x.grad =", round(x.grad, 6), "(expect 6.0)")
