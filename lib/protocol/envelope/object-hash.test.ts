import { describe, expect, it } from "vitest";
import { sha256Base64url } from "../canonical-json";
import type { ProtocolErrorCode } from "../errors";
import { objectHash } from "./object-hash";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("objectHash", () => {
  it("is base64url(SHA-256) of the compact JWS text", async () => {
    const jws = "eyJhIjoxfQ.eyJhIjoxfQ.AQ";
    expect(await objectHash(jws)).toBe(await sha256Base64url(jws));
    expect(await objectHash(jws)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses text that is not a compact JWS", async () => {
    await expect(objectHash("not a jws")).rejects.toThrow(refused("malformed-jws"));
  });
});
