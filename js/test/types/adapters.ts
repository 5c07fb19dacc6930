// Compiled (never run) by scripts/check-types.mjs: what the adapters give
// goes into each SDK's own request types without a cast.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ToolSet } from 'ai';
import type { StructuredToolInterface } from '@langchain/core/tools';

import { anthropicTools } from 'agent-filetools/anthropic';
import { openaiTools } from 'agent-filetools/openai';
import { aiTools } from 'agent-filetools/ai';
import { langchainTools } from 'agent-filetools/langchain';
import { memoryFs } from 'agent-filetools';

export async function requests(): Promise<void> {
  const fs = memoryFs({ 'a.txt': 'a\n' });
  const anthropic = await anthropicTools({ fs });
  const message: Anthropic.MessageCreateParams = {
    model: 'm',
    max_tokens: 100,
    tools: anthropic.tools,
    messages: [{ role: 'user', content: 'hi' }, await anthropic.results({ content: [] })],
  };
  const openai = await openaiTools({ fs }, { strict: true });
  const chat: OpenAI.ChatCompletionCreateParams = { model: 'm', messages: [], tools: openai.chatTools };
  const responses: OpenAI.Responses.ResponseCreateParams = { model: 'm', tools: openai.responsesTools };
  const ai: ToolSet = await aiTools({ fs });
  const langchain: StructuredToolInterface[] = await langchainTools({ fs });
  void [message, chat, responses, ai, langchain];
}
