// Property: whatever JSON (or urlencoded text) arrives, the handler answers with a 2xx/3xx or
// 400 (never throws, never 500), stores exactly what the schema accepts, and e-mails it on its own
// exactly when no honeypot is set (a filled one is stored, flagged, for the digest). Whatever
// event arrives, however unlike the API's, it is answered and never thrown out of the handler.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../lambda/create-handler.ts';
import type { HttpEvent, HttpHandler } from '../../lambda/event.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { silentLogger } from '../../lambda/log.ts';
import type { MailSender } from '../../lambda/ses-client.ts';
import { isSpam, validateSubmission } from '../../lambda/submission.ts';
import { HONEYPOT_FIELD } from '../../forms/fields.ts';
import { ensureLimitsTable } from '../../lambda/leads/local-store.ts';
import { limitCounter } from '../../lambda/limits/counter.ts';
import type { LeadStore } from '../../lambda/leads/store.ts';
import { clearStore, event, jsonPost, ORIGIN, sesClientFor, startTestStore, storedEmails, testConfig, validContact, type TestStore } from './support.ts';

let ses: LocalSes;
let handler: HttpHandler;
let store: TestStore;
let leads: LeadStore;
let counting: MailSender;
/** A handler on a new, empty table: each run of a property starts with no lead stored. */
async function freshHandler(): Promise<void> {
  leads = await store.fresh();
  handler = createHandler({ ses: counting, leads, config: testConfig(), log: silentLogger });
}
/** Sends attempted through the real client; the store is checked against it once per property. */
let sends = 0;

beforeAll(async () => {
  ses = await startLocalSes();
  const client = sesClientFor(ses.endpoint);
  store = await startTestStore();
  counting = {
    send: (command) => {
      sends += 1;
      return client.send(command);
    },
  };
});
beforeEach(async () => {
  await clearStore(ses);
  sends = 0;
});
afterAll(async () => { await ses.close(); await store.close(); });

const junk = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** Mostly a valid value, sometimes a plausible mistake, sometimes anything at all. */
function field<T>(valid: readonly T[], invalid: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...invalid) },
    { weight: 1, arbitrary: junk },
  );
}

// Near-valid payloads, so the property is exercised on both sides of the schema: every field
// present (mostly valid, so that a fair share is accepted whatever the seed), or any of them missing.
const contactFields = {
  // Half an emoji and invisible direction overrides are valid input too: SES must still get them.
  name: field(['Morag', '  Jo  ', 'Ailsa Nic a\u2019 Phi', 'Jo \ud83d', '\u202eJo'], ['Jo\nBcc', '', ' ']),
  email: field(['jo@example.co.uk', 'a.b+c@d-e.scot'], ['jo@example', 'jo@ex.co.uk\r\nx', 'jo..b@x.co', '']),
  company: field(['Acme', '', 'R&D <Ltd>', '\udc00Acme\u2066'], ['A\rB']),
  message: field(['Hello', '<script>x</script>', 'line\nline', 'x\ud800y'], [' ', '']),
  isHuman: field([true], [false, 'on', 'true']),
  [HONEYPOT_FIELD]: fc.constantFrom('', '', '', 'http://spam.example', '  '),
};
const contactish = fc.oneof(fc.record(contactFields), fc.record(contactFields, { requiredKeys: [] }));
const answers = fc.record(
  {
    dataApproach: field(['not_sure', 'Not sure'], ['nope', '']),
    dataChallenges: field(['other', 'Something else'], ['Other ']),
    dataCulture: field(['some_teams'], ['some teams']),
    dataOwnership: field(['leadership'], [null]),
    organisationType: field(['sme', 'Public sector'], ['SME']),
    timeframe: field(['exploring'], ['soon']),
  },
  { requiredKeys: [] },
);
const assessmentish = fc
  .tuple(contactish, answers, field(['DIAlog Assessment'], ['Contact', '']))
  .map(([contact, assessmentData, formType]) => ({ ...contact, formType, assessmentData }));

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
  fc.anything({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value) ?? 'null') as unknown),
  { weight: 3, arbitrary: contactish },
  { weight: 3, arbitrary: assessmentish },
);

describe('the handler on arbitrary input', () => {
  it('never fails, stores only what the schema accepts, and e-mails it on its own only without the honeypot', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(anyJson, async (value) => {
        await freshHandler();
        const before = sends;
        const result = await handler(jsonPost(value));

        const shouldStore = validateSubmission(value).ok;
        const shouldSend = shouldStore && !isSpam(value);
        expect([200, 400]).toContain(result.statusCode);
        expect(result.statusCode === 200).toBe(shouldStore);
        expect(sends - before).toBe(shouldSend ? 1 : 0);
        // Stored first, and only what is accepted: invalid input leaves the table empty; spam is stored, flagged.
        const stored = await leads.all();
        expect(stored).toHaveLength(shouldStore ? 1 : 0);
        if (shouldStore) expect(Boolean(stored[0]!.likelySpam)).toBe(isSpam(value));
        if (shouldSend) accepted += 1;
      }),
      { numRuns: 250 },
    );
    // The generators must reach the accepting side for the property to mean much, and every
    // send must have reached the SES server.
    expect(accepted).toBeGreaterThan(5);
    expect(await storedEmails(ses)).toHaveLength(accepted);
  });

  it('never fails on arbitrary text sent as JSON or as a form post', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded'),
        fc.boolean(),
        async (body, contentType, base64) => {
          await freshHandler();
          const before = sends;
          const result = await handler(event(body, { contentType, base64 }));
          expect([200, 303, 400]).toContain(result.statusCode);
          if (result.statusCode === 400) {
            expect(sends).toBe(before);
            expect(await leads.all()).toHaveLength(0);
          }
        },
      ),
      { numRuns: 250 },
    );
  });

  it('answers any event at all, however unlike the API\'s (a numeric method, headers that are not text, no request context), without throwing', async () => {
    const client = store.local.client();
    await ensureLimitsTable(client, 'limits-any-event');
    const guarded = createHandler({ ses: counting, leads: await store.fresh(), limits: { counter: limitCounter(client, 'limits-any-event'), mailsPerHour: 30 }, config: testConfig(), log: silentLogger });
    const anyValue = fc.anything({ maxDepth: 2 });
    /** Mostly what the API sends, sometimes anything at all. */
    const mostly = <T,>(usual: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: anyValue });
    const text = mostly(fc.string({ maxLength: 20 }));
    const http = fc.record({
      method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('POST', 'post', 'GET', 'OPTIONS') }, { weight: 1, arbitrary: fc.integer() }, { weight: 1, arbitrary: anyValue }),
      sourceIp: mostly(fc.constantFrom('203.0.113.5', '2001:db8::1', '::ffff:192.0.2.1')),
    }, { requiredKeys: [] });
    const headers = mostly(fc.record({
      'content-type': mostly(fc.constantFrom('application/json', 'application/x-www-form-urlencoded')),
      origin: mostly(fc.constant(ORIGIN)),
    }, { requiredKeys: [] }));
    const anyEvent = fc.record({
      version: text,
      rawPath: text,
      headers,
      body: mostly(fc.oneof(fc.constant(JSON.stringify(validContact())), fc.string({ maxLength: 40 }))),
      isBase64Encoded: mostly(fc.constant(false)),
      requestContext: mostly(fc.record({ requestId: text, http: mostly(http) }, { requiredKeys: [] })),
    }, { requiredKeys: [] });
    let posted = 0;
    await fc.assert(
      fc.asyncProperty(anyEvent, async (value) => {
        const result = await guarded(value as HttpEvent);
        expect([200, 204, 303, 400, 403, 405, 413, 415, 429]).toContain(result.statusCode);
        if (result.statusCode === 200) posted += 1;
      }),
      { numRuns: 2000 },
    );
    expect(posted).toBeGreaterThan(0);
    // 2,000 posts through the handler, its store and SES: about 20 s on a quiet machine.
  }, 600_000);
});
