import { readdir, readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { builtExtension } from "../e2e/support/builds";
import type { BrowserBench, Section } from "./bench";

/** `src` of module scripts and `href` of modulepreload links: the JS a page loads up front. */
export function htmlScripts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith("<script");
    if (!isScript && !/\brel=["']?modulepreload/.test(tag)) continue;
    const url = /\b(?:src|href)=["']([^"']+)["']/.exec(tag)?.[1];
    if (url) found.push(url);
  }
  return found;
}

/** Specifiers of static imports, re-exports and dynamic imports in (minified) ES module code. */
export function jsImports(code: string): string[] {
  const pattern =
    /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  return [...code.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? "");
}

/** A specifier as a path inside the extension: "/chunks/a.js" or "./a.js" seen from chunks/b.js. */
export function resolveInExtension(fromFile: string, specifier: string): string {
  return new URL(specifier, `https://extension.invalid/${fromFile}`).pathname.slice(1);
}

export interface EntryPoint {
  name: string;
  /** The entry's own file first, then every JS file it loads, once each. */
  files: string[];
}

/** Content scripts, the background and every HTML page of a built extension, with their JS. */
export async function entryPoints(dir: string): Promise<EntryPoint[]> {
  const manifest = JSON.parse(await readFile(`${dir}/manifest.json`, "utf8")) as {
    content_scripts?: { js?: string[] }[];
    background?: { service_worker?: string; scripts?: string[] };
  };
  const closure = async (roots: string[]) => {
    const files: string[] = [];
    const queue = [...roots];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (files.includes(file) || !file.endsWith(".js")) continue;
      files.push(file);
      const code = await readFile(`${dir}/${file}`, "utf8");
      queue.push(...jsImports(code).map((specifier) => resolveInExtension(file, specifier)));
    }
    return files;
  };
  const entries: EntryPoint[] = [];
  for (const file of (manifest.content_scripts ?? []).flatMap((script) => script.js ?? [])) {
    entries.push({ name: file, files: await closure([file]) });
  }
  const background = manifest.background?.service_worker ?? manifest.background?.scripts ?? [];
  for (const file of [background].flat())
    entries.push({ name: file, files: await closure([file]) });
  const pages = (await readdir(dir)).filter((name) => name.endsWith(".html")).sort();
  for (const page of pages) {
    const html = await readFile(`${dir}/${page}`, "utf8");
    const roots = htmlScripts(html).map((url) => resolveInExtension(page, url));
    entries.push({ name: page, files: await closure(roots) });
  }
  return entries;
}

export interface Size {
  bytes: number;
  gzip: number;
}

/** Raw and gzip (level 9) bytes of each file. */
export async function fileSizes(dir: string, files: readonly string[]): Promise<Size[]> {
  return Promise.all(
    files.map(async (file) => {
      const content = await readFile(`${dir}/${file}`);
      return { bytes: content.byteLength, gzip: gzipSync(content, { level: 9 }).byteLength };
    }),
  );
}

const HOOK = "content-scripts/hook.js";
/** The hook's MCP half: run in a page's world only once the page makes an MCP request. */
const MCP_HOOK = "mcp-hook.js";
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function sizeSection(target: "chrome-mv3" | "firefox-mv3"): Promise<Section> {
  const dir = builtExtension(target);
  const entries = await entryPoints(dir);
  const total = (sizes: Size[]) =>
    sizes.reduce((sum, size) => ({ bytes: sum.bytes + size.bytes, gzip: sum.gzip + size.gzip }), {
      bytes: 0,
      gzip: 0,
    });
  const rows: string[][] = [];
  for (const entry of entries) {
    const size = total(await fileSizes(dir, entry.files));
    rows.push([
      entry.name,
      String(entry.files.length),
      String(size.bytes),
      String(size.gzip),
      kb(size.gzip),
    ]);
  }
  const allJs = [...new Set(entries.flatMap((entry) => entry.files))];
  const everything = total(await fileSizes(dir, allJs));
  const [hook] = await fileSizes(dir, [HOOK]);
  const [mcpHook] = await fileSizes(dir, [MCP_HOOK]).catch(() => []);
  const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  return {
    kind: "table",
    title: `.output/${target}`,
    header: ["entry point", "js files", "bytes", "gzip bytes", "gzip"],
    rows,
    notes: [
      `all JS: ${allJs.length} files, ${everything.bytes} bytes, ${everything.gzip} gzip bytes`,
      hook
        ? `page hook (${HOOK}, injected into every page): ${hook.bytes} bytes, ${hook.gzip} gzip = ${share(hook.bytes, everything.bytes)} of all JS bytes, ${share(hook.gzip, everything.gzip)} gzipped`
        : `no ${HOOK} in this build`,
      mcpHook
        ? `MCP hook (${MCP_HOOK}, injected on a page's first MCP request): ${mcpHook.bytes} bytes, ${mcpHook.gzip} gzip`
        : `no ${MCP_HOOK} in this build`,
    ],
  };
}

/** What each entry point of both builds weighs, and the page hook's share of it. */
export const bundleSizesBench: BrowserBench = {
  title: "Bundle sizes of the built extension (JS of each entry point incl. the chunks it loads)",
  run: async () => [await sizeSection("chrome-mv3"), await sizeSection("firefox-mv3")],
};
