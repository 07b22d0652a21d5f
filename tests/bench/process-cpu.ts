import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time a browser's processes used, by what each process does, read from
 * Linux's /proc: on a machine with two cores, what the wallet costs every
 * process (the page, the extension, the browser's own, the network service)
 * decides as much as what it costs its own thread.
 */

/** /proc's utime and stime count in USER_HZ ticks, 100 a second on every Linux. */
const TICK_MS = 10;

/** One process: what it does, and the CPU it has used since it started. */
export interface ProcessCpu {
  kind: string;
  cpuMs: number;
}

/**
 * What a Chromium or Firefox process does, from its command line, or for
 * Firefox's children from the name it gives each (their command lines do not
 * tell a page's process from the extensions').
 */
export function processKind(argv: readonly string[], name = ""): string {
  const flag = (flagName: string) =>
    argv.find((arg) => arg.startsWith(`--${flagName}=`))?.slice(flagName.length + 3);
  const type = flag("type");
  if (argv.includes("-contentproc")) {
    if (name === "WebExtensions") return "extension process";
    return /^(Web Content|Isolated Web Co)/.test(name) ? "web content process" : name.toLowerCase();
  }
  if (type === undefined) return "browser process";
  if (type === "renderer") {
    return argv.includes("--extension-process") ? "extension process" : "page renderer";
  }
  if (type === "utility") {
    const service = flag("utility-sub-type")?.split(".").at(-1) ?? "utility";
    return service.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
  return type;
}

interface ProcessEntry {
  pid: number;
  name: string;
  parent: number;
  argv: string[];
  cpuMs: number;
}

function readProcess(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name in parentheses may hold spaces: the fields start after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // A renamed process (Chromium's zygote children) keeps its arguments space-separated.
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/).filter(Boolean);
    return {
      pid,
      name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
      parent: Number(fields[1]),
      argv,
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    };
  } catch {
    // Gone between the listing and the read.
    return undefined;
  }
}

function allProcesses(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readProcess(Number(name)) ?? []);
}

/** Whether this machine has /proc to read (Linux). */
export function canReadProcesses(): boolean {
  try {
    readdirSync("/proc/self");
    return true;
  } catch {
    return false;
  }
}

/** The process started with `marker` among its arguments (a flag the browser ignores). */
export function processWithArgument(marker: string): number | undefined {
  return allProcesses().find((entry) => entry.argv.includes(marker))?.pid;
}

/** `root` and every process under it, by pid. */
export function processTree(root: number): Map<number, ProcessCpu> {
  const entries = allProcesses();
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of entries) {
    children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  }
  const tree = new Map<number, ProcessCpu>();
  const visit = (entry: ProcessEntry) => {
    tree.set(entry.pid, { kind: processKind(entry.argv, entry.name), cpuMs: entry.cpuMs });
    for (const child of children.get(entry.pid) ?? []) visit(child);
  };
  const top = entries.find((entry) => entry.pid === root);
  if (top) visit(top);
  return tree;
}

/**
 * CPU used between two readings of a tree, by kind (most first); a process
 * that started in between counts from zero, one that ended is not counted.
 */
export function cpuSpent(
  before: ReadonlyMap<number, ProcessCpu>,
  after: ReadonlyMap<number, ProcessCpu>,
): [kind: string, ms: number][] {
  const byKind = new Map<string, number>();
  for (const [pid, { kind, cpuMs }] of after) {
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpuMs - (before.get(pid)?.cpuMs ?? 0));
  }
  return [...byKind].sort(([, a], [, b]) => b - a);
}
