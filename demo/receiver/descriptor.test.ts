import { describe, expect, it } from "vitest";
import { checkDescriptor } from "../../lib/protocol/envelope/descriptor";
import { buildDescriptor } from "./descriptor";
import { createReceiverIdentity } from "./identity";
import { descriptorRail, type RailTemplate } from "./rail";

const rail: RailTemplate = {
  network: "eip155:84532",
  chainId: 84532,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  decimals: 6,
  symbol: "USDC",
  payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  maxTimeoutSeconds: 60,
  eip712: { name: "USDC", version: "2" },
};

describe("identity and descriptor", () => {
  it("an Ed25519 identity named by thumbprint, listed in a descriptor the wallet accepts", async () => {
    const identity = await createReceiverIdentity("http://127.0.0.1:4021");
    expect(identity.publicJwk).toMatchObject({ kty: "OKP", crv: "Ed25519", kid: identity.kid });
    expect(identity.publicJwk).not.toHaveProperty("d");
    const descriptor = buildDescriptor(identity, { name: "Test", rails: [rail] });
    const checked = checkDescriptor(descriptor, "http://127.0.0.1:4021/.well-known/stipendex.json");
    expect(checked.keys.keys[0]?.kid).toBe(identity.kid);
    expect(checked.rails).toEqual([descriptorRail(rail)]);
    expect(checked.profiles).toEqual(["L0", "L1", "L2"]);
  });
});
