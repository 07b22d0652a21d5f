import { StipendexError } from "../../lib/errors";

export class AnvilBinaryNotFoundError extends StipendexError {
  override name = "AnvilBinaryNotFoundError";
  constructor(platformPackage: string, cause?: unknown) {
    super(
      "anvil-binary-not-found",
      `No anvil binary for ${process.platform}/${process.arch}: could not resolve "${platformPackage}" (is @foundry-rs/anvil installed with its optional dependencies?)`,
      { cause },
    );
  }
}

export class AnvilExitedError extends StipendexError {
  override name = "AnvilExitedError";
  constructor(port: number, exitCode: number | null, stderr: string) {
    super(
      "anvil-exited",
      `anvil on port ${port} exited with code ${exitCode} before answering JSON-RPC: ${stderr.trim() || "(no stderr)"}`,
    );
  }
}

export class AnvilNotReadyError extends StipendexError {
  override name = "AnvilNotReadyError";
  constructor(rpcUrl: string, timeoutMs: number) {
    super(
      "anvil-not-ready",
      `anvil at ${rpcUrl} did not answer eth_chainId within ${timeoutMs} ms`,
    );
  }
}

export class SolidityCompileError extends StipendexError {
  override name = "SolidityCompileError";
  constructor(file: string, messages: string[]) {
    super("solidity-compile-failed", `solc failed on ${file}:\n${messages.join("\n")}`);
  }
}

export class SetupTransactionRevertedError extends StipendexError {
  override name = "SetupTransactionRevertedError";
  constructor(step: string, hash: string) {
    super("chain-setup-reverted", `chain setup step "${step}" reverted in transaction ${hash}`);
  }
}

export class TooManyPayersError extends StipendexError {
  override name = "TooManyPayersError";
  constructor(requested: number, available: number) {
    super(
      "too-many-payers",
      `asked for ${requested} payer accounts but only ${available} anvil dev accounts are left after deployer, facilitator and payee`,
    );
  }
}

export class InvalidCliArgumentError extends StipendexError {
  override name = "InvalidCliArgumentError";
  constructor(flag: string, value: string | undefined, expected: string) {
    super(
      "invalid-cli-argument",
      `${flag} ${value === undefined ? "is missing its value" : `got "${value}"`}: expected ${expected}`,
    );
  }
}
