// `cdk synth` / `cdk deploy` run this (infra/cdk.json). Settings and build outputs that are
// missing end the run with one readable list of what to set or build, not a stack trace.
import { App } from 'aws-cdk-lib';
import { BuildOutputsError } from '../lib/build-outputs.ts';
import { defineApp } from '../lib/define-app.ts';
import { SettingsError } from '../lib/settings.ts';

const app = new App();
try {
  defineApp(app, process.env);
} catch (error) {
  if (error instanceof SettingsError || error instanceof BuildOutputsError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
app.synth();
