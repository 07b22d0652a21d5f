import { describe, expect, it } from "vitest";
import { sseResponse } from "../../tests/unit-support/proxy/sse-response";
import {
  answeringCalls,
  answerToCall,
  noAnswerIn,
  type PaidOutcome,
  Resumptions,
} from "./call-answers";
import { PaidRetryError, UpstreamAnswerError } from "./errors";

const ENDPOINT = "http://127.0.0.1:9/mcp";
const call = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "search" },
});
const json = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "application/json" } });

const sse = sseResponse;

/** An SSE answer that sends `first`, then waits for the test to end it or break it off. */
function openSse(first: string) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
      started.enqueue(new TextEncoder().encode(first));
    },
  });
  return {
    response: new Response(body, { headers: { "content-type": "text/event-stream" } }),
    end: () => controller?.close(),
    breakOff: (error: unknown) => controller?.error(error),
  };
}
type OpenSse = ReturnType<typeof openSse>;

/** The last JSON-RPC message of an SSE text. */
const lastMessage = (text: string) => {
  const data = text
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("data: "));
  return JSON.parse(data[data.length - 1]?.slice(6) ?? "null") as unknown;
};

describe("answeringCalls", () => {
  it("hands on a tools/call's JSON answer as it came", async () => {
    const answer = '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}';
    const response = await answeringCalls(async () => json(answer), new Resumptions())(ENDPOINT, {
      body: call,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(answer);
  });

  it.each([
    ["JSON that is no JSON-RPC", '{"error":"payment_parse"}'],
    ["a JSON-RPC notification", '{"jsonrpc":"2.0","method":"notifications/message","params":{}}'],
    ["another call's answer", '{"jsonrpc":"2.0","id":4,"result":{}}'],
    ["its answer beside what is no JSON-RPC", '[{"jsonrpc":"2.0","id":3,"result":{}},{"ok":1}]'],
    ["no JSON at all", "<html>"],
  ])("fails a tools/call answered 2xx with %s, with what the server said", async (_, body) => {
    const failure = await answeringCalls(async () => json(body, 201), new Resumptions())(ENDPOINT, {
      body: call,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamAnswerError);
    expect(failure).toMatchObject({
      status: 201,
      message: `HTTP 201 with JSON that does not answer the call: ${body}`,
    });
  });

  it("fails a tools/call answered 202 Accepted, which answers only notifications", async () => {
    const accepted = new Response(null, { status: 202 });
    const failure = await answeringCalls(async () => accepted, new Resumptions())(ENDPOINT, {
      body: call,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamAnswerError);
    expect(failure).toMatchObject({ status: 202, message: "HTTP 202 without answering the call" });
  });

  it("leaves every other answer as the very same Response: other methods, HTTP errors, other types", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unanswered = json('{"ok":true}');
    expect(
      await answeringCalls(async () => unanswered, new Resumptions())(ENDPOINT, { body: list }),
    ).toBe(unanswered);
    const refused = json('{"error":"payment_parse"}', 402);
    expect(
      await answeringCalls(async () => refused, new Resumptions())(ENDPOINT, { body: call }),
    ).toBe(refused);
    const text = new Response("done", { headers: { "content-type": "text/plain" } });
    expect(
      await answeringCalls(async () => text, new Resumptions())(ENDPOINT, { body: call }),
    ).toBe(text);
  });

  it("passes a call's SSE answer on byte for byte", async () => {
    const whole = ': working\n\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n';
    const parts = [whole.slice(0, 20), whole.slice(20, 50), whole.slice(50)];
    const response = await answeringCalls(async () => sse(parts), new Resumptions())(ENDPOINT, {
      body: call,
    });
    expect(await response.text()).toBe(whole);
  });

  it.each([
    ["ends", undefined, "ended without answering the call"],
    [
      "breaks off",
      new TypeError("terminated", { cause: new Error("other side closed") }),
      "broke off before answering the call: terminated (other side closed)",
    ],
  ])(
    "ends a call's SSE answer that %s without the call's answer with the proxy's error to the call, read back as no answer",
    async (_how, failure, why) => {
      // Another call's answer, and an answer in an event of another type, answer nothing.
      const chunks = [
        'event: message\ndata: {"jsonrpc":"2.0","id":4,"result":{}}\n\n',
        'event: other\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\ndata: {"jsonrpc":',
      ];
      const response = await answeringCalls(async () => sse(chunks, failure), new Resumptions())(
        ENDPOINT,
        {
          body: call,
        },
      );
      const text = await response.text();
      expect(text.startsWith(chunks.join(""))).toBe(true);
      const message = lastMessage(text) as { id: number; error: { code: number; message: string } };
      expect(message).toMatchObject({ id: 3, error: { code: -32603 } });
      const failed = noAnswerIn(message.error);
      expect(failed).toBeInstanceOf(UpstreamAnswerError);
      expect(failed).toMatchObject({
        status: 200,
        message: `HTTP 200 with an SSE stream that ${why}`,
      });
    },
  );

  it("leaves an SSE answer the SDK resumes (its events have ids) to end or fail as it does", async () => {
    const primed = "id: e1\ndata: \n\n";
    const ended = await answeringCalls(async () => sse([primed]), new Resumptions())(ENDPOINT, {
      body: call,
    });
    expect(await ended.text()).toBe(primed);
    const reset = new TypeError("terminated");
    const broken = await answeringCalls(async () => sse([primed], reset), new Resumptions())(
      ENDPOINT,
      {
        body: call,
      },
    );
    await expect(broken.text()).rejects.toBe(reset);
  });

  it("reads no other error as the proxy's", () => {
    expect(noAnswerIn({ code: -32603, message: "Internal error" })).toBeUndefined();
    expect(noAnswerIn({ code: -32603, message: "x", data: { status: 200 } })).toBeUndefined();
  });
});

describe("answerToCall, for a paid retry", () => {
  /** A paid retry's watch, noting what it was told. */
  const watch = (paymentId = "p1") => {
    const told: PaidOutcome[] = [];
    return { told, paid: { paymentId, settled: (o: PaidOutcome) => told.push(o) } };
  };
  const answer = 'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n';

  it("is settled with the call's answer once its SSE carries it, and not again at its end", async () => {
    const { told, paid } = watch();
    const response = await answerToCall(sse([": working\n\n", answer]), 3, paid, new Resumptions());
    expect(await response.text()).toBe(`: working\n\n${answer}`);
    expect(told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
  });

  it("is settled with the call's answer when its JSON (a batch too) carries it", async () => {
    const { told, paid } = watch();
    const error = { jsonrpc: "2.0", id: 3, error: { code: -32000, message: "failed" } };
    const note = { jsonrpc: "2.0", method: "notifications/message", params: {} };
    await answerToCall(json(JSON.stringify([note, error])), 3, paid, new Resumptions());
    expect(told).toEqual([{ answer: error }]);
  });

  // The host is told the wallet paid (forward.ts reads the PaidRetryError back), as for any paid retry left unanswered.
  it("ends an SSE answer without the call's answer with an error naming the payment, settled as ended", async () => {
    const { told, paid } = watch();
    const response = await answerToCall(sse([": working\n\n"]), 3, paid, new Resumptions());
    const message = lastMessage(await response.text()) as {
      error: { code: number; message: string };
    };
    const why = "HTTP 200 with an SSE stream that ended without answering the call";
    const failed = noAnswerIn(message.error);
    expect(failed).toBeInstanceOf(PaidRetryError);
    expect(failed).toMatchObject({ paymentId: "p1", message: why });
    expect(told).toMatchObject([{ failure: { message: why, unanswered: "stream-ended" } }]);
  });

  // MCP Streamable HTTP: the SDK resumes by GET with Last-Event-ID, where the answer may come.
  describe("with event ids, resumed by the SDK", () => {
    const primed = "id: e1\ndata: \n\n";
    /** Call 3, paid, whose SSE answer stopped after event e1 without it: waiting to be resumed. */
    const waitingAfterE1 = async () => {
      const { told, paid } = watch();
      const resumptions = new Resumptions();
      await (await answerToCall(sse([primed]), 3, paid, resumptions)).text();
      return { told, paid, resumptions };
    };
    /** Paid calls 3 and 4, whose streams both stopped after an event with id 1 (a server numbering each from 1). */
    const twoStoppedAtOne = async () => {
      const third = watch("p3");
      const fourth = watch("p4");
      const resumptions = new Resumptions();
      const one = "id: 1\ndata: \n\n";
      await (await answerToCall(sse([one]), 3, third.paid, resumptions)).text();
      await (await answerToCall(sse([one]), 4, fourth.paid, resumptions)).text();
      return { third, fourth, resumptions };
    };
    /** Call 3 failed at once by the proxy's error in `response`, its payment settled as ended. */
    const expectCallFailed = async (response: Response, told: PaidOutcome[]) => {
      expect(lastMessage(await response.text())).toMatchObject({ id: 3, error: { code: -32603 } });
      expect(told).toMatchObject([{ failure: { unanswered: "stream-ended" } }]);
    };
    const resumeAfter = (eventId: string) => ({
      method: "GET",
      headers: { accept: "text/event-stream", "last-event-id": eventId },
    });

    it("waits for the resumption, and is settled with the answer the resumed stream carries", async () => {
      const { told, paid } = watch();
      const resumptions = new Resumptions();
      const first = await answerToCall(sse([primed]), 3, paid, resumptions);
      expect(await first.text()).toBe(primed);
      expect(told).toEqual([]);
      const resume = answeringCalls(async () => sse([`id: e2\n${answer}`]), resumptions);
      const resumed = await resume(ENDPOINT, resumeAfter("e1"));
      expect(await resumed.text()).toBe(`id: e2\n${answer}`);
      expect(told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
    });

    it.each<[string, () => Promise<Response>, string]>([
      [
        "a 405 (a server with no GET stream)",
        async () => new Response(null, { status: 405, statusText: "Method Not Allowed" }),
        "its resumption was answered HTTP 405 Method Not Allowed",
      ],
      ["JSON", async () => json("{}"), "its resumption was answered HTTP 200 application/json"],
    ])(
      "fails the call at once when the resumption is answered with %s",
      async (_how, server, why) => {
        const { told, paid } = watch();
        const resumptions = new Resumptions();
        await (await answerToCall(sse([primed]), 3, paid, resumptions)).text();
        const resumed = await answeringCalls(server, resumptions)(ENDPOINT, resumeAfter("e1"));
        const message = lastMessage(await resumed.text()) as {
          id: number;
          error: { code: number; message: string };
        };
        const said = `HTTP 200 with an SSE stream that ended without answering the call, and ${why}`;
        expect(message.id).toBe(3);
        expect(noAnswerIn(message.error)).toMatchObject({ paymentId: "p1", message: said });
        expect(told).toMatchObject([{ failure: { message: said, unanswered: "stream-ended" } }]);
      },
    );

    // The proxy failed the call at the first failed resumption; the SDK tries it again (maxRetries 2).
    it.each<
      [string, () => Promise<Response>, (first: Promise<Response>) => Promise<unknown>, string]
    >([
      [
        "a connection refused",
        async () => {
          throw new TypeError("fetch failed", { cause: new Error("ECONNREFUSED") });
        },
        (first) => expect(first).rejects.toThrow("fetch failed"),
        "its resumption failed: fetch failed (ECONNREFUSED)",
      ],
      [
        "a 503",
        async () => new Response("busy", { status: 503, statusText: "Service Unavailable" }),
        async (first) => expect((await first).status).toBe(503),
        "its resumption was answered HTTP 503 Service Unavailable",
      ],
    ])(
      "hands the SDK a resumption that failed with %s to try again, and fails the call when its second try does",
      async (_how, server, firstSeen, why) => {
        const { told, paid } = watch();
        const resumptions = new Resumptions();
        await (await answerToCall(sse([primed]), 3, paid, resumptions)).text();
        const resume = answeringCalls(server, resumptions);
        await firstSeen(resume(ENDPOINT, resumeAfter("e1")));
        expect(told).toEqual([]);
        const resumed = await resume(ENDPOINT, resumeAfter("e1"));
        const message = lastMessage(await resumed.text()) as { id: number; error: unknown };
        const said = `HTTP 200 with an SSE stream that ended without answering the call, and ${why}`;
        expect(message.id).toBe(3);
        expect(told).toMatchObject([{ failure: { message: said, unanswered: "stream-ended" } }]);
      },
    );

    it("fails the call when its resumed stream ends without the answer and no id to resume after", async () => {
      const { told, resumptions } = await waitingAfterE1();
      const resume = answeringCalls(async () => sse([": nothing\n\n"]), resumptions);
      const resumed = await resume(ENDPOINT, resumeAfter("e1"));
      await expectCallFailed(resumed, told);
    });

    it("takes only the stream it resumes, once, and gives up on the rest when the session ends", async () => {
      const { told, resumptions } = await waitingAfterE1();
      const other = sse([": standalone\n\n"]);
      expect(
        await answeringCalls(async () => other, resumptions)(ENDPOINT, resumeAfter("e9")),
      ).toBe(other);
      expect(told).toEqual([]);
      resumptions.giveUp();
      expect(told).toMatchObject([
        {
          failure: {
            message:
              "HTTP 200 with an SSE stream that ended without answering the call, and was never resumed",
            unanswered: "stream-ended",
          },
        },
      ]);
      expect(resumptions.take("e1")).toBeUndefined();
    });

    it.each<[string, (open: OpenSse) => void]>([
      ["ends", (open) => open.end()],
      ["breaks off", (open) => open.breakOff(new DOMException("aborted", "AbortError"))],
    ])("settles, once the session gave up, a call whose stream %s then", async (_how, stop) => {
      const { told, paid } = watch();
      const resumptions = new Resumptions();
      const open = openSse(primed);
      const response = await answerToCall(open.response, 3, paid, resumptions);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      resumptions.giveUp();
      stop(open);
      await reader.read().catch(() => undefined);
      expect(told).toMatchObject([{ failure: { unanswered: "stream-ended" } }]);
    });

    // MCP asks for event ids unique in the session; a server may number each stream from 1.
    it("keeps apart calls whose streams stopped at the same id, each resumed in turn", async () => {
      const { third, fourth, resumptions } = await twoStoppedAtOne();
      const answerTo = (id: number) =>
        `event: message\nid: 2\ndata: {"jsonrpc":"2.0","id":${id},"result":{}}\n\n`;
      for (const id of [3, 4]) {
        const resume = answeringCalls(async () => sse([answerTo(id)]), resumptions);
        await (await resume(ENDPOINT, resumeAfter("1"))).text();
      }
      expect(third.told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
      expect(fourth.told).toEqual([{ answer: { jsonrpc: "2.0", id: 4, result: {} } }]);
    });

    it("gives up on every call still waiting when the session ends, two at one id too", async () => {
      const { third, fourth, resumptions } = await twoStoppedAtOne();
      resumptions.giveUp();
      expect(third.told).toHaveLength(1);
      expect(fourth.told).toHaveLength(1);
    });

    it.each([
      ["an id holding U+0000 (the SSE standard ignores it)", "id: e\u00001\ndata: \n\n"],
      [
        "a result to another call (the SDK then stops resuming)",
        'id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":9,"result":{}}\n\n',
      ],
    ])("fails the call at once when its stream ends after %s", async (_how, text) => {
      const { told, paid } = watch();
      const response = await answerToCall(sse([text]), 3, paid, new Resumptions());
      await expectCallFailed(response, told);
    });

    it("hands the SDK a redirect within the origin to follow, and watches the followed stream", async () => {
      const { told, resumptions } = await waitingAfterE1();
      const moved = new Response(null, { status: 307, headers: { location: "/mcp2" } });
      const first = await answeringCalls(async () => moved, resumptions)(ENDPOINT, {
        ...resumeAfter("e1"),
        redirect: "manual",
      });
      expect(first).toBe(moved);
      const followed = await answeringCalls(async () => sse([answer]), resumptions)(
        "http://127.0.0.1:9/mcp2",
        { ...resumeAfter("e1"), redirect: "manual" },
      );
      await followed.text();
      expect(told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
    });

    it("fails the call at the SDK's second try when its resumption is redirected to another origin", async () => {
      const { told, resumptions } = await waitingAfterE1();
      const away = () =>
        new Response(null, {
          status: 302,
          statusText: "Found",
          headers: { location: "https://elsewhere.example/mcp" },
        });
      const resume = answeringCalls(async () => away(), resumptions);
      // The SDK follows no redirect to another origin: an error it tries again after.
      expect((await resume(ENDPOINT, resumeAfter("e1"))).status).toBe(302);
      expect(told).toEqual([]);
      const resumed = await resume(ENDPOINT, resumeAfter("e1"));
      expect(lastMessage(await resumed.text())).toMatchObject({ id: 3 });
      expect(told).toMatchObject([
        { failure: { message: expect.stringContaining("answered HTTP 302 Found") } },
      ]);
    });
  });

  it("settles the call with an answer in the stream's last event, cut short, which the SDK reads once it is ended", async () => {
    const { told, paid } = watch();
    const cut = 'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"ok":true}}';
    const response = await answerToCall(sse([cut]), 3, paid, new Resumptions());
    const text = await response.text();
    expect(text).toBe(`${cut}\n\n`);
    expect(told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: { ok: true } } }]);
  });

  it("settles an SSE answer given up before the call's answer as ended", async () => {
    const { told, paid } = watch();
    const response = await answerToCall(sse([": working\n\n"]), 3, paid, new Resumptions());
    await response.body?.cancel("session closed");
    expect(told).toMatchObject([
      {
        failure: {
          message: "HTTP 200 with an SSE stream that was given up before answering the call",
          unanswered: "stream-ended",
        },
      },
    ]);
  });

  // The SDK fails on it with its own words ("Unexpected content type"), which do not say the wallet paid.
  it("fails on a 2xx neither JSON nor SSE", async () => {
    const { told, paid } = watch();
    const text = new Response("done", { headers: { "content-type": "text/plain" } });
    const failure = await answerToCall(text, 3, paid, new Resumptions()).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UpstreamAnswerError);
    expect(failure).toMatchObject({
      status: 200,
      message: "HTTP 200 with text/plain, which does not answer the call",
      unanswered: "not-an-answer",
    });
    expect(told).toEqual([]);
  });
});
