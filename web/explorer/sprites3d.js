// The 3-D view's cards and arrow labels, painted on 2-D canvases that become textures. The
// words come ready from faces3d.js; the colours are the page's (Material's variables), read
// again on each draw so both palettes work.

export const SCALE = 3; // texture pixels per layout pixel: sharp when the camera comes close

/** Opaque "rgb(r, g, b)" strings for the page's colours, each composited on the background. */
export function readTheme(element) {
  const style = getComputedStyle(element);
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const probe = document.createElement("canvas");
  probe.width = probe.height = 1;
  const ctx = probe.getContext("2d", { willReadFrequently: true });
  const over = (colour, under) => {
    ctx.globalCompositeOperation = "copy";
    ctx.fillStyle = under;
    ctx.fillRect(0, 0, 1, 1);
    ctx.globalCompositeOperation = "source-over";
    ctx.fillStyle = "#888"; // an unparsable colour leaves this grey, never a blank
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return `rgb(${r}, ${g}, ${b})`;
  };
  const bg = over(read("--md-default-bg-color", "#fff"), "#fff");
  const theme = {
    bg,
    fg: over(read("--md-default-fg-color", "rgba(0, 0, 0, 0.87)"), bg),
    fgLight: over(read("--md-default-fg-color--light", "rgba(0, 0, 0, 0.54)"), bg),
    fgLighter: over(read("--md-default-fg-color--lighter", "rgba(0, 0, 0, 0.32)"), bg),
    accent: over(read("--md-accent-fg-color", "#526cfe"), bg),
    primary: over(read("--md-primary-fg-color", "#4051b5"), bg),
    font: read("--md-code-font-family", "monospace"),
  };
  theme.key = Object.values(theme).join("|");
  return theme;
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** Paint a card `w`×`h` layout pixels on `canvas` (resized to fit), as the 2-D card looks. */
export function paintCard(canvas, face, w, h, theme) {
  canvas.width = Math.round(w * SCALE);
  canvas.height = Math.round(h * SCALE);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  ctx.clearRect(0, 0, w, h);
  let stroke = theme.fgLighter;
  let width = 1.2;
  if (face.kind === "variable") stroke = theme.primary;
  if (face.derived) [stroke, width] = [theme.accent, 1.6];
  if (face.active) [stroke, width] = [theme.accent, 3];
  roundRect(ctx, width / 2, width / 2, w - width, h - width, 8);
  ctx.fillStyle = theme.bg;
  ctx.fill();
  ctx.setLineDash(face.kind === "constant" ? [4, 3] : []);
  ctx.lineWidth = width;
  ctx.strokeStyle = stroke;
  ctx.stroke();
  ctx.setLineDash([]);
  const text = (
    words,
    x,
    y,
    { size = 12, weight = 400, style = "", colour = theme.fg, align = "left" } = {},
  ) => {
    ctx.font = `${style} ${weight} ${size}px ${theme.font}`;
    ctx.fillStyle = colour;
    ctx.textAlign = align;
    ctx.fillText(words, x, y);
  };
  text(face.label, 10, 19, { size: 13, weight: 700 });
  text(face.op, w - 10, 19, { colour: theme.fgLight, align: "right" });
  if (face.tag)
    text(face.tag, w - 10, 34, { size: 10, style: "italic", colour: theme.fgLight, align: "right" });
  text(face.value, 10, 47, { colour: face.valued ? theme.fg : theme.fgLighter });
  text(face.grad, 10, 65, {
    weight: face.reached ? 700 : 400,
    colour: face.reached ? theme.accent : theme.fgLighter,
  });
}

/**
 * Paint an arrow's label (its local derivative, or the chain rule once sent) on a halo of
 * the background, like the 2-D label; returns its size in layout pixels.
 */
export function paintLabel(canvas, words, strong, theme) {
  const size = 11;
  const font = `${strong ? 700 : 400} ${size}px ${theme.font}`;
  const measure = canvas.getContext("2d");
  measure.font = font;
  const w = Math.ceil(measure.measureText(words).width) + 8;
  const h = size + 8;
  canvas.width = Math.round(w * SCALE);
  canvas.height = Math.round(h * SCALE);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.font = font;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  ctx.lineWidth = 4;
  ctx.strokeStyle = theme.bg;
  ctx.strokeText(words, w / 2, h / 2);
  ctx.fillStyle = strong ? theme.fg : theme.fgLight;
  ctx.fillText(words, w / 2, h / 2);
  return { w, h };
}
