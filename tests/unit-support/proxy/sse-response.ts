/** An SSE answer of `chunks` (pulled one by one), then its end, or `failure` when given. */
export function sseResponse(chunks: string[], failure?: Error): Response {
  const left = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = left.shift();
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else if (failure) controller.error(failure);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}
