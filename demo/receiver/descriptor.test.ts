import { describe, expect, it } from "vitest";
import { checkDescriptor } from "../../lib/protocol/envelope/descriptor";
import { buildDescriptor } from "./descriptor";
import { createReceiverIdentity } from "./identity";
import { descriptorRail } from "./rail";
import { TEST_RAIL } from "./test-fixtures";

const rail = TEST_RAIL;

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
