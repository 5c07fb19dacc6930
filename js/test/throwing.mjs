// A `memoryFs` whose back end throws — a crash, not a file-system error —
// when the component reads `name`: the component's call traps.
import { memoryFs } from '../src/node.js';

export function throwingOn(name, files) {
  const fs = memoryFs(files);
  const read = fs.hostFs.read;
  fs.hostFs.read = (path, offset, len) => {
    if (path === name) {
      throw new Error('the back end crashed');
    }
    return read(path, offset, len);
  };
  return fs;
}
