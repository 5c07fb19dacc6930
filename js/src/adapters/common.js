// What every SDK adapter shares: the tools it serves (given, or created
// from createTools options by the package's own entry for this platform)
// and the blocks of a result.

/**
 * `toolsOrOptions` when it is a Tools object; else new tools from it: the
 * options of createTools, or (in Node) a root directory for nodeFs.
 */
export async function resolveTools(toolsOrOptions) {
  if (typeof toolsOrOptions?.call === 'function' && typeof toolsOrOptions?.schema === 'function') {
    return toolsOrOptions;
  }
  const { createTools, nodeFs } = await import('agent-filetools');
  if (typeof toolsOrOptions === 'string') {
    if (typeof nodeFs !== 'function') {
      throw new TypeError('a root directory needs Node; elsewhere pass { fs: memoryFs(files) } or your own back end');
    }
    return createTools({ fs: nodeFs(toolsOrOptions) });
  }
  return createTools(toolsOrOptions);
}

/** The text blocks of `result`, joined as one string. */
export function textOf(result) {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** The image blocks of `result`. */
export function imagesOf(result) {
  return result.content.filter((block) => block.type === 'image');
}

/** An image block as a `data:` URL. */
export function dataUrl(image) {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** A tool call's arguments as an object, from an object or JSON text. */
export function parseArguments(args) {
  if (typeof args !== 'string') {
    return args ?? {};
  }
  // Malformed JSON goes to the core as it is, which says what is wrong.
  try {
    return JSON.parse(args || '{}');
  } catch {
    return args;
  }
}
