// The Gemini adapter against Google's Gen AI SDK (`@google/genai`): the
// SDK builds the requests (through a scripted fetch, no network) and parses
// the responses, so what the adapter declares must survive the SDK's own
// conversion of tools unchanged, and its answers the SDK's conversion of
// contents. The scripted model turn reads a file and an image, edits,
// calls a tool that does not exist and passes a wrong argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GoogleGenAI } from '@google/genai';

import { geminiTools } from 'agent-filetools/gemini';
import { createTools, memoryFs } from 'agent-filetools';

import { scriptFiles } from './script.mjs';

const SETS = ['filetools', 'text-editor', 'apply-patch', 'mcp-filesystem', 'notebook'];

/** Runs `body` with a fetch that answers `replies` in turn; the request bodies. */
async function scripted(replies, body) {
  const bodies = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (_url, init) => {
    bodies.push(JSON.parse(init.body));
    const reply = replies[bodies.length - 1];
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  try {
    await body();
  } finally {
    globalThis.fetch = original;
  }
  return bodies;
}

const client = () => new GoogleGenAI({ apiKey: 'test-key' });

/** A model response calling each `[name, args]`. */
function calling(calls) {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: calls.map(([name, args], i) => ({ functionCall: { id: `c${i}`, name, args } })),
        },
        finishReason: 'STOP',
      },
    ],
  };
}

test('the gemini declarations of every tool set go through the SDK to the API unchanged', async () => {
  for (const set of SETS) {
    const ft = await geminiTools({ fs: memoryFs(), config: { tools: [set] } });
    const bodies = await scripted([calling([])], async () => {
      await client().models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'hi',
        config: { tools: ft.tools },
      });
    });
    assert.deepEqual(bodies[0].tools, [{ functionDeclarations: ft.functionDeclarations }], set);
    for (const declaration of ft.functionDeclarations) {
      assert.deepEqual(Object.keys(declaration), ['name', 'description', 'parameters'], set);
      assert.equal(declaration.parameters.type, 'OBJECT', `${set} ${declaration.name}`);
    }
  }
});

test('a scripted model turn is answered through the SDK: text, an image, an edit, refusals, in order', async () => {
  const fs = memoryFs(Object.fromEntries(scriptFiles()));
  const ft = await geminiTools({ fs });
  const ai = client();
  const turn = calling([
    ['read', { file_path: 'notes.txt' }],
    ['read', { file_path: 'pic.png' }],
    ['edit', { file_path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' }],
    ['edit', { file_path: 7, old_string: 'x', new_string: 'y' }],
    ['bash', { command: 'ls' }],
  ]);
  let answer;
  const bodies = await scripted(
    [turn, { candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] } }] }],
    async () => {
      const contents = [{ role: 'user', parts: [{ text: 'Fix notes.txt' }] }];
      const response = await ai.models.generateContent({ model: 'm', contents, config: { tools: ft.tools } });
      assert.equal(response.functionCalls.length, 5);
      answer = await ft.results(response);
      contents.push(response.candidates[0].content, answer);
      const done = await ai.models.generateContent({ model: 'm', contents, config: { tools: ft.tools } });
      assert.equal(done.text, 'Done.');
    },
  );
  const parts = answer.parts.map((part) => part.functionResponse);
  assert.deepEqual(
    parts.map((p) => [p.id, p.name, Object.keys(p.response)[0]]),
    [
      ['c0', 'read', 'output'],
      ['c1', 'read', 'output'],
      ['c2', 'edit', 'output'],
      ['c3', 'edit', 'error'],
      ['c4', 'bash', 'error'],
    ],
  );
  assert.match(parts[0].response.output, /alpha/);
  assert.equal(parts[1].parts[0].inlineData.mimeType, 'image/png');
  assert.match(parts[2].response.output, /ALPHA/);
  assert.match(parts[4].response.error, /bash/);
  // What the SDK sent back is the adapter's answer, as it was.
  assert.deepEqual(bodies[1].contents.at(-1), answer);
  // And the same session, called directly, saw the same edit.
  const direct = await createTools({ fs });
  assert.match((await direct.call('read', { file_path: 'notes.txt' })).content[0].text, /ALPHA/);
});
