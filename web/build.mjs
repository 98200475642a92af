// Bundle the browser runtime with esbuild: `node web/build.mjs <outdir>`.
// course.js (page), worker.js (module worker) and course.css land in <outdir>; what a page
// imports only on demand (the explorer's 3-D view, three.js) in <outdir>/chunks/.

import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(process.argv[2] ?? path.join(here, "..", "site", "assets", "course"));

await build({
  entryPoints: {
    course: path.join(here, "main.js"),
    worker: path.join(here, "worker.js"),
    "course-style": path.join(here, "course.css"),
  },
  outdir,
  bundle: true,
  format: "esm",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  target: ["es2022"],
  minify: true,
  sourcemap: false,
  legalComments: "eof",
  charset: "utf8", // module scripts are always UTF-8: the messages of ru/ and et/ as they are, not \u escapes
  loader: { ".py": "text" },
  logLevel: "warning",
});
console.log(`runtime bundled into ${outdir}`);
