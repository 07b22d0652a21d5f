import type { Hex } from "viem";
import { WalletError } from "./errors";

/** secp256k1 group order: a private key must lie in [1, n-1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Validates an imported EVM private key and returns it as lowercase 0x-hex.
 * Messages describe the shape only, never echo the key.
 */
export function parseEvmPrivateKey(input: string): Hex {
  const trimmed = input.trim();
  const digits = trimmed.startsWith("0x") || trimmed.startsWith("0X") ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]*$/.test(digits)) {
    throw invalidPrivateKey("it must contain hex digits only (0-9, a-f)");
  }
  if (digits.length !== 64) {
    throw invalidPrivateKey(`it must be 32 bytes (64 hex digits), got ${digits.length} hex digits`);
  }
  const value = BigInt(`0x${digits}`);
  if (value === 0n || value >= SECP256K1_N) {
    throw invalidPrivateKey("it is outside the secp256k1 range [1, n-1]");
  }
  return `0x${digits.toLowerCase()}`;
}

function invalidPrivateKey(detail: string): WalletError {
  return new WalletError("invalid-private-key", `invalid EVM private key: ${detail}`);
}
