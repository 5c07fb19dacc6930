// The WASI interfaces the component imports, implemented here with what
// every JavaScript runtime has (performance.now, Date.now,
// crypto.getRandomValues, console), so the package needs no environment,
// file or clock permission beyond them — in Node, Deno, browsers and
// Workers alike. None reaches files, the network or the environment: the
// environment is empty, `exit` throws, stdin is empty, stdout is discarded
// and stderr (std's panic messages) goes to the console, line by line, as
// in the Rust host, whose WASI context grants nothing.

/** Bytes an output stream accepts at once. */
const WRITE_BUDGET = 1n << 20n;

/** Everything here is ready at once: nothing waits. */
class Pollable {
  block() {}
}

/** An I/O error (never produced). */
class IoError {}

/** An input stream with nothing in it. */
class InputStream {}

/** Where an output stream's bytes go, by stream. */
const sinks = new WeakMap();

/** An output stream that hands its bytes to a sink. */
class OutputStream {
  checkWrite() {
    return WRITE_BUDGET;
  }

  write(contents) {
    sinks.get(this)?.(contents);
  }

  blockingFlush() {}

  subscribe() {
    return new Pollable();
  }
}

/** A terminal (never one here). */
class TerminalInput {}
class TerminalOutput {}

/** An output stream whose bytes go to `sink`. */
function outputTo(sink) {
  const stream = new OutputStream();
  sinks.set(stream, sink);
  return stream;
}

/** A sink that prints whole lines with `print`. */
function lines(print) {
  const decoder = new TextDecoder();
  let pending = '';
  return (bytes) => {
    pending += decoder.decode(bytes, { stream: true });
    const end = pending.lastIndexOf('\n');
    if (end >= 0) {
      print(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  };
}

const randomU64 = () => crypto.getRandomValues(new BigUint64Array(1))[0];

export function wasiImports() {
  const stderr = outputTo(lines((text) => console.error(text)));
  const stdout = outputTo(() => {});
  const stdin = new InputStream();
  return {
    'wasi:cli/environment': {
      getEnvironment: () => [],
      getArguments: () => [],
      initialCwd: () => undefined,
    },
    'wasi:cli/exit': {
      exit: () => {
        throw new Error('the component asked to exit');
      },
    },
    'wasi:cli/stderr': { getStderr: () => stderr },
    'wasi:cli/stdin': { getStdin: () => stdin },
    'wasi:cli/stdout': { getStdout: () => stdout },
    'wasi:cli/terminal-input': { TerminalInput },
    'wasi:cli/terminal-output': { TerminalOutput },
    'wasi:cli/terminal-stderr': { getTerminalStderr: () => undefined },
    'wasi:cli/terminal-stdin': { getTerminalStdin: () => undefined },
    'wasi:cli/terminal-stdout': { getTerminalStdout: () => undefined },
    'wasi:clocks/monotonic-clock': {
      now: () => BigInt(Math.round(performance.now() * 1e6)),
      resolution: () => 1000n,
    },
    'wasi:clocks/wall-clock': {
      now: () => {
        const ms = Date.now();
        return { seconds: BigInt(Math.floor(ms / 1000)), nanoseconds: (ms % 1000) * 1e6 };
      },
      resolution: () => ({ seconds: 0n, nanoseconds: 1e6 }),
    },
    'wasi:io/error': { Error: IoError },
    'wasi:io/poll': { Pollable, poll: (list) => new Uint32Array(list.map((_, i) => i)) },
    'wasi:io/streams': { InputStream, OutputStream },
    'wasi:random/insecure-seed': { insecureSeed: () => [randomU64(), randomU64()] },
    'wasi:random/random': {
      getRandomBytes: (len) => crypto.getRandomValues(new Uint8Array(Number(len))),
      getRandomU64: randomU64,
    },
  };
}
