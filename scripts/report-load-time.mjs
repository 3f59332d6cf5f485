// Load time of an `arbiter report` page in headless chromium (Debian's, through
// puppeteer-core): node scripts/report-load-time.mjs PAGE.html [RUNS] [CHROMIUM]
// Prints, per run and as the median: DOMContentLoaded and load (ms from navigation start),
// the time until the first game's board is set up, and the time to set up the last game
// of the page (following its link) and step it back to ply 0.
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, 'node_modules', 'noop.js'));
const puppeteer = require('puppeteer-core');
const [file, runsArg, chromium] = process.argv.slice(2);
const runs = Number(runsArg || 5);

const browser = await puppeteer.launch({
  executablePath: chromium || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const rows = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    await page.setCacheEnabled(false);
    await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: 'load', timeout: 120000 });
    const t = await page.evaluate(async () => {
      const nav = performance.getEntriesByType('navigation')[0];
      const first = document.querySelector('section.game[data-ready]') ? performance.now() : null;
      const sections = document.querySelectorAll('section.game');
      const last = sections[sections.length - 1];
      const t0 = performance.now();
      location.hash = '#' + last.id;
      await new Promise((r) => setTimeout(r, 0));
      window.arbiterReport.go(last, 0);
      const t1 = performance.now();
      return {
        games: sections.length,
        domContentLoaded: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        firstBoard: first,
        lastGame: t1 - t0,
        ready: last.getAttribute('data-ply') === '0',
      };
    });
    const m = await page.metrics();
    t.cpu = { task: m.TaskDuration * 1000, script: m.ScriptDuration * 1000, layout: m.LayoutDuration * 1000, style: m.RecalcStyleDuration * 1000 };
    rows.push(t);
    await page.close();
  }
} finally {
  await browser.close();
}
const median = (k) => {
  const v = rows.map((r) => r[k]).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
for (const r of rows) {
  console.log(`run: ${r.games} games, DOMContentLoaded ${r.domContentLoaded.toFixed(0)} ms, load ${r.load.toFixed(0)} ms, first board ${r.firstBoard.toFixed(0)} ms, last game set up and stepped ${r.lastGame.toFixed(1)} ms${r.ready ? '' : ' (NOT READY)'}; main-thread CPU ${r.cpu.task.toFixed(0)} ms (script ${r.cpu.script.toFixed(0)}, layout ${r.cpu.layout.toFixed(0)}, style ${r.cpu.style.toFixed(0)})`);
}
console.log(`median of ${rows.length}: DOMContentLoaded ${median('domContentLoaded').toFixed(0)} ms, load ${median('load').toFixed(0)} ms, first board ${median('firstBoard').toFixed(0)} ms, last game ${median('lastGame').toFixed(1)} ms`);
if (rows.some((r) => !r.ready)) process.exit(1);
