// The tools for the OpenAI SDK (`openai`): function tools for Chat
// Completions and for the Responses API (strict or not), and the messages
// or items that answer a response's tool calls. A Chat Completions tool
// message holds text only, so the images a read returned follow the tool
// messages in one user message; the Responses API takes them in the
// `function_call_output` itself. With the apply-patch tool set the
// Responses tools name the built-in `apply_patch` (the core's Responses
// formats give it), and its `apply_patch_call` items are answered as
// `apply_patch_call_output`.
import { dataUrl, imagesOf, parseArguments, resolveTools, textOf } from './common.js';

/**
 * `await openaiTools({ fs: nodeFs('.') }, { strict })` (or an existing Tools, or a root directory in Node): `{ chatTools, responsesTools, chatResults(message),
 * responsesResults(response), filetools }`. With `strict: true` every
 * function tool, Chat Completions and Responses alike, is strict: every
 * argument required and nullable; the core takes `null` as absent.
 */
export async function openaiTools(toolsOrOptions, { strict = false } = {}) {
  const filetools = await resolveTools(toolsOrOptions);
  const run = (name, args) => filetools.call(name, parseArguments(args));
  const answerPatch = async (call) => {
    const result = await run('apply_patch', { operation: call.operation });
    return {
      type: 'apply_patch_call_output',
      call_id: call.call_id,
      status: result.isError ? 'failed' : 'completed',
      output: textOf(result),
    };
  };
  const answerFunction = async (call) => {
    const result = await run(call.name, call.arguments);
    const images = imagesOf(result);
    return {
      type: 'function_call_output',
      call_id: call.call_id,
      output: images.length
        ? [
            { type: 'input_text', text: textOf(result) },
            ...images.map((image) => ({ type: 'input_image', image_url: dataUrl(image) })),
          ]
        : textOf(result),
    };
  };
  return {
    chatTools: filetools.schema(strict ? 'openai-strict' : 'openai'),
    responsesTools: filetools.schema(strict ? 'openai-responses-strict' : 'openai-responses'),
    /** The messages answering every tool call of a chat `message`. */
    chatResults: async (message) => {
      const messages = [];
      const images = [];
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') {
          continue;
        }
        const result = await run(call.function.name, call.function.arguments);
        messages.push({ role: 'tool', tool_call_id: call.id, content: textOf(result) });
        for (const image of imagesOf(result)) {
          images.push({ type: 'text', text: `The image ${call.function.name} returned for call ${call.id}:` });
          images.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
        }
      }
      if (images.length) {
        messages.push({ role: 'user', content: images });
      }
      return messages;
    },
    /**
     * The `function_call_output` (and `apply_patch_call_output`) items
     * answering a Responses API response, in the response's order: a call
     * may read or patch what an earlier one wrote.
     */
    responsesResults: async (response) => {
      const items = [];
      for (const call of response.output ?? []) {
        if (call.type === 'apply_patch_call') {
          items.push(await answerPatch(call));
        } else if (call.type === 'function_call') {
          items.push(await answerFunction(call));
        }
      }
      return items;
    },
    filetools,
  };
}
