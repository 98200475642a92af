// The explorer's graph in 3-D (three.js): the 2-D layout bent onto a gentle arc, cards as
// sprites that always face the camera, arrows as tubes, pulses that run along them.
// Loaded only when a reader turns the 3-D view on (web/explorer/view3d.js imports it
// dynamically, so it is a chunk of its own). Draws on demand: after a change, a turn, or
// while a pulse runs; never in an idle loop.

import {
  CanvasTexture,
  ConeGeometry,
  CubicBezierCurve3,
  CurvePath,
  LineCurve3,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Scene,
  SphereGeometry,
  Sprite,
  SpriteMaterial,
  SRGBColorSpace,
  TubeGeometry,
  Vector3,
  WebGLRenderer,
  Color,
  Group,
} from "three";
import { paintCard, paintLabel, SCALE } from "./sprites3d.js";

const FOV = 35; // degrees, vertical: little perspective distortion of the text
const PULSE_MS = 800; // as long as the 2-D pulse
const ARC = 1.1; // radius of the arc as a fraction of the graph's width: the ends recede a little
const TUBE = { thin: 1.4, thick: 2.6 };
const UP = new Vector3(0, 1, 0);

/** The camera's offset from the point it looks at, `distance` away, at these angles (degrees). */
function cameraOffset({ azimuth, elevation }, distance) {
  const az = (azimuth * Math.PI) / 180;
  const el = (elevation * Math.PI) / 180;
  return {
    x: distance * Math.sin(az) * Math.cos(el),
    y: distance * Math.sin(el),
    z: distance * Math.cos(az) * Math.cos(el),
  };
}

/** Draw order: arrows (depth-tested), then their labels, then the cards over both. */
const LAYER = { label: 1, card: 2 };

/** A sprite showing a canvas of w×h layout pixels (a texture keeps its first size). */
function texturedSprite(layer, w = 1, h = 1) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w * SCALE);
  canvas.height = Math.round(h * SCALE);
  const texture = new CanvasTexture(canvas);
  texture.colorSpace = SRGBColorSpace;
  const material = new SpriteMaterial({
    map: texture,
    depthTest: false,
    depthWrite: false,
    transparent: true,
  });
  const sprite = new Sprite(material);
  sprite.renderOrder = layer;
  return { sprite, canvas, texture, key: "" };
}

export class GraphScene {
  /** @param canvas  the <canvas> to draw on; throws if WebGL 2 cannot start on it */
  constructor(canvas) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true, powerPreference: "low-power" });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene = new Scene();
    this.camera = new PerspectiveCamera(FOV, 1, 1, 100000);
    this.angles = { azimuth: 0, elevation: 0 };
    this.graph = null;
    this.pulses = [];
    this.frame = 0;
    this.size = { width: 1, height: 1 };
  }

  /** Bend layout point (x, y) onto the arc: the middle column nearest, the ends further. */
  place(x, y) {
    const { cx, cy, radius } = this.frameOf;
    const angle = (x - cx) / radius;
    return new Vector3(radius * Math.sin(angle), cy - y, -radius * (1 - Math.cos(angle)));
  }

  /** A new graph (or a new layout of it): meshes for its arrows, sprites for its cards. */
  setGraph(view, geometry) {
    this.clear();
    this.geometry = geometry;
    const radius = Math.max(geometry.width, 400) * ARC;
    this.frameOf = { cx: geometry.width / 2, cy: geometry.height / 2, radius };
    const group = new Group();
    this.cards = new Map();
    this.arrows = new Map();
    for (const n of view.nodes) {
      const box = geometry.nodes.get(n.id);
      const card = texturedSprite(LAYER.card, box.w, box.h);
      card.sprite.position.copy(this.place(box.x + box.w / 2, box.y + box.h / 2));
      card.sprite.scale.set(box.w, box.h, 1);
      card.box = box;
      group.add(card.sprite);
      this.cards.set(n.id, card);
    }
    for (const e of view.edges) {
      const path = this.curve(geometry.edges.get(e.id).points);
      const material = new MeshBasicMaterial();
      const thin = new Mesh(new TubeGeometry(path, 20 * path.curves.length, TUBE.thin, 6), material);
      const thick = new Mesh(new TubeGeometry(path, 20 * path.curves.length, TUBE.thick, 8), material);
      const head = new Mesh(new ConeGeometry(5, 12, 12), material);
      const tangent = path.getTangentAt(1);
      head.quaternion.setFromUnitVectors(UP, tangent);
      head.position.copy(path.getPointAt(1)).addScaledVector(tangent, -6);
      const label = texturedSprite(LAYER.label);
      const points = geometry.edges.get(e.id).points;
      const [a, b] = points.slice(-2);
      // As in 2-D: halfway along the last stretch, slot 0 above the arrow, slot 1 below.
      label.anchor = this.place((a.x + b.x) / 2, (a.y + b.y) / 2 + (e.slot === 0 ? -9 : 11));
      label.sprite.position.copy(label.anchor);
      group.add(thin, thick, head, label.sprite);
      this.arrows.set(e.id, { path, material, thin, thick, head, label });
    }
    this.scene.add(group);
    this.graph = group;
    this.fit(geometry);
  }

  /** The arrow through the layout's points, bent like the 2-D path (level ends, S-curves). */
  curve(points) {
    const path = new CurvePath();
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1];
      const b = points[i];
      if (Math.abs(a.y - b.y) < 0.5) {
        path.add(new LineCurve3(this.place(a.x, a.y), this.place(b.x, b.y)));
      } else {
        const dx = (b.x - a.x) / 2;
        path.add(
          new CubicBezierCurve3(
            this.place(a.x, a.y),
            this.place(a.x + dx, a.y),
            this.place(b.x - dx, b.y),
            this.place(b.x, b.y),
          ),
        );
      }
    }
    return path;
  }

  /** Aim the camera so the whole graph fits the canvas from any allowed angle. */
  fit(geometry) {
    const halfWidth = Math.max(
      ...[...this.cards.values()].map((c) => Math.abs(c.sprite.position.x) + c.box.w / 2),
    );
    const halfHeight = geometry.height / 2;
    const depth = Math.min(...[...this.cards.values()].map((c) => c.sprite.position.z));
    const tan = Math.tan(((FOV / 2) * Math.PI) / 180);
    const aspect = this.size.width / this.size.height;
    const distance = Math.max(halfHeight / tan, halfWidth / (tan * aspect)) * 1.06;
    this.target = new Vector3(0, 0, depth / 2);
    this.distance = distance - depth / 2; // from the pivot: the front of the arc stays at `distance`
    this.aim();
  }

  aim() {
    if (!this.target) return;
    const o = cameraOffset(this.angles, this.distance);
    this.camera.position.set(this.target.x + o.x, this.target.y + o.y, this.target.z + o.z);
    this.camera.lookAt(this.target);
  }

  /**
   * The state of one step (faces3d.js says what each card and label reads): card faces,
   * arrow colours and labels, and a pulse along each active arrow when `animate`.
   * Returns how many pulses started.
   */
  update({ cards, arrows }, { backward, animate, theme }) {
    if (!this.graph) return 0;
    this.renderer.setClearColor(new Color(theme.bg));
    for (const [id, face] of cards) {
      const card = this.cards.get(id);
      const key = JSON.stringify(face) + theme.key;
      if (key === card.key) continue;
      card.key = key;
      paintCard(card.canvas, face, card.box.w, card.box.h, theme);
      card.texture.needsUpdate = true;
    }
    for (const [id, face] of arrows) {
      const arrow = this.arrows.get(id);
      arrow.material.color.set(face.sent || face.active ? theme.accent : theme.fgLighter);
      arrow.thin.visible = !face.active;
      arrow.thick.visible = face.active;
      const label = arrow.label;
      label.sprite.visible = Boolean(face.words);
      const key = `${face.words}|${face.sent}|${theme.key}`;
      if (face.words && key !== label.key) {
        label.key = key;
        const { w, h } = paintLabel(label.canvas, face.words, face.sent, theme);
        label.sprite.scale.set(w, h, 1);
        label.texture.dispose(); // the canvas changed size: a new texture of the new size
        label.texture = new CanvasTexture(label.canvas);
        label.texture.colorSpace = SRGBColorSpace;
        label.sprite.material.map = label.texture;
        label.sprite.material.needsUpdate = true;
      }
    }
    this.stopPulses();
    if (animate) {
      for (const [id, face] of arrows) if (face.active) this.startPulse(this.arrows.get(id), backward, theme);
    }
    this.draw();
    return this.pulses.length;
  }

  startPulse(arrow, backward, theme) {
    const dot = new Mesh(
      new SphereGeometry(5, 16, 12),
      new MeshBasicMaterial({ color: new Color(theme.accent) }),
    );
    dot.position.copy(arrow.path.getPointAt(backward ? 1 : 0));
    this.scene.add(dot);
    this.pulses.push({ dot, path: arrow.path, backward, start: performance.now() });
    if (!this.frame) this.frame = requestAnimationFrame(() => this.tick());
  }

  tick() {
    this.frame = 0;
    const now = performance.now();
    for (const p of this.pulses) {
      const t = Math.min(1, (now - p.start) / PULSE_MS);
      p.dot.position.copy(p.path.getPointAt(p.backward ? 1 - t : t));
      p.done = t >= 1;
    }
    const running = this.pulses.some((p) => !p.done);
    if (!running) this.stopPulses(); // arrived: the card it reached now shows the news
    this.draw();
    if (running) this.frame = requestAnimationFrame(() => this.tick());
  }

  stopPulses() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const p of this.pulses) {
      this.scene.remove(p.dot);
      p.dot.geometry.dispose();
      p.dot.material.dispose();
    }
    this.pulses = [];
  }

  turnTo(angles) {
    this.angles = { ...angles };
    this.aim();
    this.draw();
  }

  resize(width, height) {
    this.size = { width: Math.max(1, width), height: Math.max(1, height) };
    this.renderer.setSize(this.size.width, this.size.height, false);
    this.camera.aspect = this.size.width / this.size.height;
    this.camera.updateProjectionMatrix();
    if (this.graph) this.fit(this.geometry);
    this.draw();
  }

  draw() {
    this.renderer.render(this.scene, this.camera);
  }

  /** Drop the graph's meshes and textures (the renderer stays). */
  clear() {
    this.stopPulses();
    if (!this.graph) return;
    this.graph.traverse((object) => {
      object.geometry?.dispose();
      object.material?.map?.dispose();
      object.material?.dispose();
    });
    this.scene.remove(this.graph);
    this.graph = null;
    this.target = null;
  }

  /** Everything, the WebGL context too: a page may only hold a few at once. */
  dispose() {
    this.clear();
    this.renderer.dispose();
    try {
      this.renderer.forceContextLoss();
    } catch {
      // already lost (the browser took it back): nothing left to free
    }
  }
}

export { readTheme } from "./sprites3d.js";
