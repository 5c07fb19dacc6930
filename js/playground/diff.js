// What a call changed in the files, as one hunk per file: the lines between
// the common start and the common end, with two lines of context around
// them. Files added or removed show all their lines.

/** Lines of context around a change. */
const CONTEXT = 2;
/** Lines shown of one change at most. */
const MAX_LINES = 200;

const decoder = new TextDecoder();

const linesOf = (bytes) => {
  if (bytes === undefined) {
    return [];
  }
  const text = decoder.decode(bytes).replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  if (lines.at(-1) === '') {
    lines.pop();
  }
  return lines;
};

const same = (a, b) => a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** The hunk between two versions of one file, as `+`, `-` and ` ` lines. */
export function hunk(before, after) {
  const old = linesOf(before);
  const now = linesOf(after);
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) {
    start += 1;
  }
  let end = 0;
  while (
    end < old.length - start &&
    end < now.length - start &&
    old[old.length - 1 - end] === now[now.length - 1 - end]
  ) {
    end += 1;
  }
  const from = Math.max(0, start - CONTEXT);
  const lines = [
    `@@ line ${from + 1} @@`,
    ...old.slice(from, start).map((l) => ` ${l}`),
    ...old.slice(start, old.length - end).map((l) => `-${l}`),
    ...now.slice(start, now.length - end).map((l) => `+${l}`),
    ...old.slice(old.length - end, Math.min(old.length, old.length - end + CONTEXT)).map((l) => ` ${l}`),
  ];
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more lines`] : lines;
}

/** Every file that differs between two snapshots (maps of path to bytes), with its hunk. */
export function changes(before, after) {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths
    .filter((p) => !same(before.get(p), after.get(p)))
    .map((path) => ({ path, lines: hunk(before.get(path), after.get(path)) }));
}
