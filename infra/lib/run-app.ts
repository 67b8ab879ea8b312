// What `cdk synth` and `cdk deploy` run (infra/bin/app.ts): the stacks defined from the settings in
// the environment and synthesised, or, when settings or build outputs are missing, one readable
// list of what to set or build (on `err`) and exit code 1, never a stack trace.
import { App } from 'aws-cdk-lib';
import { BuildOutputsError } from './build-outputs.ts';
import { defineApp } from './define-app.ts';
import { SettingsError } from './settings.ts';

export function runApp(app: App, env: Readonly<Record<string, string | undefined>>, err: (text: string) => void): number {
  try {
    defineApp(app, env);
  } catch (error) {
    if (error instanceof SettingsError || error instanceof BuildOutputsError) {
      err(error.message);
      return 1;
    }
    throw error;
  }
  app.synth();
  return 0;
}
