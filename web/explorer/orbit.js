// The 3-D view's camera angles: it turns only a little around the graph, so the cards
// never go edge-on or behind each other. Pure: angles in, clamped angles out.

/** Limits in degrees; a drag or a key press never goes past them (no free spin). */
export const ORBIT = {
  azimuth: 35, // left and right of straight on
  elevation: 20, // above and below
  keyStep: 5, // one arrow key press
  dragPerPixel: 0.25, // a drag across 140 px turns it to the limit
};

const clamp = (x, limit) => Math.max(-limit, Math.min(limit, x));

/** The angles after turning by (dAzimuth, dElevation) degrees, kept inside the limits. */
export function turn({ azimuth, elevation }, dAzimuth, dElevation, limits = ORBIT) {
  return {
    azimuth: clamp(azimuth + dAzimuth, limits.azimuth),
    elevation: clamp(elevation + dElevation, limits.elevation),
  };
}

/**
 * The turn an arrow key asks for, or null for any other key. The graph turns the way the
 * arrow points, as when dragged that way: → brings its left side forward, so the camera
 * swings left (azimuth down); ↑ brings its bottom forward (the camera goes below).
 */
export function keyTurn(key, step = ORBIT.keyStep) {
  const turns = {
    ArrowLeft: [step, 0],
    ArrowRight: [-step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  return turns[key] ?? null;
}

/** The turn a pointer drag of (dx, dy) pixels asks for: the same sense as the arrow keys. */
export function dragTurn(dx, dy, perPixel = ORBIT.dragPerPixel) {
  return [-dx * perPixel, dy * perPixel];
}
