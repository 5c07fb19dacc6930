// An agent loop with filetools, for Node. The model is given the tool
// definitions; each tool call it makes is answered by `tools.call` with the
// model's own arguments, and the answer goes back as the tool result
// (MCP-shaped: content blocks, isError). Replace `scriptedModel` with a
// call to your model's API; everything else stays as it is.
//
//   node examples/agent.mjs DIR    (reads DIR/README.md and fixes a typo in it)
import { createTools, nodeFs } from 'agent-filetools';

/** Stands in for a model: asks for a read, then an edit, then answers. */
function scriptedModel() {
  const plan = [
    { tool: 'read', args: { file_path: 'README.md' } },
    { tool: 'edit', args: { file_path: 'README.md', old_string: 'teh', new_string: 'the' } },
  ];
  return async ({ tools, messages }) => {
    if (tools.length === 0) {
      throw new Error('the model was given no tools');
    }
    const step = plan.shift();
    if (step) {
      return { toolCalls: [{ id: `call-${messages.length}`, name: step.tool, arguments: step.args }] };
    }
    return { text: 'Fixed the typo in README.md.' };
  };
}

/** Runs the loop until the model answers in text; returns the transcript. */
export async function runAgent(root, model = scriptedModel()) {
  const tools = await createTools({ fs: nodeFs(root) });
  const definitions = tools.definitions();
  const messages = [{ role: 'user', content: 'Fix the typo in README.md.' }];
  for (let turn = 0; turn < 10; turn += 1) {
    const reply = await model({ tools: definitions, messages });
    if (!reply.toolCalls) {
      messages.push({ role: 'assistant', content: reply.text });
      return messages;
    }
    messages.push({ role: 'assistant', toolCalls: reply.toolCalls });
    for (const call of reply.toolCalls) {
      const result = await tools.call(call.name, call.arguments);
      messages.push({ role: 'tool', toolCallId: call.id, content: result.content, isError: result.isError });
    }
  }
  throw new Error('the agent did not finish in 10 turns');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = await runAgent(process.argv[2] ?? '.');
  for (const message of messages) {
    const body = message.content ?? message.toolCalls;
    console.log(`${message.role}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  }
}
