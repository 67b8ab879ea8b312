// `cdk synth` / `cdk deploy` run this (infra/cdk.json): see infra/lib/run-app.ts.
import { App } from 'aws-cdk-lib';
import { runApp } from '../lib/run-app.ts';

process.exitCode = runApp(new App(), process.env, (text) => console.error(text));
