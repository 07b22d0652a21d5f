import { useId } from "react";
import type { ShownArguments, ShownText } from "@/lib/messages";
import { formattingShown } from "@/lib/ui/bidi";
import { t } from "@/lib/ui/i18n";
import { formatCount } from "@/lib/ui/locale-format";
import { Clipped, VALUE_SHOWN } from "../shared/Clipped";

/** Where the wallet cut a page's text (lib/payments/shown-text.ts): said, never hidden. */
export function Cut({ omitted }: { omitted: number }) {
  if (omitted === 0) return null;
  return (
    <p className="font-sans italic">{t("confirm.argumentCut", omitted, [formatCount(omitted)])}</p>
  );
}

function Name({ name }: { name: ShownText | undefined }) {
  // No name: the page's arguments are not an object, shown whole as one value.
  if (name === undefined) return <>{t("confirm.argumentsValue")}</>;
  const plain = formattingShown(name.text);
  return <bdi>{name.omitted > 0 ? `${plain}…` : plain}</bdi>;
}

/**
 * An MCP call's arguments, as the page sent them: each by name with the start
 * of its value, the rest of a long one when asked, in a box of bounded height
 * (scrolled by keyboard too) so that the amount stays in view.
 */
export function ToolArguments({ args }: { args: ShownArguments }) {
  const labelId = useId();
  const count = args.listed.length + args.unlisted;
  if (count === 0) {
    return (
      <p className="mt-1 text-xs" data-testid="arguments">
        {t("confirm.noArguments")}
      </p>
    );
  }
  return (
    <div className="mt-1">
      <p id={labelId} className="text-xs">
        {t("confirm.withArguments", count, [formatCount(count)])}
      </p>
      <section
        aria-labelledby={labelId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled box must take focus to scroll by keyboard.
        tabIndex={0}
        className="max-h-32 overflow-auto rounded bg-slate-100 p-1 text-xs focus-visible:outline-2 focus-visible:outline-emerald-600 dark:bg-slate-800"
        data-testid="arguments"
      >
        <dl>
          {args.listed.map((entry, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the page's order is the list's; names may repeat once cut.
            <div key={i} className="py-0.5">
              <dt className="font-mono font-semibold">
                <Name name={entry.name} />
              </dt>
              <dd className="whitespace-pre-wrap break-words pl-2 font-mono">
                <Clipped
                  text={entry.value.text}
                  shown={VALUE_SHOWN}
                  more={t("confirm.fullValue")}
                />
                <Cut omitted={entry.value.omitted} />
              </dd>
            </div>
          ))}
        </dl>
        {args.unlisted > 0 && (
          <p className="italic">
            {t("confirm.unlistedArguments", args.unlisted, [formatCount(args.unlisted)])}
          </p>
        )}
      </section>
    </div>
  );
}
