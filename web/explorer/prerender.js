// The first graph of an explorer, computed when the site was built.
//
// hooks/explorer_fence.py runs `explorer.explore(expression, values)` in the build's
// CPython (the same engine the worker runs) and embeds its JSON in the block's
// data-explorer-trace attribute. The page
// draws it at once instead of waiting seconds for Python to boot; the live reply
// replaces it when Python is ready.

function sameValues(variables, start) {
  // The live explorer starts a variable at `start[name]` if given; the build used the
  // fence's values. A wrapping block with other values makes the two differ: then the
  // embedded graph is not the one Python will draw, and it is left out.
  return variables.every(({ name, value }) => !(name in start) || start[name] === value);
}

/**
 * The embedded result of explore() for this explorer, or null when there is none or it
 * does not match the start values the live explorer will ask Python for.
 * @param root   the [data-explorer] element, before it is emptied
 * @param start  its start values (startValues(root))
 */
export function takePrerendered(root, start) {
  const text = root.dataset.explorerTrace;
  if (!text) return null;
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    return null;
  }
  if (!result?.ok) return null;
  return sameValues(result.variables, start) ? result : null;
}
