// Every conformance case under tests/cases/ on the npm package, over both
// back ends: the transcript must equal expected.txt (written by the
// wasmtime host) byte for byte, and the files left must be those of
// fs.after/ (or the starting files). Both back ends must run the same cases,
// and all of them. Every answer's structured content must fit its tool's
// MCP output schema, checked by the validator the MCP TypeScript SDK's
// client checks it with.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

import { createTools, memoryFs, nodeFs } from '../src/node.js';
import { externalInMemory, firstDifference, parseSteps, runSteps, sameFiles } from '../playground/cases.js';
import { caseNames, casesDir, externalOnDisk, layOut, readTree } from './cases.mjs';

const backEnds = {
  nodeFs: async (name, config) => {
    const root = join(tmpdir(), 'filetools-js-cases', name.replace('/', '-'));
    layOut(name, root);
    const fresh = () => createTools({ fs: nodeFs(root), config });
    const tools = await fresh();
    return { tools, fresh, external: (change) => externalOnDisk(root, change), files: () => readTree(root) };
  },
  memoryFs: async (name, config) => {
    const files = {};
    for (const [path, data] of readTree(join(casesDir, name, 'tree'))) {
      files[path] = data;
    }
    const memory = memoryFs(files);
    const fresh = () => createTools({ fs: memory, config });
    const tools = await fresh();
    return { tools, fresh, external: (change) => externalInMemory(memory, change), files: () => memory.files() };
  },
};

const validator = new AjvJsonSchemaValidator();

/**
 * `tools` whose every answer is checked against its tool's MCP output
 * schema; what does not fit goes to `misfits`.
 */
function schemaChecked(tools, name, misfits) {
  const check = new Map(
    tools.schema('mcp').map((t) => [t.name, t.outputSchema && validator.getValidator(t.outputSchema)]),
  );
  return {
    forgetOutputs: () => tools.forgetOutputs(),
    call: async (tool, args) => {
      const result = await tools.call(tool, args);
      const fits = check.get(tool);
      if (fits && result.structuredContent !== undefined && result.structuredContent !== null) {
        const verdict = fits(result.structuredContent);
        if (!verdict.valid) {
          misfits.push(
            `${name}: ${tool} answered ${JSON.stringify(result.structuredContent)}: ${verdict.errorMessage}`,
          );
        }
      }
      return result;
    },
  };
}

test('every case gives the wasmtime transcript on both back ends', async () => {
  const names = caseNames();
  assert.ok(names.length > 50, `only ${names.length} cases`);
  const ran = {};
  const failures = [];
  for (const [backEnd, open] of Object.entries(backEnds)) {
    ran[backEnd] = [];
    for (const name of names) {
      const dir = join(casesDir, name);
      const config = fs.readFileSync(join(dir, 'config.json'), 'utf8');
      const steps = parseSteps(fs.readFileSync(join(dir, 'steps.jsonl'), 'utf8'));
      const expected = fs.readFileSync(join(dir, 'expected.txt'), 'utf8');
      const host = await open(name, config);
      const checked = (tools) => schemaChecked(tools, name, failures);
      const fresh = async () => checked(await host.fresh());
      const transcript = await runSteps(checked(host.tools), steps, host.external, fresh);
      ran[backEnd].push(name);
      if (transcript !== expected) {
        failures.push(
          `${name} on ${backEnd}: transcript differs from expected.txt\n${firstDifference(expected, transcript)}`,
        );
      }
      if (!sameFiles(readTree(join(dir, 'after')), host.files())) {
        failures.push(`${name} on ${backEnd}: the files left differ from fs.after/ (or the starting files)`);
      }
    }
  }
  assert.deepEqual(ran.nodeFs, ran.memoryFs, 'the back ends ran different case sets');
  assert.deepEqual(ran.nodeFs, names, 'not every case ran');
  assert.equal(failures.length, 0, failures.join('\n\n'));
});
