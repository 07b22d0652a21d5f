import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dependenciesStale, missingBrowsers } from "./first-run.mjs";

describe("first run", () => {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function project(installedAt?: number, lockedAt = 1_000) {
    const root = await mkdtemp(join(tmpdir(), "first-run-"));
    made.push(root);
    await writeFile(join(root, "package-lock.json"), "{}");
    await utimes(join(root, "package-lock.json"), lockedAt, lockedAt);
    if (installedAt !== undefined) {
      await mkdir(join(root, "node_modules"));
      await writeFile(join(root, "node_modules", ".package-lock.json"), "{}");
      await utimes(join(root, "node_modules", ".package-lock.json"), installedAt, installedAt);
    }
    return root;
  }

  it("installs when nothing is installed, or the lockfile changed since the last install", async () => {
    expect(dependenciesStale(await project())).toBe(true);
    expect(dependenciesStale(await project(500, 1_000))).toBe(true);
    expect(dependenciesStale(await project(2_000, 1_000))).toBe(false);
  });

  it("names the packages of the browsers that are not there", async () => {
    const here = process.execPath;
    expect(
      missingBrowsers([
        { pkg: "present", path: here },
        { pkg: "absent", path: join(tmpdir(), "no-such-browser") },
      ]),
    ).toEqual(["absent"]);
  });
});
