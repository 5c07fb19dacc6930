// The tools for Mastra (`@mastra/core` 0.24): a `tools` object for an
// `Agent`, each a `createTool()` whose input schema is the tool's JSON
// Schema and which runs the filetools call. Mastra 0.24 shows the model a
// tool's output as it is (text, or JSON), so the output is the answer's
// text, and `{ error: true, message }` when the call failed.
import { createTool } from '@mastra/core/tools';

import { parseArguments, resolveTools, textOf } from './common.js';

/** `await mastraTools({ fs: nodeFs('.') })` (or an existing Tools, or a root directory in Node): `{ read, write, edit, undo, grep, find }`. */
export async function mastraTools(toolsOrOptions) {
  const filetools = await resolveTools(toolsOrOptions);
  const tools = {};
  for (const definition of filetools.schema('mcp')) {
    tools[definition.name] = createTool({
      id: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      // Mastra checks arguments only against a zod schema; the core checks these.
      execute: async ({ context }) => modelOutput(await filetools.call(definition.name, parseArguments(context))),
    });
  }
  return tools;
}

/**
 * A filetools result as a Mastra tool's output: its text, or, when the call
 * failed, `{ error: true, message }`, the shape Mastra gives a call it
 * refused itself. A tool's output has no place for images in Mastra 0.24.
 */
export function modelOutput(result) {
  if (result.isError) {
    return { error: true, message: textOf(result) };
  }
  return textOf(result);
}
