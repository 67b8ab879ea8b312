// The alarms the lead model counts on, read from the stack itself (infra/, synthesised in-process by
// stack-alarms.ts) and evaluated as CloudWatch evaluates them over what the retry mailer really logs
// (its embedded-metric line) against dynalite: a lead left to the owner fires the unsent alarm, a
// lead set aside the set-aside alarm, a report Lambda gave up on the dead letters' alarm, and a quiet
// run none. Removing one of these alarms from infra/, or raising its threshold past what one lead
// makes, fails this file (and leaves the model's invariants without their alarm).
import { beforeAll, describe, expect, it } from 'vitest';
import { createResendJob } from '../../lambda/leads/resend-job.ts';
import { newLead } from '../../lambda/leads/new-lead.ts';
import type { LeadRecord } from '../../lambda/leads/record.ts';
import { METRIC_NAMESPACE, METRICS } from '../../lambda/metrics.ts';
import { validateContact } from '../../forms/contact.ts';
import { alarmOn, metricsLogger, QUEUE_DEPTH, stackAlarms, type AlarmRule, type Datapoint } from './stack-alarms.ts';
import { sesClientFor, testConfig, useLeadBackends, validContact } from './support.ts';

const backends = useLeadBackends();
let rules: AlarmRule[];
beforeAll(() => { rules = stackAlarms(); }, 600_000);

const NOW = new Date('2026-09-01T10:02:00Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

function lead(id: string, mail: Partial<LeadRecord['mail']>): LeadRecord {
  const checked = validateContact(validContact({ name: `Lead ${id}` }));
  if (!checked.ok) throw new Error('invalid fixture');
  const record = newLead({ form: 'contact', data: checked.data }, { submissionId: id, receivedAt: new Date(ago(60)), source: 'https://www.example.co.uk/contact', retentionMonths: 24 });
  return { ...record, mail: { ...record.mail, version: 3, ...mail } };
}

/** One retry-mailer run at NOW, its log read as CloudWatch Logs reads it. */
async function mailerRun(): Promise<{ datapoints: Datapoint[]; report: Awaited<ReturnType<ReturnType<typeof createResendJob>>> }> {
  const datapoints: Datapoint[] = [];
  const report = await createResendJob({ ses: sesClientFor(backends.ses.endpoint), leads: backends.leads, config: testConfig(), log: metricsLogger(datapoints), now: () => NOW })();
  return { datapoints, report };
}

const at = NOW.getTime();

describe("the stack's lead alarms, over what the mailer logs", () => {
  it('a lead left to the owner (two sends that may have arrived) puts the unsent alarm in ALARM', async () => {
    await backends.leads.putRaw(lead('owner-only', { attempts: 2, maybeSent: 2, lastError: 'unanswered', lastAttemptAt: ago(40) }));
    const { datapoints, report } = await mailerRun();
    expect(report.uncertain).toEqual([{ submissionId: 'owner-only' }]);
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.stuck, datapoints, at)).toBe(true);
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.setAside, datapoints, at)).toBe(false);
  });

  it('a lead SES refused twice, set aside, puts the set-aside alarm in ALARM', async () => {
    await backends.leads.putRaw({ ...lead('refused-twice', { attempts: 2, refusals: 2, lastError: 'refused', lastAttemptAt: ago(20) }), receivedAt: ago(25) });
    const { datapoints, report } = await mailerRun();
    expect(report.setAside.map((s) => s.submissionId)).toEqual(['refused-twice']);
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.setAside, datapoints, at)).toBe(true);
  });

  it('a run with nothing unsent fires neither; a mailer that logs nothing at all is the unsent alarm', async () => {
    const { datapoints } = await mailerRun();
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.stuck, datapoints, at)).toBe(false);
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.setAside, datapoints, at)).toBe(false);
    expect(alarmOn(rules, METRIC_NAMESPACE, METRICS.stuck, [], at)).toBe(true);
  });

  it("one SES report dead-lettered puts the dead letters' alarm in ALARM; an empty queue does not", () => {
    expect(alarmOn(rules, QUEUE_DEPTH.namespace, QUEUE_DEPTH.name, [{ ...QUEUE_DEPTH, at, value: 1 }], at)).toBe(true);
    expect(alarmOn(rules, QUEUE_DEPTH.namespace, QUEUE_DEPTH.name, [{ ...QUEUE_DEPTH, at, value: 0 }], at)).toBe(false);
  });
});
