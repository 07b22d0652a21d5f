import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  InitializeRequestSchema,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type Notification,
  ProgressNotificationSchema,
  type Request,
  type Result,
  ResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../errors";
import { field, isObject, type JsonRpcError, PAYMENT_REQUIRED } from "../hook/jsonrpc";
import { paidButUnanswered } from "../hook/mcp-payment";
import { declareElicitation, routeElicitation } from "../hook/mcp-session";
import { MAX_REPORTED_TOOLS } from "../hook/wallet-link";
import type { ElicitParams } from "../messages";
import { answeringCalls, noAnswerIn, Resumptions } from "./call-answers";
import { CallStreams } from "./call-streams";
import { failureText, PaidRetryError, UnpaidHttp402Error, UpstreamAnswerError } from "./errors";
import { asForwardedCall } from "./forwarded-call";
import { payingHttp402 } from "./http-402";
import {
  type CallOutcome,
  callPaying,
  notPaid,
  type ProxyWallet,
  refusedPayment,
  type ToolCallParams,
} from "./paid-call";
import { type Connected, UpstreamSession } from "./upstream-session";

/** A forwarded request may run as long as the host lets it (paid tools, a person approving). */
const FORWARD_TIMEOUT_MS = 30 * 60_000;

export interface ForwardingServer {
  /** The MCP server the host talks to. */
  server: Server;
  /**
   * Settles once the host has gone and the upstream session is ended: the
   * server told with a DELETE (or given up on after a few seconds), the
   * connection closed.
   */
  ended: Promise<void>;
}

export interface ForwardOptions {
  /** The one remote MCP server (Streamable HTTP) this proxy forwards to. */
  upstream: URL;
  wallet: ProxyWallet;
  version: string;
}

/**
 * The proxy's MCP server (for the desktop host, over stdio): every request is
 * forwarded as is to the upstream server over Streamable HTTP (JSON or SSE
 * answers), with the upstream's capabilities, server info and instructions,
 * and its answers and errors (codes and data) passed back unchanged. The
 * upstream connection opens on the host's `initialize`, with the host's own
 * client info and capabilities (plus form elicitation, which the wallet
 * answers when the host does not). Notifications and the upstream's own
 * requests (sampling, roots, elicitation) cross both ways. Paid tool calls go
 * through the wallet (paid-call.ts); elicitations carrying a Quote are
 * answered from the wallet's window, bound to the tools/call whose answer
 * carried them (call-streams.ts), as a page's are.
 */
export function createForwardingServer(options: ForwardOptions): ForwardingServer {
  const upstreamUrl = options.upstream.href;
  const server = new Server({ name: "stipendex-proxy", version: options.version });
  let session: UpstreamSession | undefined;
  const wallet = options.wallet;
  const resumptions = new Resumptions();
  const streams = new CallStreams(
    answeringCalls(payingHttp402(fetch, wallet, resumptions), resumptions),
  );
  let walletAnswersForms = false;
  const report = (sighting: Parameters<ProxyWallet["report"]>[0]) =>
    void wallet.report(sighting).catch(() => undefined);

  const toHost = async (notification: Notification) => {
    await server.transport?.send({ jsonrpc: "2.0", ...notification });
  };

  server.setRequestHandler(InitializeRequestSchema, async (request): Promise<InitializeResult> => {
    if (session) {
      throw rpcFailure({ code: ErrorCode.InvalidRequest, message: "Already initialized" });
    }
    const { params } = request;
    const declared = declareElicitation({
      jsonrpc: "2.0",
      method: "initialize",
      params: { ...params, protocolVersion: LATEST_PROTOCOL_VERSION },
    });
    walletAnswersForms = declared.walletAnswersForms;
    const capabilities = declared.body
      ? (JSON.parse(declared.body) as { params: typeof params }).params.capabilities
      : params.capabilities;
    // A session the server forgets is started again with the same (upstream-session.ts).
    const connect = async (): Promise<Connected> => {
      const upstream = new Client(params.clientInfo, { capabilities });
      upstream.fallbackNotificationHandler = toHost;
      upstream.setNotificationHandler(ProgressNotificationSchema, toHost);
      upstream.fallbackRequestHandler = async (asked, extra) => {
        const answer = await walletElicitation(
          asked,
          streams.callOf(extra.requestId),
          extra.signal,
        );
        if (answer) return answer;
        return asHostError(() =>
          server.request({ method: asked.method, params: asked.params }, ResultSchema, {
            signal: extra.signal,
            timeout: FORWARD_TIMEOUT_MS,
          }),
        );
      };
      const transport = new StreamableHTTPClientTransport(options.upstream, {
        fetch: streams.fetch,
      });
      await upstream.connect(transport);
      return { client: upstream, transport };
    };
    let first: Connected;
    try {
      first = await connect();
    } catch (error) {
      throw rpcFailure({
        code: ErrorCode.InternalError,
        message: `stipendex-proxy could not reach the MCP server at ${upstreamUrl}: ${errorText(error)}`,
      });
    }
    session = new UpstreamSession(first, connect, upstreamUrl);
    const upstream = first.client;
    const serverCapabilities = upstream.getServerCapabilities() ?? {};
    const declaredPayments = field(serverCapabilities.experimental, "stipendex/payments");
    if (declaredPayments !== undefined) {
      report({ server: upstreamUrl, stipendexPayments: declaredPayments });
    }
    const instructions = upstream.getInstructions();
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
        ? params.protocolVersion
        : LATEST_PROTOCOL_VERSION,
      capabilities: serverCapabilities,
      serverInfo: upstream.getServerVersion() ?? { name: "upstream", version: "unknown" },
      ...(instructions === undefined ? {} : { instructions }),
    };
  });

  /**
   * An upstream elicitation the wallet answers (a Quote: for `call`, when it
   * came during one) or declines (a form the host cannot show).
   */
  const walletElicitation = async (
    asked: Request,
    call: ElicitParams["call"],
    signal: AbortSignal,
  ): Promise<Result | undefined> => {
    if (asked.method !== "elicitation/create") return undefined;
    const params = asked.params ?? {};
    const route = routeElicitation(params, walletAnswersForms);
    if (route === "page") return undefined;
    if (route === "decline") return { action: "decline" };
    try {
      const answer = await wallet.elicit(
        {
          server: upstreamUrl,
          ...(call ? { call } : {}),
          params: params as ElicitParams["params"],
        },
        signal,
      );
      return { ...answer };
    } catch {
      return { action: "cancel" };
    }
  };

  server.fallbackNotificationHandler = async (notification) => {
    await session?.run((client) => client.notification(notification));
  };

  server.fallbackRequestHandler = async (request, extra) => {
    if (!session) {
      throw rpcFailure({ code: ErrorCode.InvalidRequest, message: "Initialize the session first" });
    }
    const upstream = session;
    const send = async (params: Request["params"]): Promise<CallOutcome> => {
      try {
        const result = await upstream.run((client) =>
          client.request({ method: request.method, params }, ResultSchema, {
            signal: extra.signal,
            timeout: FORWARD_TIMEOUT_MS,
          }),
        );
        return { result };
      } catch (error) {
        // The host's own cancellation (notifications/cancelled), not an answer of the server's.
        if (extra.signal.aborted) throw error;
        if (error instanceof McpError) {
          const wire = wireErrorOf(error);
          // The proxy's own, for a call its SSE answer left unanswered (call-answers.ts), is a failure.
          const unanswered = noAnswerIn(wire);
          if (unanswered) throw unanswered;
          return { error: wire };
        }
        // Failures are thrown, for callPaying, which reports a paid retry that failed; the host is told below.
        if (error instanceof StreamableHTTPError) throw upstreamAnswerErrorOf(error);
        throw error;
      }
    };
    const params = request.params;
    let outcome: CallOutcome;
    try {
      outcome =
        request.method === "tools/call" && isToolCall(params)
          ? await asForwardedCall((call) =>
              callPaying(upstreamUrl, params, send, wallet, extra.signal, () => call.paidAtHttp),
            )
          : await send(params);
    } catch (error) {
      if (error instanceof PaidRetryError) throw rpcFailure(paidRetryFailure(params, error).error);
      if (error instanceof UnpaidHttp402Error) {
        const tool = isToolCall(params) ? params.name : "the tool";
        throw rpcFailure(notPaid(tool, error.message, error.price).error);
      }
      if (!(error instanceof UpstreamAnswerError)) throw failedUpstream(failureText(error));
      // An HTTP 402 still there: the wallet did not pay it (http-402.ts asked it).
      if (error.status !== 402) throw failedUpstream(error.message);
      throw rpcFailure({
        code: PAYMENT_REQUIRED,
        message: `The MCP server at ${upstreamUrl} asks for a payment (HTTP 402) and the Stipendex wallet did not make it`,
        data: { upstream: error.message },
      });
    }
    if ("error" in outcome) throw rpcFailure(outcome.error);
    if (request.method === "tools/list") reportTools(outcome.result);
    return outcome.result;
  };

  /** A tool call priced with HTTP 402 whose paid retry failed: as a paid MCP retry's failure reads. */
  const paidRetryFailure = (params: unknown, error: PaidRetryError): { error: JsonRpcError } => {
    const tool = isToolCall(params) ? params.name : "the tool";
    return error.refusal === undefined
      ? { error: paidButUnanswered(tool, upstreamUrl, error.message) }
      : refusedPayment(tool, error.message, error.refusal);
  };

  const failedUpstream = (why: string) =>
    rpcFailure({
      code: ErrorCode.InternalError,
      message: `The MCP server at ${upstreamUrl} failed: ${why}`,
    });

  const reportTools = (result: Record<string, unknown>) => {
    const tools = Array.isArray(result.tools) ? result.tools : [];
    report({
      server: upstreamUrl,
      // The wallet takes no more (page-params.ts); the first ones are what it shows.
      tools: tools.slice(0, MAX_REPORTED_TOOLS).map((tool) => ({
        name: field(tool, "name"),
        pricing: field(field(tool, "_meta"), "stipendex/pricing"),
      })),
    });
  };

  const ended = new Promise<void>((resolve) => {
    server.onclose = () => {
      resumptions.giveUp();
      void (session?.end() ?? Promise.resolve()).finally(resolve);
    };
  });
  return { server, ended };
}

function isToolCall(params: unknown): params is ToolCallParams {
  return isObject(params) && typeof params.name === "string";
}

/**
 * An error as the SDK hands it over: `McpError` prefixes its message with
 * "MCP error <code>: ", which is taken off again so the host reads what the
 * server said.
 */
function wireErrorOf(error: McpError): JsonRpcError {
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return { code: error.code, message, ...(error.data === undefined ? {} : { data: error.data }) };
}

/** The SDK's words before what the server answered to a POST: taken off, as wireErrorOf does. */
const POST_ERROR_PREFIX = /^Streamable HTTP error: (Error POSTing to endpoint: )?/;

/** An HTTP answer with no JSON-RPC answer in it, as the SDK's transport fails on it. */
function upstreamAnswerErrorOf(error: StreamableHTTPError): UpstreamAnswerError {
  // The SDK says -1 for a 2xx of another content type, the HTTP status for an error.
  const status = error.code === undefined || error.code < 0 ? undefined : error.code;
  return new UpstreamAnswerError(status, error.message.replace(POST_ERROR_PREFIX, ""), {
    cause: error,
  });
}

/** An error the SDK sends on as exactly this code, message and data (it reads the three fields). */
function rpcFailure(error: JsonRpcError): Error {
  return Object.assign(new Error(error.message), { code: error.code, data: error.data });
}

/** The host's answer to an upstream request, its errors passed on unchanged. */
async function asHostError(ask: () => Promise<Result>): Promise<Result> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof McpError) throw rpcFailure(wireErrorOf(error));
    throw error;
  }
}
