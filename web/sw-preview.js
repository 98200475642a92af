// The service worker of a preview (`nox -s serve`, i.e. `mkdocs serve`), served as sw.js in
// place of web/sw.js: no offline copy, so every reload shows the latest build. It takes over
// from a course worker a built site left in this browser on the same address, deletes that
// worker's cache and leaves every request to the network (the preview server sets the
// isolation headers itself).

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("course-")) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});
