// @vitest-environment happy-dom
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

  // A paid XHR ignored overrideMimeType(): a page reading binary as text with x-user-defined (the
  // classic way before responseType) got UTF-8 with U+FFFD for every byte over 0x7F.
  // (Browsers decode x-user-defined; Node's TextDecoder does not, so Latin-1 stands in for it here.)
  it("reads the answer as the MIME type the page overrode it with, charset and all", async () => {
    const bytes = [0x00, 0x7f, 0xa0, 0xff];
    const binary = await xhrBody(
      answer(bytes, "application/octet-stream"),
      "",
      "text/plain; charset=latin1",
    );
    expect([...binary.text].map((c) => c.charCodeAt(0))).toEqual(bytes);
    // The override names no charset: UTF-8, whatever the answer said.
    const utf8 = [0x63, 0x61, 0x66, 0xc3, 0xa9];
    expect((await xhrBody(answer(utf8, "text/plain; charset=latin1"), "", "text/plain")).text).toBe(
      "café",
    );
    const blob = await xhrBody(answer(bytes, "text/plain"), "blob", "image/png");
    expect((blob.body as Blob).type).toBe("image/png");
    const html = "<p>paid</p>";
    const page = await xhrBody(
      answer([...new TextEncoder().encode(html)], "text/plain"),
      "document",
      "text/html",
    );
    expect((page.body as Document).contentType).toBe("text/html");
  });

  it("parses JSON from UTF-8 whatever the charset, as XHR's json response does", async () => {
    const json = [...new TextEncoder().encode('{"name":"café"}')];
    const { body } = await xhrBody(answer(json, "application/json; charset=ISO-8859-1"), "json");
    expect(body).toEqual({ name: "café" });
  });
});
