// The range of a variable's slider. A range input snaps its value to min + k·step, so a
// slider that starts at a lesson's 0.25 on a 0.1 grid would sit at 0.3 while the graph
// computes with 0.25. Each slider gets the coarsest grid its start value lies on.

const RANGE = { min: -10, max: 10 };
const STEPS = [0.1, 0.05, 0.01, 0.005, 0.001];

function onGrid(value, step) {
  const k = value / step;
  return Math.abs(k - Math.round(k)) < 1e-9 * Math.max(1, Math.abs(k));
}

/** min, max and step (as attribute strings) for a slider that starts at `value`. */
export function sliderRange(value) {
  // Start the grid at the start value when it lies outside the usual range.
  const min = Math.min(RANGE.min, value);
  const step = STEPS.find((s) => onGrid(value - min, s)) ?? STEPS[STEPS.length - 1];
  return { min: String(min), max: String(Math.max(RANGE.max, value)), step: String(step) };
}
