import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/**
 * Builds the floor extension into a fresh directory: the wallet's hook bridge, relay and page
 * port around a worker that does only what every automatic payment needs (floor-worker.ts).
 */
export async function buildFloorExtension(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "stipendex-floor-"));
  const scripts = { hook: "floor-hook.ts", relay: "floor-relay.ts", worker: "floor-worker.ts" };
  await Promise.all(
    Object.entries(scripts).map(([name, source]) =>
      build({
        entryPoints: [join(import.meta.dirname, source)],
        outfile: join(dir, `${name}.js`),
        bundle: true,
        minify: true,
        format: "iife",
        platform: "browser",
        target: "es2022",
        logLevel: "warning",
      }),
    ),
  );
  const pages = ["http://127.0.0.1/*"];
  const manifest = {
    manifest_version: 3,
    name: "Stipendex floor",
    version: "0.0.1",
    background: { service_worker: "worker.js" },
    content_scripts: [
      { matches: pages, js: ["hook.js"], world: "MAIN", run_at: "document_start" },
      { matches: pages, js: ["relay.js"], run_at: "document_start" },
    ],
  };
  await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}
