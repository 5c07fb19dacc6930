// The tools for Google's Gen AI SDK (`@google/genai`): the function
// declarations for `generateContent({ config: { tools } })`, and the user
// content answering every function call of a response with a
// `functionResponse` part: the text as `output` (as `error` when the call
// failed), the images a read returned as the response's own inline parts.
import { imagesOf, resolveTools, textOf } from './common.js';

/**
 * `await geminiTools({ fs: nodeFs('.') })` (or an existing Tools, or a
 * root directory in Node): `{ tools, functionDeclarations, results(response),
 * result(functionCall), filetools }`.
 */
export async function geminiTools(toolsOrOptions) {
  const filetools = await resolveTools(toolsOrOptions);
  const functionDeclarations = filetools.schema('gemini');
  const result = async (call) => functionResponse(call, await filetools.call(call.name, call.args ?? {}));
  return {
    tools: [{ functionDeclarations }],
    functionDeclarations,
    result,
    /** The user content answering every function call of `response`, in order. */
    results: async (response) => {
      const parts = [];
      for (const call of functionCalls(response)) {
        parts.push(await result(call));
      }
      return { role: 'user', parts };
    },
    filetools,
  };
}

/**
 * The function calls of a response (a `GenerateContentResponse` or its
 * JSON), of a `Content`, or a list of parts.
 */
export function functionCalls(response) {
  const parts = Array.isArray(response)
    ? response
    : (response?.parts ?? response?.candidates?.[0]?.content?.parts ?? []);
  return parts.filter((part) => part.functionCall).map((part) => part.functionCall);
}

/** A filetools result as the `functionResponse` part answering `call`. */
export function functionResponse(call, result) {
  const answer = { name: call.name, response: { [result.isError ? 'error' : 'output']: textOf(result) } };
  if (call.id !== undefined) {
    answer.id = call.id;
  }
  const images = imagesOf(result);
  if (images.length) {
    answer.parts = images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }));
  }
  return { functionResponse: answer };
}
