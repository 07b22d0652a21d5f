import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatAbiItem } from "viem/utils";
import { afterAll, describe, expect, it } from "vitest";
import { compileContract, TOKEN_SOURCE_PATH } from "./compile";
import { SolidityCompileError } from "./errors";
import { eip3009TokenAbi } from "./token-abi";

const signatures = (abi: readonly { type: string }[]) =>
  abi
    .filter((item) => item.type === "function" || item.type === "event")
    .map((item) => formatAbiItem(item as Parameters<typeof formatAbiItem>[0]));

describe("compileContract", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "chain-compile-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("compiles the token, caches it by source hash, and matches the typed ABI", async () => {
    const cacheDir = await tempDir();
    const first = await compileContract(TOKEN_SOURCE_PATH, "EIP3009Token", cacheDir);
    expect(first.bytecode).toMatch(/^0x[0-9a-f]{1000,}$/);
    expect(first.deployedBytecode).toMatch(/^0x[0-9a-f]{1000,}$/);
    expect(first.bytecode.length).toBeGreaterThan(first.deployedBytecode.length);
    expect(await readdir(cacheDir)).toEqual([
      expect.stringMatching(/^EIP3009Token-[0-9a-f]{16}\.json$/),
    ]);

    const compiled = signatures(first.abi);
    for (const expected of signatures(eip3009TokenAbi)) expect(compiled).toContain(expected);

    // A second call must come from the cache: poison the cached bytecode and see it returned.
    const [file] = await readdir(cacheDir);
    const cachePath = join(cacheDir, file ?? "");
    await writeFile(cachePath, JSON.stringify({ ...first, bytecode: "0xdead" }));
    expect((await compileContract(TOKEN_SOURCE_PATH, "EIP3009Token", cacheDir)).bytecode).toBe(
      "0xdead",
    );
  }, 120_000);

  it("reports solc errors with the file name", async () => {
    const dir = await tempDir();
    const source = join(dir, "Broken.sol");
    await writeFile(source, "pragma solidity ^0.8.20; contract Broken { function f() { x = 1; } }");
    const failure = compileContract(source, "Broken", dir);
    await expect(failure).rejects.toBeInstanceOf(SolidityCompileError);
    await expect(failure).rejects.toThrow(/Broken\.sol[\s\S]*Undeclared identifier/);
  }, 120_000);
});
