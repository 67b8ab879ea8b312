import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../lambda/config.ts';

const env = {
  MAIL_TO: 'leads@example.co.uk',
  MAIL_FROM: 'Website <website@example.co.uk>',
  ALLOWED_ORIGINS: 'https://www.example.co.uk, https://Example.co.uk/ ,',
  AWS_REGION: 'eu-west-2',
  LEADS_TABLE: 'site-leads',
  LIMITS_TABLE: 'site-limits',
};

describe('readConfig', () => {
  it('reads and normalises the environment', () => {
    expect(readConfig(env)).toEqual({
      mailTo: 'leads@example.co.uk',
      mailFrom: 'Website <website@example.co.uk>',
      allowedOrigins: ['https://www.example.co.uk', 'https://example.co.uk'],
      region: 'eu-west-2',
      leadsTable: 'site-leads',
      retentionMonths: 24,
      limitsTable: 'site-limits',
      mailsPerHour: 30,
    });
  });

  it('takes the hourly cap on lead e-mails and the SES configuration set, and refuses a cap that is not a whole number', () => {
    expect(readConfig({ ...env, MAILS_PER_HOUR: '12', SES_CONFIGURATION_SET: 'site-leads' })).toMatchObject({ mailsPerHour: 12, sesConfigurationSet: 'site-leads' });
    expect(() => readConfig({ ...env, MAILS_PER_HOUR: 'lots' })).toThrow(/MAILS_PER_HOUR is not a whole number/);
    expect(() => readConfig({ ...env, MAILS_PER_HOUR: '0' })).toThrow(/MAILS_PER_HOUR/);
  });

  it('takes the leads retention period and a local DynamoDB endpoint, and refuses a period that is not whole months', () => {
    const config = readConfig({ ...env, LEAD_RETENTION_MONTHS: '36', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' });
    expect(config).toMatchObject({ retentionMonths: 36, dynamodbEndpoint: 'http://127.0.0.1:8000' });
    expect(() => readConfig({ ...env, LEAD_RETENTION_MONTHS: '1.5' })).toThrow(/LEAD_RETENTION_MONTHS is not a whole number/);
    expect(() => readConfig({ ...env, LEAD_RETENTION_MONTHS: '0' })).toThrow(/LEAD_RETENTION_MONTHS/);
  });

  it('takes an optional local SES endpoint', () => {
    expect(readConfig({ ...env, SES_ENDPOINT: 'http://127.0.0.1:8005' }).sesEndpoint).toBe('http://127.0.0.1:8005');
  });

  it('reports every problem at once', () => {
    let caught: unknown;
    try {
      readConfig({ MAIL_FROM: 'not an address', ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path, nope' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      'MAIL_TO is not set',
      "MAIL_FROM is not an e-mail address: 'not an address'",
      'AWS_REGION is not set',
      "ALLOWED_ORIGINS entry is not an origin like https://example.com: 'https://bad.example/path'",
      "ALLOWED_ORIGINS entry is not an origin like https://example.com: 'nope'",
      'LEADS_TABLE is not set',
      'LIMITS_TABLE is not set',
    ]);
  });

  it('refuses an empty origin list', () => {
    expect(() => readConfig({ ...env, ALLOWED_ORIGINS: ' , ' })).toThrow(/ALLOWED_ORIGINS/);
  });
});
