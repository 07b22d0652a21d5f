import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";
import type { Abi, Hex } from "viem";
import { sha256, stringToHex } from "viem";
import { z } from "zod";
import { SolidityCompileError } from "./errors";

export interface ContractArtifact {
  abi: Abi;
  /** Creation code, for a normal deployment. */
  bytecode: Hex;
  /** Runtime code, for `anvil_setCode` at a fixed address. */
  deployedBytecode: Hex;
}

const HERE = fileURLToPath(new URL(".", import.meta.url));
export const DEFAULT_CACHE_DIR = join(HERE, ".cache");
export const TOKEN_SOURCE_PATH = join(HERE, "EIP3009Token.sol");

// Cancun runs on every anvil hardfork we may pick and on real chains the token imitates.
const SETTINGS = {
  evmVersion: "cancun",
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
} as const;

const hexObject = z.string().regex(/^[0-9a-f]*$/);
const solcOutput = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.record(z.string(), z.unknown())),
          evm: z.object({
            bytecode: z.object({ object: hexObject }),
            deployedBytecode: z.object({ object: hexObject }),
          }),
        }),
      ),
    )
    .optional(),
});

const cachedArtifact = z.object({
  abi: z.array(z.record(z.string(), z.unknown())),
  bytecode: z.string().startsWith("0x"),
  deployedBytecode: z.string().startsWith("0x"),
});

function toArtifact(parsed: z.infer<typeof cachedArtifact>): ContractArtifact {
  return {
    // solc's ABI JSON is the shape viem's Abi type describes; zod checked it is a list of objects.
    abi: parsed.abi as unknown as Abi,
    bytecode: parsed.bytecode as Hex,
    deployedBytecode: parsed.deployedBytecode as Hex,
  };
}

/**
 * Compiles one contract of a Solidity file with solc-js (several seconds), or returns the artifact
 * cached under `cacheDir` for the same source, compiler version and settings.
 */
export async function compileContract(
  sourcePath: string,
  contractName: string,
  cacheDir: string = DEFAULT_CACHE_DIR,
): Promise<ContractArtifact> {
  const source = await readFile(sourcePath, "utf8");
  const fileName = sourcePath.split(/[\\/]/).pop() ?? sourcePath;
  const key = sha256(
    stringToHex(JSON.stringify([solc.version(), SETTINGS, fileName, contractName, source])),
  ).slice(2, 18);
  const cachePath = join(cacheDir, `${contractName}-${key}.json`);

  const cached = await readFile(cachePath, "utf8").catch(() => undefined);
  if (cached !== undefined) {
    const parsed = cachedArtifact.safeParse(JSON.parse(cached));
    if (parsed.success) return toArtifact(parsed.data);
  }

  const input = {
    language: "Solidity",
    sources: { [fileName]: { content: source } },
    settings: SETTINGS,
  };
  const output = solcOutput.parse(JSON.parse(solc.compile(JSON.stringify(input))));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  const compiled = output.contracts?.[fileName]?.[contractName];
  if (errors.length > 0 || compiled === undefined) {
    throw new SolidityCompileError(
      fileName,
      errors.length > 0
        ? errors.map((e) => e.formattedMessage)
        : [`no contract named ${contractName} in the output`],
    );
  }
  const artifact = {
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
  };

  // Write then rename, so a parallel test file never reads a half-written cache entry.
  await mkdir(cacheDir, { recursive: true });
  const tmpPath = `${cachePath}.${process.pid}.tmp`;
  await writeFile(tmpPath, JSON.stringify(artifact));
  await rename(tmpPath, cachePath);
  return toArtifact(artifact);
}
