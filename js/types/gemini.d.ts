// Types of `agent-filetools/gemini`, in Google's Gen AI SDK's own types
// (`@google/genai`, an optional peer dependency) so that what the adapter
// gives goes into `generateContent` without a cast.
import type { Content, FunctionCall, FunctionDeclaration, GenerateContentResponse, Part, Tool } from '@google/genai';
import type { CallToolResult, CreateToolsOptions, Tools } from './index.js';

export interface GeminiTools {
  /** For `generateContent({ config: { tools } })`: one tool of every declaration. */
  tools: Tool[];
  /** The function declarations alone. */
  functionDeclarations: FunctionDeclaration[];
  /** The `functionResponse` part answering one function call. */
  result(call: FunctionCall): Promise<Part>;
  /** The user content answering every function call of a response, in order. */
  results(response: GenerateContentResponse | Content | Part[]): Promise<Content>;
  filetools: Tools;
}

export function geminiTools(toolsOrOptions: Tools | CreateToolsOptions | string): Promise<GeminiTools>;

/** The function calls of a response, of a content, or of a list of parts. */
export function functionCalls(response: GenerateContentResponse | Content | Part[]): FunctionCall[];

/** A filetools result as the `functionResponse` part answering `call`. */
export function functionResponse(call: FunctionCall, result: CallToolResult): Part;
