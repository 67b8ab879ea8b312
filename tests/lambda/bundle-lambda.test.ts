// The Lambda artefact: a zip other tools can read, holding a bundle that runs on its own.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildLambda, type LambdaBuild } from '../../lambda/bundle-lambda.ts';
import type { HttpHandler } from '../../lambda/event.ts';
import { startLocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { startLocalSes } from '../../lambda/local-ses.ts';
import { createZip } from '../../lambda/zip.ts';
import { jsonPost, ORIGIN, validContact } from './support.ts';

const hasUnzip = (() => {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('createZip', () => {
  const files = [
    { name: 'index.mjs', data: Buffer.from('export const handler = () => 1;\n'.repeat(50)) },
    { name: 'lib/empty.txt', data: Buffer.alloc(0) },
  ];

  it('writes deflated entries whose bytes inflate back to the input', () => {
    const zip = createZip(files);
    // First local header: signature, method 8 at offset 8, sizes at 18/22, name at 30.
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.readUInt16LE(8)).toBe(8);
    const compressed = zip.readUInt32LE(18);
    const nameLength = zip.readUInt16LE(26);
    expect(zip.subarray(30, 30 + nameLength).toString()).toBe('index.mjs');
    const data = zip.subarray(30 + nameLength, 30 + nameLength + compressed);
    expect(inflateRawSync(data).equals(files[0]!.data)).toBe(true);
    expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
    expect(zip.readUInt16LE(zip.length - 12)).toBe(2);
  });

  it('is byte-for-byte reproducible', () => {
    expect(createZip(files).equals(createZip(files))).toBe(true);
  });

  it.skipIf(!hasUnzip)('passes unzip -t with readable permissions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zip-'));
    try {
      const path = join(dir, 'a.zip');
      await writeFile(path, createZip(files));
      expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
      expect(execFileSync('zipinfo', [path]).toString()).toMatch(/-rw-r--r--.*index\.mjs/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Runs fn with these environment variables set (undefined: unset), then puts them back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(before);
  }
}

const CONFIG_VARS = ['MAIL_TO', 'MAIL_FROM', 'ALLOWED_ORIGINS', 'AWS_REGION', 'SES_ENDPOINT'];
const unset = Object.fromEntries(CONFIG_VARS.map((k) => [k, undefined]));

describe('buildLambda', () => {
  let dir: string;
  let built: LambdaBuild;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lambda-build-'));
    built = await buildLambda({ outDir: dir });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes index.mjs and send-contact-form.zip', () => {
    expect(existsSync(join(dir, 'index.mjs'))).toBe(true);
    expect(existsSync(join(dir, 'send-contact-form.zip'))).toBe(true);
    expect(built.zipBytes).toBeLessThan(built.bundleBytes);
  });

  it('fails its cold start loudly when configuration is missing', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await withEnv(unset, async () => {
        await expect(import(`${pathToFileURL(built.bundlePath).href}?bare`)).rejects.toThrow(/MAIL_TO is not set/);
      });
      const logged = write.mock.calls.map((call) => String(call[0])).join('');
      expect(logged).toContain('"event":"config_error"');
    } finally {
      write.mockRestore();
    }
  });

  it('runs on its own: the bundled handler stores in DynamoDB and sends through SES from environment configuration', async () => {
    const ses = await startLocalSes();
    const dynamo = await startLocalStore();
    const vars = {
      ...unset,
      MAIL_TO: 'leads@example.co.uk',
      MAIL_FROM: 'website@example.co.uk',
      ALLOWED_ORIGINS: ORIGIN,
      AWS_REGION: 'eu-west-2',
      SES_ENDPOINT: ses.endpoint,
      LEADS_TABLE: dynamo.table,
      LIMITS_TABLE: dynamo.limitsTable,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
    };
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await withEnv(vars, async () => {
        const bundle = (await import(`${pathToFileURL(built.bundlePath).href}?configured`)) as { handler: HttpHandler };
        const result = await bundle.handler(jsonPost(validContact()));
        expect(result.statusCode).toBe(200);
      });
      const store = (await (await fetch(ses.storeUrl)).json()) as { emails: { replyTo: string[] }[] };
      expect(store.emails.map((e) => e.replyTo)).toContainEqual(['morag@tayside-example.co.uk']);
      const client = dynamo.client();
      const stored = await leadStore(client, dynamo.table).all();
      client.destroy();
      expect(stored.map((lead) => [lead.email, lead.mail.state])).toEqual([['morag@tayside-example.co.uk', 'sent']]);
    } finally {
      write.mockRestore();
      await ses.close();
      await dynamo.close();
    }
  });
});
