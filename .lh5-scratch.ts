import { startServer } from './src/serve/server.ts';
import { runLighthouse } from './quality/lighthouse.ts';
for (const dir of process.argv.slice(2)) {
  const server = await startServer({ root: process.cwd(), outDir: dir, port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
  const r = await runLighthouse({ origin: server.url, pages: ['/dialog-assessment', '/contact'], runs: 5 });
  for (const p of r) console.log(dir, p.url, JSON.stringify(p.runs.map((x) => Math.round(x.tbtMs))), 'median', Math.round(p.median.tbtMs));
  await server.close();
}
