// Compiled (never run) by scripts/check-types.mjs: what the adapters give
// goes into each SDK's own request types, and what each SDK answers goes
// into the adapters, without a single cast.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ToolResultPart, ToolSet } from 'ai';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

import { anthropicTools } from 'agent-filetools/anthropic';
import { openaiTools } from 'agent-filetools/openai';
import { aiTools, modelOutput } from 'agent-filetools/ai';
import { langchainTools } from 'agent-filetools/langchain';
import { geminiTools } from 'agent-filetools/gemini';
import type { Content, GoogleGenAI } from '@google/genai';
import { Agent } from '@mastra/core/agent';
import type { AgentConfig, ToolsInput } from '@mastra/core/agent';
import { mastraTools, modelOutput as mastraOutput } from 'agent-filetools/mastra';
import type { MastraToolOutput } from 'agent-filetools/mastra';
import { createTools, memoryFs } from 'agent-filetools';
import type { MemoryFsNode, MemoryFsOptions } from 'agent-filetools';

/** Anthropic: a response's tool calls answered and sent back. */
export async function anthropicRoundTrip(client: Anthropic, strict: boolean): Promise<Anthropic.Message> {
  const ft = await anthropicTools({ fs: memoryFs({ 'a.txt': 'a\n' }) }, { strict });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
  const response: Anthropic.Message = await client.messages.create({
    model: 'm',
    max_tokens: 100,
    tools: ft.tools,
    messages,
  });
  const [use] = response.content.filter((block) => block.type === 'tool_use');
  const one: Anthropic.ToolResultBlockParam = await ft.result(use);
  messages.push({ role: 'assistant', content: response.content }, await ft.results(response), {
    role: 'user',
    content: [one],
  });
  return client.messages.create({ model: 'm', max_tokens: 100, tools: ft.tools, messages });
}

/** OpenAI Chat Completions: the assistant message and its answers, in the next request. */
export async function chatRoundTrip(client: OpenAI, strict: boolean): Promise<OpenAI.ChatCompletion> {
  const ft = await openaiTools({ fs: memoryFs({ 'a.txt': 'a\n' }) }, { strict });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];
  const completion = await client.chat.completions.create({ model: 'm', tools: ft.chatTools, messages });
  const message = completion.choices[0].message;
  messages.push(message, ...(await ft.chatResults(message)));
  const request: OpenAI.ChatCompletionCreateParams = { model: 'm', tools: ft.chatTools, messages };
  return client.chat.completions.create({ ...request, stream: false });
}

/** OpenAI Responses: a response's calls answered as the next request's input. */
export async function responsesRoundTrip(client: OpenAI, strict: boolean): Promise<OpenAI.Responses.Response> {
  const ft = await openaiTools(
    { fs: memoryFs({ 'a.txt': 'a\n' }), config: { tools: ['apply-patch', 'filetools'] } },
    { strict },
  );
  const tools: OpenAI.Responses.Tool[] = ft.responsesTools;
  const response: OpenAI.Responses.Response = await client.responses.create({ model: 'm', tools, input: 'hi' });
  const input: OpenAI.Responses.ResponseInput = await ft.responsesResults(response);
  const request: OpenAI.Responses.ResponseCreateParams = {
    model: 'm',
    tools,
    previous_response_id: response.id,
    input,
  };
  return client.responses.create({ ...request, stream: false });
}

/** The AI SDK: a ToolSet, and the output its tools show the model as a tool result part's. */
export async function aiToolSet(): Promise<ToolSet> {
  const fs = memoryFs({ 'a.txt': 'a\n' });
  const part: ToolResultPart = {
    type: 'tool-result',
    toolCallId: 't',
    toolName: 'read',
    output: modelOutput(await (await createTools({ fs })).read({ file_path: 'a.txt' })),
  };
  void part;
  return aiTools({ fs });
}

/** LangChain: strict tools bind as any tools do, and convert to an OpenAI tool. */
export async function langchainStrict(): Promise<BindToolsInput[]> {
  const tools: StructuredToolInterface[] = await langchainTools({ fs: memoryFs() }, { strict: true });
  void convertToOpenAITool(tools[0], { strict: true });
  return tools;
}

/** memoryFs over a store with a Map's methods. */
export function storedFs(): void {
  const store = new Map<string, MemoryFsNode>();
  const options: MemoryFsOptions = { readOnly: false, store };
  memoryFs({ 'a.txt': 'a\n', 'b.bin': new Uint8Array([1]) }, options).addFile('c.txt', 'c');
}

/** Gemini: a response's function calls answered and sent back. */
export async function geminiRoundTrip(client: GoogleGenAI): Promise<string | undefined> {
  const ft = await geminiTools({ fs: memoryFs({ 'a.txt': 'a\n' }) });
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'hi' }] }];
  const response = await client.models.generateContent({ model: 'm', contents, config: { tools: ft.tools } });
  const answer: Content = await ft.results(response);
  contents.push(response.candidates?.[0]?.content ?? { role: 'model', parts: [] }, answer);
  const again = await client.models.generateContent({
    model: 'm',
    contents,
    config: { tools: [{ functionDeclarations: ft.functionDeclarations }] },
  });
  return again.text;
}

/** Mastra: the tools of an Agent, and what one of them gives the model. */
export async function mastraAgent(model: AgentConfig['model']): Promise<Agent> {
  const fs = memoryFs({ 'a.txt': 'a\n' });
  const output: MastraToolOutput = mastraOutput(await (await createTools({ fs })).read({ file_path: 'a.txt' }));
  void output;
  const tools: ToolsInput = await mastraTools({ fs });
  return new Agent({ name: 'filetools', instructions: 'Fix the typo.', model, tools });
}
