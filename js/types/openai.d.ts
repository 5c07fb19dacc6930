// Types of `agent-filetools/openai`, in the OpenAI SDK's own types
// (`openai`, an optional peer dependency) so that what the adapter gives
// goes into `chat.completions.create` and `responses.create` without a cast.
import type OpenAI from 'openai';
import type { CreateToolsOptions, Tools } from './index.js';

/** A Chat Completions tool message as the adapter makes it: the text of the result. */
export interface ChatToolMessage extends OpenAI.ChatCompletionToolMessageParam {
  content: string;
}

export interface OpenAIToolsOptions {
  /**
   * Every argument required and nullable, no other allowed, and `strict: true`
   * on every function tool, Chat Completions and Responses alike (the
   * `openai-strict` and `openai-responses-strict` schema formats); the core
   * takes `null` as absent.
   */
  strict?: boolean;
}

export interface OpenAITools {
  /** For `chat.completions.create({ tools })`. */
  chatTools: OpenAI.ChatCompletionFunctionTool[];
  /**
   * For `responses.create({ tools })`: function tools, each with `strict`,
   * and the built-in `apply_patch` with the apply-patch tool set.
   */
  responsesTools: Array<OpenAI.Responses.FunctionTool | OpenAI.Responses.ApplyPatchTool>;
  /**
   * The tool messages answering a chat message's function calls, then one
   * user message with the images they returned, if any.
   */
  chatResults(
    message: Pick<OpenAI.ChatCompletionMessage, 'tool_calls'>,
  ): Promise<Array<ChatToolMessage | OpenAI.ChatCompletionUserMessageParam>>;
  /**
   * The `function_call_output` and `apply_patch_call_output` items answering
   * a response's calls, run and returned in the response's order.
   */
  responsesResults(
    response: Pick<OpenAI.Responses.Response, 'output'>,
  ): Promise<
    Array<
      OpenAI.Responses.ResponseInputItem.FunctionCallOutput | OpenAI.Responses.ResponseInputItem.ApplyPatchCallOutput
    >
  >;
  filetools: Tools;
}

export function openaiTools(
  toolsOrOptions: Tools | CreateToolsOptions | string,
  options?: OpenAIToolsOptions,
): Promise<OpenAITools>;
