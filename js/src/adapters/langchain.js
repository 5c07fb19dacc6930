// The tools for LangChain (`@langchain/core`): one `tool()` per filetools
// tool. Called with a tool call, each answers with a ToolMessage whose
// status is `error` when the call failed, whose content has the images as
// image blocks, and whose artifact is the result's metadata.
import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';

import { resolveTools, textOf } from './common.js';

/**
 * `await langchainTools({ fs: nodeFs('.') }, { strict })` (or an existing
 * Tools, or a root directory in Node): an array of tools. LangChain turns a
 * tool's schema into OpenAI's parameters as it is and takes `strict` from
 * the binding (`bindTools(tools, { strict: true })`), so with `strict: true`
 * the schemas are the `openai-strict` parameters, which OpenAI's strict mode
 * accepts; the core takes `null` as absent.
 */
export async function langchainTools(toolsOrOptions, { strict = false } = {}) {
  const filetools = await resolveTools(toolsOrOptions);
  return definitions(filetools, strict).map((definition) =>
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

/** The name, description and input schema of every tool, strict or loose. */
function definitions(filetools, strict) {
  if (!strict) {
    return filetools.schema('mcp');
  }
  return filetools
    .schema('openai-strict')
    .map(({ function: f }) => ({ name: f.name, description: f.description, inputSchema: f.parameters }));
}
