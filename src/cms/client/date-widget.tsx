// A date as an author types it: the browser's own date input (in a UK browser, day/month/year),
// its value kept exactly as the browser reports it. Decap's datetime widget re-parsed each value
// while the year was being typed and wrote back another year (1906 for 2026). `time: true` adds an
// optional time of day, UK time, saved with its offset. An optional date has a Clear button: a
// cleared date is left out of the file (see empty-fields.ts).
import { Component, type ChangeEvent } from 'react';

interface Props {
  value?: unknown;
  onChange(value: string): void;
  forID: string;
  classNameWrapper: string;
  field: { get(key: string, fallback?: unknown): unknown };
  setActiveStyle(): void;
  setInactiveStyle(): void;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date and time of day a stored value holds, as the inputs want them ('2026-11-20', '09:00'). */
export function partsOf(value: unknown): { day: string; time: string } {
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : '';
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/.exec(text);
  return { day: m?.[1] ?? '', time: m?.[2] ?? '' };
}

/** Europe/London's offset at that wall-clock time, as ISO writes it ('+01:00'). */
export function londonOffset(day: string, time: string): string {
  const at = new Date(`${day}T${time}:00Z`);
  const name = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}:\d{2})/.exec(name);
  return m ? m[1]! : '+00:00';
}

/** What is saved: the day alone, or the day and time with London's offset. */
export function valueOf(day: string, time: string): string {
  if (!day) return '';
  return time ? `${day}T${time}:00${londonOffset(day, time)}` : day;
}

/** A day the build takes: a real calendar date with a year of four digits (not one half typed). */
export function dayProblem(day: string): string | undefined {
  const m = DAY.exec(day);
  if (!m) return 'expected a date such as 20/11/2026';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900) return `the year ${m[1]} looks unfinished: type all four digits`;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return 'is not a real calendar date';
  return undefined;
}

export class DateControl extends Component<Props> {
  /** Decap asks each widget before a save: a half-typed year is refused, in the field's words. */
  isValid = () => {
    const { day } = partsOf(this.props.value);
    const problem = day ? dayProblem(day) : undefined;
    return problem ? { error: { type: 'CUSTOM', message: `${String(this.props.field.get('label'))}: ${problem}` } } : true;
  };

  private change = (day: string, time: string) => this.props.onChange(valueOf(day, time));

  override render() {
    const { value, forID, classNameWrapper, field, setActiveStyle, setInactiveStyle } = this.props;
    const { day, time } = partsOf(value);
    const label = String(field.get('label'));
    const optional = field.get('required', true) === false;
    return (
      <div className={classNameWrapper} style={{ display: 'flex', gap: '1rem', alignItems: 'center', flexWrap: 'wrap' }}>
        <input
          id={forID} type="date" value={day}
          onChange={(e: ChangeEvent<HTMLInputElement>) => this.change(e.target.value, e.target.value ? time : '')}
          onFocus={setActiveStyle} onBlur={setInactiveStyle}
        />
        {field.get('time') ? (
          <label>
            Time (UK, optional){' '}
            <input type="time" value={time} disabled={!day} onChange={(e) => this.change(day, e.target.value)} onFocus={setActiveStyle} onBlur={setInactiveStyle} />
          </label>
        ) : null}
        {optional ? <button type="button" aria-label={`Clear ${label}`} disabled={!day} onClick={() => this.props.onChange('')}>Clear</button> : null}
      </div>
    );
  }
}

export function DatePreview({ value }: { value?: unknown }) {
  const { day, time } = partsOf(value);
  return <span>{time ? `${day} ${time}` : day}</span>;
}
