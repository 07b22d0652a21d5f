import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const PAGES = ["confirm", "popup", "options"].map((page) => `entrypoints/${page}/main.tsx`);

/** Specifiers a module loads at run time: type-only imports and re-exports are left out. */
function runtimeSpecifiers(code: string): string[] {
  const found: string[] = [];
  const statement = /\b(import|export)\s+(?:([^"';]*?)\s+from\s+)?["']([^"']+)["']/g;
  for (const [, , clause = "", specifier = ""] of code.matchAll(statement)) {
    const trimmed = clause.trim();
    if (trimmed.startsWith("type ")) continue;
    const named = /^\{([^}]*)\}$/.exec(trimmed)?.[1];
    const names = named
      ?.split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    if (names && names.length > 0 && names.every((name) => name.startsWith("type "))) continue;
    found.push(specifier);
  }
  for (const [, specifier = ""] of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
    found.push(specifier);
  }
  return found;
}

/** The project root's aliases (.wxt/tsconfig.json paths). */
const ROOT_ALIASES = ["@/", "~/", "@@/", "~~/"];

/** A project path for `specifier` seen from `file`, or undefined for a package. */
function projectFile(file: string, specifier: string): string | undefined {
  const alias = ROOT_ALIASES.find((prefix) => specifier.startsWith(prefix));
  const base = alias
    ? join(ROOT, specifier.slice(alias.length))
    : specifier === "#i18n"
      ? join(ROOT, ".wxt/i18n/index")
      : specifier.startsWith(".")
        ? resolve(dirname(file), specifier)
        : undefined;
  if (base === undefined) return undefined;
  const candidates = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((end) => base + end);
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  if (!found) throw new Error(`${relative(ROOT, file)}: cannot resolve ${specifier}`);
  return found;
}

/** The packages a page's code loads, through every project module it imports. */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [join(ROOT, entry)];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file) || !/\.tsx?$/.test(file)) continue;
    seen.add(file);
    for (const specifier of runtimeSpecifiers(readFileSync(file, "utf8"))) {
      const path = projectFile(file, specifier);
      if (path) queue.push(path);
      else
        packages.add(
          specifier.startsWith("@")
            ? specifier.split("/").slice(0, 2).join("/")
            : (specifier.split("/")[0] ?? specifier),
        );
    }
  }
  return packages;
}

describe("what the wallet's pages load", () => {
  // The confirmation window must be ready to click fast: zod (about 90 KB, and its schemas
  // built as the modules load) belongs to the background, which checks every message.
  it.each(PAGES)("%s loads React and no zod", (entry) => {
    const packages = packagesLoadedBy(entry);
    expect(packages).toContain("react");
    expect(packages).not.toContain("zod");
  });

  it("follows the root aliases and #i18n, and takes no folder for a module", () => {
    const from = join(ROOT, "entrypoints/confirm/main.tsx");
    for (const alias of ROOT_ALIASES) {
      expect(projectFile(from, `${alias}lib/ui/mount`)).toBe(join(ROOT, "lib/ui/mount.tsx"));
    }
    expect(projectFile(from, "#i18n")).toBe(join(ROOT, ".wxt/i18n/index.ts"));
    // A folder without an index is no module: the walk says so rather than skip it.
    expect(() => projectFile(join(ROOT, "lib/ui/mount.tsx"), "../protocol/envelope")).toThrow(
      "cannot resolve",
    );
    expect(projectFile(from, "react-dom/client")).toBeUndefined();
  });

  it("reads value imports and leaves type-only ones out", () => {
    const code = [
      'import type { A } from "./types";',
      'import { type B, type C } from "./more-types";',
      'import { type D, e } from "./mixed";',
      'import {\n  f,\n  g,\n} from "./multi-line";',
      'import "./side-effect";',
      'export { h } from "./re-export";',
      'const lazy = import("./lazy");',
    ].join("\n");
    expect(runtimeSpecifiers(code)).toEqual([
      "./mixed",
      "./multi-line",
      "./side-effect",
      "./re-export",
      "./lazy",
    ]);
  });
});
