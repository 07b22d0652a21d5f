import { describe, expect, it } from "vitest";
import {
  alsoListing,
  makeReceiver,
  ORIGIN,
  RAIL,
  SOLANA_RAIL,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import { assertRailsListed, assertReceiverId, checkDescriptor } from "./descriptor";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("checkDescriptor", () => {
  it("accepts a descriptor fetched from its own origin (URL or origin)", async () => {
    const { descriptor } = await makeReceiver();
    expect(checkDescriptor(descriptor, ORIGIN).id).toBe(ORIGIN);
    expect(checkDescriptor(descriptor, `${ORIGIN}/.well-known/stipendex.json`).name).toBe(
      "Example Search",
    );
  });

  it("refuses another origin, a bad shape and private keys", async () => {
    const { descriptor } = await makeReceiver();
    expect(() => checkDescriptor(descriptor, "https://evil.example")).toThrow(
      refused("descriptor-id-mismatch"),
    );
    expect(() => checkDescriptor(descriptor, "not a url")).toThrow(
      refused("descriptor-id-mismatch"),
    );
    expect(() => checkDescriptor({ ...descriptor, rails: [] }, ORIGIN)).toThrow(
      refused("invalid-descriptor"),
    );
    for (const name of [
      "Pay Co \u202E",
      "Pay\u200BCo",
      "Pay Co\nVerified",
      "\u2067Pay Co",
      "Pay Co\u2028Verified",
      "Pay\u00ADCo",
      "Pay\u034FCo",
      "Pay\u180ECo",
      "Pay Co\u{E0041}",
      "",
      "x".repeat(201),
      42,
    ]) {
      // Not shown, and not a reason to refuse the receiver: it is named by its id.
      const checked = checkDescriptor({ ...descriptor, name }, ORIGIN);
      expect(checked.name).toBeUndefined();
      expect(checked.id).toBe(ORIGIN);
    }
    const { name: _none, ...nameless } = descriptor;
    expect(checkDescriptor(nameless, ORIGIN).name).toBeUndefined();
    for (const name of ["Météo Pay · 天気", "جست\u200Cوجو", "Dev Search 👩\u200D💻"]) {
      expect(checkDescriptor({ ...descriptor, name }, ORIGIN).name).toBe(name);
    }
    const privateKey = { ...descriptor.keys.keys[0], d: "secret" };
    expect(() => checkDescriptor({ ...descriptor, keys: { keys: [privateKey] } }, ORIGIN)).toThrow(
      refused("invalid-descriptor"),
    );
  });

  it("keeps a descriptor that also lists a rail on another chain, and every EVM check", async () => {
    const { descriptor } = await makeReceiver();
    const both = alsoListing(descriptor, SOLANA_RAIL);
    expect(checkDescriptor(both, ORIGIN).rails).toEqual(both.rails);
    for (const rail of [
      { ...SOLANA_RAIL, network: "solana" },
      { ...SOLANA_RAIL, payTo: "" },
      { ...RAIL, payTo: SOLANA_RAIL.payTo },
      { ...RAIL, network: "eip155:base" },
    ]) {
      expect(() => checkDescriptor(alsoListing(descriptor, rail), ORIGIN)).toThrow(
        refused("invalid-descriptor"),
      );
    }
  });

  // §4: `registry` is optional and only says where the receiver is listed; §7 lets a
  // loopback receiver use plain http.
  it("keeps a registry link on https or loopback http, and leaves an unfit one out", async () => {
    const { descriptor } = await makeReceiver("http://127.0.0.1:4021");
    const loopback = "http://127.0.0.1:4030/entries/127.0.0.1:4021";
    expect(checkDescriptor({ ...descriptor, registry: loopback }, descriptor.id).registry).toBe(
      loopback,
    );
    const secure = "https://registry.example/entries/1";
    expect(checkDescriptor({ ...descriptor, registry: secure }, descriptor.id).registry).toBe(
      secure,
    );
    for (const unfit of ["http://registry.example/entries/1", "ftp://registry.example/1", 7]) {
      const kept = checkDescriptor({ ...descriptor, registry: unfit }, descriptor.id);
      expect(kept.registry).toBeUndefined();
      expect(kept.rails).toEqual(descriptor.rails);
    }
  });
});

describe("assertReceiverId", () => {
  it.each([
    "https://api.example.com",
    "http://127.0.0.1:8402",
    "http://localhost:3000",
    "http://[::1]:8080",
  ])("accepts %s", (id) => expect(() => assertReceiverId(id)).not.toThrow());
  it.each([
    "http://api.example.com",
    "https://api.example.com/",
    "https://api.example.com/path",
    "ftp://x",
    "x",
  ])("refuses %s", (id) =>
    expect(() => assertReceiverId(id)).toThrow(refused("insecure-receiver-id")),
  );
});

describe("assertRailsListed", () => {
  it("matches network, asset and payTo case-insensitively and refuses others", async () => {
    const { descriptor } = await makeReceiver();
    expect(() =>
      assertRailsListed(
        [{ ...RAIL, payTo: RAIL.payTo.toUpperCase().replace("0X", "0x") }],
        descriptor,
      ),
    ).not.toThrow();
    expect(() => assertRailsListed([RAIL, { ...RAIL, network: "eip155:1" }], descriptor)).toThrow(
      /rail 1 \(eip155:1/,
    );
    expect(() => assertRailsListed([{ ...RAIL, asset: RAIL.payTo }], descriptor)).toThrow(
      refused("rail-not-in-descriptor"),
    );
  });

  it("matches a rail on another chain exactly: base58 and the like tell letter case apart", async () => {
    const descriptor = alsoListing((await makeReceiver()).descriptor, SOLANA_RAIL);
    expect(() => assertRailsListed([RAIL, SOLANA_RAIL], descriptor)).not.toThrow();
    expect(() =>
      assertRailsListed([{ ...SOLANA_RAIL, payTo: SOLANA_RAIL.payTo.toLowerCase() }], descriptor),
    ).toThrow(refused("rail-not-in-descriptor"));
  });
});
