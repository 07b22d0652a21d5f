import { describe, expect, it } from "vitest";
import { xhrBody } from "./xhr-body";

const answer = (bytes: number[], contentType?: string) =>
  new Response(
    new Uint8Array(bytes),
    contentType ? { headers: { "content-type": contentType } } : {},
  );

describe("xhrBody", () => {
  // A paid XHR's responseText read every answer as UTF-8: "caf\uFFFD" for a Latin-1 "café".
  it("reads the text in the charset the answer's Content-Type names, quoted or not", async () => {
    const latin1 = [0x63, 0x61, 0x66, 0xe9];
    for (const type of ["text/plain; charset=ISO-8859-1", 'text/plain;charset="latin1"']) {
      const { text, body, size } = await xhrBody(answer(latin1, type), "");
      expect([text, body, size]).toEqual(["café", "café", 4]);
    }
    const sjis = await xhrBody(answer([0x82, 0xa0], "text/plain; charset=Shift_JIS"), "text");
    expect(sjis.text).toBe("あ");
  });

  it("reads UTF-8 when no charset is named, or one no decoder knows", async () => {
    const utf8 = [0x63, 0x61, 0x66, 0xc3, 0xa9];
    expect((await xhrBody(answer(utf8), "")).text).toBe("café");
    expect((await xhrBody(answer(utf8, "text/plain; charset=no-such-thing"), "")).text).toBe(
      "café",
    );
  });

  it("parses JSON from UTF-8 whatever the charset, as XHR's json response does", async () => {
    const json = [...new TextEncoder().encode('{"name":"café"}')];
    const { body } = await xhrBody(answer(json, "application/json; charset=ISO-8859-1"), "json");
    expect(body).toEqual({ name: "café" });
  });
});
