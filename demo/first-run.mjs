// What `npm start` and `npm test` check before anything else, so either works
// as the first command on a fresh clone. Plain Node with no dependency: it runs
// before they are installed.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Where the end-to-end tests look for the browsers (tests/e2e/support/chromium.ts, firefox.ts). */
export const BROWSERS = [
  { pkg: "chromium", path: "/usr/lib/chromium/chromium" },
  { pkg: "firefox-esr", path: "/usr/bin/firefox-esr" },
];

/**
 * Whether `npm ci` is needed: no dependencies installed, or a lockfile newer
 * than what npm last installed from it (npm's own hidden lockfile).
 */
export function dependenciesStale(root) {
  const installed = mtime(join(root, "node_modules", ".package-lock.json"));
  const wanted = mtime(join(root, "package-lock.json"));
  return installed === undefined || (wanted !== undefined && wanted > installed);
}

/** The Debian packages of the browsers this machine lacks. */
export function missingBrowsers(browsers = BROWSERS) {
  return browsers.filter(({ path }) => !executable(path)).map(({ pkg }) => pkg);
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function main(purpose) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  if (dependenciesStale(root)) {
    console.log("Installing the dependencies (npm ci)…");
    run("npm", ["ci", "--no-audit", "--no-fund"]);
  }
  if (purpose !== "test") return;
  const missing = missingBrowsers();
  if (missing.length === 0) return;
  const canInstall = process.getuid?.() === 0 && executable("/usr/bin/apt-get");
  if (!canInstall) {
    console.error(
      `The end-to-end tests need ${missing.join(" and ")}: install with \`sudo apt-get install -y ${missing.join(" ")}\`, then run npm test again.`,
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(" and ")} for the end-to-end tests (apt-get)…`);
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", ...missing]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv[2]);
}
