import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { errorText } from "../errors";

/** One upstream session: the SDK's client and the transport that holds its session id. */
export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** How long the proxy waits, once the host has gone, for the server to take the session's end. */
const SESSION_END_TIMEOUT_MS = 5_000;

/**
 * The proxy's session with the upstream MCP server, started again when the
 * server has forgotten it. MCP's Streamable HTTP transport has a server answer
 * HTTP 404 to a request carrying a session id it no longer knows, and the
 * client MUST then start a new session with a new `initialize`. The request
 * that met the 404 was not taken, so it is sent once more in the new session
 * (a paid retry too: its payment never reached the server). Requests that met
 * the same 404 at once share one new session.
 */
export class UpstreamSession {
  private current: Connected;
  private renewing: Promise<Connected> | undefined;

  constructor(
    first: Connected,
    private readonly connect: () => Promise<Connected>,
    private readonly serverUrl: string,
  ) {
    this.current = first;
  }

  /** Runs `send` on the session's client; once more on a new session when the server forgot this one. */
  async run<T>(send: (client: Client) => Promise<T>): Promise<T> {
    const used = this.current;
    try {
      return await send(used.client);
    } catch (error) {
      if (!forgotten(error, used)) throw error;
      return send((await this.renew(used)).client);
    }
  }

  private renew(gone: Connected): Promise<Connected> {
    if (this.current !== gone) return Promise.resolve(this.current);
    this.renewing ??= this.connect()
      .then(
        (renewed) => {
          this.current = renewed;
          // No DELETE: the server has no such session any more. This closes its GET stream.
          void gone.client.close().catch(() => undefined);
          return renewed;
        },
        (error: unknown) => {
          throw new Error(
            `the MCP server at ${this.serverUrl} no longer knows the session (HTTP 404) and a new one could not be started: ${errorText(error)}`,
            { cause: error },
          );
        },
      )
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  /**
   * Ends the session: the server told with a DELETE (a server that keeps none
   * answers 405), or given up on after a few seconds, then the connection closed.
   */
  async end(): Promise<void> {
    const { client, transport } = this.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const givenUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SESSION_END_TIMEOUT_MS);
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), givenUp]);
    clearTimeout(timer);
    await client.close();
  }
}

/** The server's 404 to a request in a session: it no longer knows the session (MCP's session management). */
function forgotten(error: unknown, { transport }: Connected): boolean {
  return (
    error instanceof StreamableHTTPError && error.code === 404 && transport.sessionId !== undefined
  );
}
