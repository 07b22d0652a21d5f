import { getAddress } from "viem";
import type { ProofClaims } from "../../lib/protocol/envelope/claims";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../lib/protocol/rails/eip3009";
import { eip3009TokenAbi } from "../chain";
import { InvalidAuthorizationSignatureError, NonceAlreadyUsedError } from "./errors";
import type { SettlementClient } from "./settle";

/**
 * What the token would check but a simulation reports less precisely: the EIP-712 signature
 * under the rail's domain, and that the nonce is unused. Run before anything is settled.
 */
export async function checkAuthorization(
  client: SettlementClient,
  chainId: number,
  claims: ProofClaims,
): Promise<void> {
  const { rail, payment } = claims;
  const a = payment.authorization;
  const from = getAddress(a.from);
  const valid = await client.verifyTypedData({
    address: from,
    domain: {
      name: rail.extra.name,
      version: rail.extra.version,
      chainId,
      verifyingContract: getAddress(rail.asset),
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from,
      to: getAddress(a.to),
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce as `0x${string}`,
    },
    signature: payment.signature as `0x${string}`,
  });
  if (!valid) throw new InvalidAuthorizationSignatureError(from);
  const used = await client.readContract({
    address: getAddress(rail.asset),
    abi: eip3009TokenAbi,
    functionName: "authorizationState",
    args: [from, a.nonce as `0x${string}`],
  });
  if (used) throw new NonceAlreadyUsedError(from, a.nonce);
}
