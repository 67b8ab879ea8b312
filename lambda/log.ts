// One JSON object per line on stdout, which CloudWatch Logs keeps as one searchable event.
// Entries carry statuses, form names, timings and error codes; never a visitor's details.

export type LogEntry = { level: 'info' | 'warn' | 'error'; event: string } & Record<string, unknown>;
export type Logger = (entry: LogEntry) => void;

export const jsonLogger: Logger = (entry) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
};

export const silentLogger: Logger = () => {};
