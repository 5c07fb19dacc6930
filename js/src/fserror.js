// The WIT `fs-error` variant as the transpiled component expects a host
// function to signal it: a thrown value carrying the variant as `payload`.
export class FsError extends Error {
  constructor(tag, detail) {
    super(detail === undefined ? tag : `${tag}: ${detail}`);
    this.payload = detail === undefined ? { tag } : { tag, val: detail };
  }
}

/** How a file kind is described, word for word as the Rust side does. */
export const DESCRIBE = {
  file: 'a regular file',
  directory: 'a directory',
  symlink: 'a symbolic link',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  'block-device': 'a block device',
  'char-device': 'a character device',
  other: 'a special file',
};

/** Whether `precondition` (WIT `precondition`) holds for the current file. */
export function holds(precondition, current, sha256) {
  switch (precondition.tag) {
    case 'any':
      return true;
    case 'absent':
      return current === null;
    case 'matches': {
      if (current === null) {
        return false;
      }
      const stamp = precondition.val;
      if (stamp.size !== current.size) {
        return false;
      }
      return stamp.sha256 !== undefined && stamp.sha256 !== null
        ? stamp.sha256 === sha256()
        : stamp.mtimeNs === current.mtimeNs;
    }
    default:
      return false;
  }
}

/** Whether the UTF-16 code unit `unit` is half of a surrogate pair. */
const isSurrogate = (unit) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Orders names as Rust orders strings: by UTF-8 bytes, i.e. code points.
 * Code units order the same way except where half of a pair (a code point
 * past U+FFFF) meets a unit from U+E000 up, which it follows.
 */
export function byCodePoint(a, b) {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xPair = isSurrogate(x);
      if (xPair !== isSurrogate(y) && (xPair ? y : x) >= 0xe000) {
        return xPair ? 1 : -1;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}
