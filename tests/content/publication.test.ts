import { describe, expect, it } from 'vitest';
import { instantOf, londonDateTime, londonTimeOf, nextChange, publicationStatus } from '../../src/content/publication.ts';

describe('instantOf', () => {
  it('reads a bare date as midnight UK time, in winter (GMT) and in summer (BST)', () => {
    expect(instantOf('2026-12-01')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(instantOf('2026-07-01')?.toISOString()).toBe('2026-06-30T23:00:00.000Z');
    // The days the clocks change: midnight comes before the 01:00 UTC switch.
    expect(instantOf('2026-03-29')?.toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(instantOf('2026-10-25')?.toISOString()).toBe('2026-10-24T23:00:00.000Z');
  });

  it('reads a date-time by its own offset', () => {
    expect(instantOf('2026-12-01T09:00:00+00:00')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(instantOf('2026-06-01T09:30+01:00')?.toISOString()).toBe('2026-06-01T08:30:00.000Z');
    expect(instantOf('2026-06-01T09:30:15.5Z')?.toISOString()).toBe('2026-06-01T09:30:15.500Z');
  });

  it('refuses a time without an offset, a date that does not exist, and other shapes', () => {
    for (const bad of ['2026-12-01T09:00:00', '2026-02-30', '2026-02-30T09:00Z', '2026-12-01T24:00Z', '2026-12-01T25:00Z', '1/12/2026', '2026-12-1', 'tomorrow', '']) {
      expect(instantOf(bad), bad).toBeUndefined();
    }
  });
});

describe('London clock text', () => {
  it('formats a moment as the deploy runner reads a UK clock', () => {
    expect(londonDateTime(new Date('2026-12-01T09:00:00Z'))).toBe('2026-12-01 09:00 Europe/London');
    expect(londonDateTime(new Date('2026-06-30T23:00:00Z'))).toBe('2026-07-01 00:00 Europe/London');
    expect(londonTimeOf('2026-06-01T09:30+01:00')).toBe('09:30');
    expect(londonTimeOf('2026-06-01')).toBeUndefined();
  });
});

describe('publicationStatus', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('keeps a draft out whatever its dates say', () => {
    expect(publicationStatus({ draft: true }, now)).toBe('draft');
    expect(publicationStatus({ draft: true, publishDate: '2020-01-01' }, now)).toBe('draft');
    expect(publicationStatus({ draft: false }, now)).toBe('live');
  });

  it('is scheduled until its publish moment and live from that moment on', () => {
    const post = { publishDate: '2026-06-01T13:00:00+01:00' };
    expect(publicationStatus(post, new Date('2026-06-01T11:59:59Z'))).toBe('scheduled');
    expect(publicationStatus(post, new Date('2026-06-01T12:00:00Z'))).toBe('live');
  });

  it('is live until its expiry moment and expired from that moment on', () => {
    const post = { publishDate: '2026-01-01', expiryDate: '2026-07-01' };
    expect(publicationStatus(post, new Date('2026-06-30T22:59:59Z'))).toBe('live');
    expect(publicationStatus(post, new Date('2026-06-30T23:00:00Z'))).toBe('expired');
  });
});

describe('nextChange', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('finds the earliest future publish or expiry, with every article that changes then', () => {
    const next = nextChange([
      { slug: 'later', publishDate: '2027-01-01' },
      { slug: 'how-to-plan', publishDate: '2026-12-01T09:00:00Z' },
      { slug: 'old-offer', publishDate: '2026-01-01', expiryDate: '2026-12-01T09:00:00+00:00' },
      { slug: 'gone', expiryDate: '2026-05-01' },
      { slug: 'unfinished', draft: true, publishDate: '2026-07-01' },
      { slug: 'plain' },
    ], now);
    expect(next).toEqual({ at: new Date('2026-12-01T09:00:00Z'), publishes: ['how-to-plan'], expires: ['old-offer'] });
  });

  it('is undefined when nothing is dated in the future, and ignores drafts', () => {
    expect(nextChange([{ slug: 'a', publishDate: '2026-01-01' }, { slug: 'b', draft: true, publishDate: '2027-01-01' }], now)).toBeUndefined();
  });
});
