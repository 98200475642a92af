// What an explorer shows right now, as plain data for other parts of the page (the guided
// tasks): the expression, the variables, every node's value and gradient, and whether the
// learner can see each gradient yet.

/**
 * @param result  explore()'s reply the explorer is drawing
 * @param view    the view drawn (derived or primitive)
 * @param snap    timeline.snapshot() of what is revealed
 * @returns {{expression: string, values: Object<string, number>, output: object,
 *            nodes: Array<{label, kind, value, grad, shown}>, gradsShown: boolean}}
 *   `gradsShown`: every gradient is on screen (the backward pass played to its end, or
 *   "Final gradients" on). The numbers are the engine's even where not shown yet.
 */
export function graphState(result, view, snap) {
  const nodes = view.nodes.map((n) => ({
    label: n.label,
    kind: n.kind,
    value: n.data,
    grad: n.grad,
    shown: snap.reached.has(n.id),
  }));
  return {
    expression: result.expression,
    values: Object.fromEntries(result.variables.map((v) => [v.name, v.value])),
    output: nodes[nodes.length - 1], // each node comes after its inputs: the root is last
    nodes,
    gradsShown: nodes.every((n) => n.shown),
  };
}
