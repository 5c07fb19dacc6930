// The tools for LangChain (`@langchain/core`): one `tool()` per filetools
// tool. Called with a tool call, each answers with a ToolMessage whose
// status is `error` when the call failed, whose content has the images as
// image blocks, and whose artifact is the result's metadata.
import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';

import { resolveTools, textOf } from './common.js';

/** `await langchainTools({ fs: nodeFs('.') })` (or an existing Tools, or a root directory in Node): an array of tools. */
export async function langchainTools(toolsOrOptions) {
  const filetools = await resolveTools(toolsOrOptions);
  return filetools.schema('mcp').map((definition) =>
    tool(
      async (input, config) => {
        const result = await filetools.call(definition.name, input);
        const id = config?.toolCall?.id;
        if (!id) {
          return textOf(result);
        }
        return new ToolMessage({
          tool_call_id: id,
          name: definition.name,
          status: result.isError ? 'error' : 'success',
          content: result.content.map((block) =>
            block.type === 'image'
              ? { type: 'image', mimeType: block.mimeType, data: block.data }
              : { type: 'text', text: block.text },
          ),
          artifact: result.structuredContent,
        });
      },
      { name: definition.name, description: definition.description, schema: definition.inputSchema },
    ),
  );
}
