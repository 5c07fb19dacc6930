// The tools for the Vercel AI SDK (`ai`): a `tools` object for
// `generateText`/`streamText`, each a `tool()` that runs the filetools call
// and shows the model its text and images (`toModelOutput`), errors as
// error text.
import { jsonSchema, tool } from 'ai';

import { resolveTools, textOf } from './common.js';

/** `await aiTools({ fs: nodeFs('.') })` (or an existing Tools, or a root directory in Node): `{ read, write, edit, undo, grep, find }`. */
export async function aiTools(toolsOrOptions) {
  const filetools = await resolveTools(toolsOrOptions);
  const tools = {};
  for (const definition of filetools.schema('mcp')) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema),
      execute: (input) => filetools.call(definition.name, input),
      toModelOutput: ({ output }) => modelOutput(output),
    });
  }
  return tools;
}

/** A filetools result as the AI SDK's tool output for the model. */
export function modelOutput(result) {
  if (result.isError) {
    return { type: 'error-text', value: textOf(result) };
  }
  return {
    type: 'content',
    value: result.content.map((block) =>
      block.type === 'image'
        ? { type: 'image-data', data: block.data, mediaType: block.mimeType }
        : { type: 'text', text: block.text },
    ),
  };
}
