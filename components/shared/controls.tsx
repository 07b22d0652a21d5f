import type { ComponentPropsWithRef, ReactNode, SelectHTMLAttributes } from "react";
import { Fragment, useEffect, useId, useRef, useState } from "react";
import { t } from "@/lib/ui/i18n";

/** The focus ring of every control: a colour of its own, visible on light and dark alike. */
export const FOCUS =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 dark:focus-visible:outline-emerald-400";

const VARIANTS = {
  primary:
    "bg-emerald-700 text-white hover:bg-emerald-800 dark:bg-emerald-500 dark:text-slate-950 dark:hover:bg-emerald-400",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger:
    "bg-red-700 text-white hover:bg-red-800 dark:bg-red-500 dark:text-slate-950 dark:hover:bg-red-400",
};

/** A button with a visible keyboard focus ring. */
export function Button({
  variant = "secondary",
  className = "",
  ...props
}: ComponentPropsWithRef<"button"> & { variant?: keyof typeof VARIANTS }) {
  return (
    <button
      type="button"
      className={`rounded px-3 py-1.5 text-sm font-medium disabled:opacity-50 ${VARIANTS[variant]} ${FOCUS} ${className}`}
      {...props}
    />
  );
}

/** A form control under its label (the label text is its accessible name), with a hint below. */
function Labelled({
  label,
  hint,
  className,
  control,
}: {
  label: string;
  hint?: ReactNode;
  className: string;
  control: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {control(id)}
      {hint && <div className="text-xs text-slate-600 dark:text-slate-400">{hint}</div>}
    </div>
  );
}

/** A labelled input. */
export function Field({
  label,
  hint,
  className = "",
  ...props
}: ComponentPropsWithRef<"input"> & { label: string; hint?: ReactNode }) {
  return (
    <Labelled
      label={label}
      hint={hint}
      className={className}
      control={(id) => <input id={id} className={INPUT_CLASS} {...props} />}
    />
  );
}

/** A labelled select; the options are its children. */
export function SelectField({
  label,
  className = "",
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  return (
    <Labelled
      label={label}
      className={className}
      control={(id) => <select id={id} className={INPUT_CLASS} {...props} />}
    />
  );
}

/** Shared look of text inputs, selects and textareas not built with Field. */
export const INPUT_CLASS = `rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900 ${FOCUS}`;

export const LINK_CLASS = `text-emerald-700 underline dark:text-emerald-400 ${FOCUS}`;

/**
 * A translated sentence with elements where it says $1…$9, in the order the
 * translation puts them: call t() with "$1", "$2"… as the substitutions.
 */
export function Sentence({ text, parts }: { text: string; parts: ReactNode[] }) {
  return text.split(/\$([1-9])/).map((piece, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the text fixes each piece's place; an element may appear twice.
    <Fragment key={i}>{i % 2 === 0 ? piece : parts[Number(piece) - 1]}</Fragment>
  ));
}

/** An error the person must see, announced by screen readers. */
export function ErrorNote({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p
      role="alert"
      className="rounded bg-red-50 px-2 py-1 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {children}
    </p>
  );
}

/** Copies `text` to the clipboard and says so for a moment (announced to screen readers). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Button onClick={() => void copy().catch(() => setCopied(false))} aria-live="polite">
      {copied ? t("common.copied") : label}
    </Button>
  );
}

/**
 * A step's heading, focused when the step is shown: the button that led to
 * it is gone, so focus would fall to the page's start; here a screen reader
 * says the new step, and Tab goes on from it.
 */
export function StepHeading({
  id,
  className = "font-semibold",
  children,
}: {
  id: string;
  className?: string;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h2 ref={heading} id={id} tabIndex={-1} className={`${className} outline-none`}>
      {children}
    </h2>
  );
}
