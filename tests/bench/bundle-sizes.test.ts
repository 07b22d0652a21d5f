import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryPoints, fileSizes, htmlScripts, jsImports, resolveInExtension } from "./bundle-sizes";

describe("htmlScripts", () => {
  it("takes module scripts and modulepreload links, not stylesheets", () => {
    const html = `<script type="module" crossorigin src="/chunks/options-D3.js"></script>
      <link rel="modulepreload" crossorigin href="/chunks/mount-DA.js">
      <link rel="stylesheet" crossorigin href="/assets/mount.css">`;
    expect(htmlScripts(html)).toEqual(["/chunks/options-D3.js", "/chunks/mount-DA.js"]);
  });
});

describe("jsImports", () => {
  it("reads minified static imports, bare imports, re-exports and dynamic imports", () => {
    const code =
      'import{C as e,E as t}from"./mount-B.js";import"./side.js";export{a}from"./re.js";const x=()=>import("./lazy.js");import*as n from"./all.js";';
    expect(jsImports(code)).toEqual([
      "./mount-B.js",
      "./side.js",
      "./re.js",
      "./lazy.js",
      "./all.js",
    ]);
  });

  it("finds nothing in a classic script", () => {
    expect(jsImports('(function(){var important="from";console.log(important)})();')).toEqual([]);
  });
});

describe("resolveInExtension", () => {
  it("resolves root-relative and file-relative specifiers to paths in the build", () => {
    expect(resolveInExtension("options.html", "/chunks/a.js")).toBe("chunks/a.js");
    expect(resolveInExtension("chunks/b.js", "./a.js")).toBe("chunks/a.js");
    expect(resolveInExtension("content-scripts/x.js", "../chunks/a.js")).toBe("chunks/a.js");
  });
});

describe("entryPoints and fileSizes", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "bundle-sizes-"));
    await mkdir(join(dir, "chunks"));
    await mkdir(join(dir, "content-scripts"));
    const files: Record<string, string> = {
      "manifest.json": JSON.stringify({
        background: { scripts: ["background.js"] },
        content_scripts: [{ js: ["content-scripts/hook.js"] }],
      }),
      "background.js": "console.log(1)",
      "content-scripts/hook.js": "(()=>{})()",
      "popup.html": '<script type="module" src="/chunks/popup.js"></script>',
      "chunks/popup.js": 'import{a}from"./mount.js";import"./mount.js";',
      "chunks/mount.js": 'export const a=1;const l=()=>import("./lazy.js");',
      "chunks/lazy.js": "export default 2;",
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("lists content scripts, background scripts and pages with the JS each loads, once each", async () => {
    expect(await entryPoints(dir)).toEqual([
      { name: "content-scripts/hook.js", files: ["content-scripts/hook.js"] },
      { name: "background.js", files: ["background.js"] },
      { name: "popup.html", files: ["chunks/popup.js", "chunks/mount.js", "chunks/lazy.js"] },
    ]);
  });

  it("measures raw and gzip bytes of each file", async () => {
    const content = 'export const a=1;const l=()=>import("./lazy.js");';
    expect(await fileSizes(dir, ["chunks/mount.js"])).toEqual([
      { bytes: content.length, gzip: gzipSync(content, { level: 9 }).byteLength },
    ]);
  });
});
