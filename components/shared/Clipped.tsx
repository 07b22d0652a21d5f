import { formattingShown } from "@/lib/ui/bidi";

/** Characters of a description, and of a URL or tool name, shown at first. */
export const DESCRIPTION_SHOWN = 200;
export const NAME_SHOWN = 120;
/** Characters of an MCP tool argument's value shown at first. */
export const VALUE_SHOWN = 120;

/**
 * Page- and receiver-supplied text: its start only (so that it cannot push
 * the amount out of view), the rest when asked, isolated as <bdi> (so that a
 * bidi override in it cannot reorder what is shown after it), and with its
 * invisible formatting characters written out (so that it cannot reorder
 * or hide what it says itself).
 */
export function Clipped({
  text,
  shown,
  more,
  testId,
}: {
  text: string;
  shown: number;
  more: string;
  testId?: string;
}) {
  const plain = formattingShown(text);
  const characters = Array.from(plain);
  if (characters.length <= shown) return <bdi data-testid={testId}>{plain}</bdi>;
  return (
    <>
      <bdi data-testid={testId}>{characters.slice(0, shown).join("")}…</bdi>
      <details>
        <summary className="cursor-pointer text-xs">{more}</summary>
        <bdi className="block break-words text-xs">{plain}</bdi>
      </details>
    </>
  );
}
