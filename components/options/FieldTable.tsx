import type { ReactNode } from "react";
import { INPUT_CLASS } from "../shared/controls";

/** One editable column of a settings table: what it holds, its heading, and each cell's label. */
export type FieldSpec<Row> =
  | {
      kind: "text";
      key: { [K in keyof Row]: Row[K] extends string ? K : never }[keyof Row];
      head(): string;
      label(row: Row): string;
      wide?: boolean;
    }
  | {
      kind: "select";
      key: { [K in keyof Row]: Row[K] extends string ? K : never }[keyof Row];
      head(): string;
      label(row: Row): string;
      options: { value: string; label(): string }[];
    }
  | {
      kind: "checkbox";
      key: { [K in keyof Row]: Row[K] extends boolean ? K : never }[keyof Row];
      head(): string;
      label(row: Row): string;
    };

function Cell<Row>({
  spec,
  row,
  onChange,
}: {
  spec: FieldSpec<Row>;
  row: Row;
  onChange(patch: Partial<Row>): void;
}) {
  const label = spec.label(row);
  if (spec.kind === "checkbox") {
    return (
      <input
        type="checkbox"
        aria-label={label}
        checked={row[spec.key] as boolean}
        onChange={(e) => onChange({ [spec.key]: e.target.checked } as Partial<Row>)}
      />
    );
  }
  const value = row[spec.key] as string;
  const set = (next: string) => onChange({ [spec.key]: next } as Partial<Row>);
  if (spec.kind === "select") {
    return (
      <select
        aria-label={label}
        className={INPUT_CLASS}
        value={value}
        onChange={(e) => set(e.target.value)}
      >
        {spec.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label()}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      aria-label={label}
      className={`${spec.wide ? "w-56" : "w-24"} ${INPUT_CLASS}`}
      value={value}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/**
 * A settings table drawn from its field list: one column per field, each
 * cell labelled for its row, plus any read-only columns and a remove button.
 */
export function FieldTable<Row>({
  caption,
  fields,
  rows,
  rowKey,
  onChange,
  extra = [],
  remove,
}: {
  caption: string;
  fields: FieldSpec<Row>[];
  rows: Row[];
  rowKey(row: Row, index: number): string;
  onChange(index: number, patch: Partial<Row>): void;
  extra?: { head(): string; cell(row: Row): ReactNode }[];
  remove: { label(row: Row): string; text(): string; onRemove(index: number): void };
}) {
  return (
    <table className="text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left">
          {fields.map((field) => (
            <th key={String(field.key)} scope="col" className="pr-2 font-medium">
              {field.head()}
            </th>
          ))}
          {extra.map((column) => (
            <th key={column.head()} scope="col" className="pr-2 font-medium">
              {column.head()}
            </th>
          ))}
          <td />
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)}>
            {fields.map((field) => (
              <td key={String(field.key)} className="py-1 pr-2">
                <Cell spec={field} row={row} onChange={(patch) => onChange(index, patch)} />
              </td>
            ))}
            {extra.map((column) => (
              <td key={column.head()} className="pr-2 font-mono text-xs">
                {column.cell(row)}
              </td>
            ))}
            <td>
              <button
                type="button"
                aria-label={remove.label(row)}
                className="rounded px-2 py-1 text-xs text-red-700 underline hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-emerald-600 dark:text-red-300 dark:hover:bg-red-950"
                onClick={() => remove.onRemove(index)}
              >
                {remove.text()}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
