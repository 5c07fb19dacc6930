// The tools for the Anthropic SDK (`@anthropic-ai/sdk`): definitions for
// `messages.create({ tools })` (strict or not), and the user message
// answering every `tool_use` block of a response with a `tool_result`
// (images as image blocks, errors with `is_error`).
import { resolveTools } from './common.js';

/**
 * `await anthropicTools({ fs: nodeFs('.') }, { strict })` (or an existing Tools, or a root directory in Node):
 * `{ tools, results(message), result(toolUse), filetools }`. With `strict:
 * true` the tools carry `strict: true` and schemas Anthropic's strict tool
 * use accepts, so the model's input always matches them.
 */
export async function anthropicTools(toolsOrOptions, { strict = false } = {}) {
  const filetools = await resolveTools(toolsOrOptions);
  const result = async (toolUse) => toolResult(toolUse.id, await filetools.call(toolUse.name, toolUse.input));
  return {
    tools: filetools.schema(strict ? 'anthropic-strict' : 'anthropic'),
    result,
    /** The user message answering every tool_use block of `message`. */
    results: async (message) => {
      const uses = (message.content ?? []).filter((block) => block.type === 'tool_use');
      const content = [];
      for (const use of uses) {
        content.push(await result(use));
      }
      return { role: 'user', content };
    },
    filetools,
  };
}

/** A filetools result as an Anthropic `tool_result` block. */
export function toolResult(toolUseId, result) {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: result.content.map((block) =>
      block.type === 'image'
        ? { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } }
        : { type: 'text', text: block.text },
    ),
    is_error: result.isError,
  };
}
