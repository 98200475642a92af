// What esbuild gives the runtime beyond JavaScript: a .py file imported as its text (web/build.mjs).
declare module "*.py" {
  const source: string;
  export default source;
}
