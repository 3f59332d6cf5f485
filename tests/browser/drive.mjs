// Drives Debian's chromium through the DevTools protocol (puppeteer-core, no downloaded
// browser) for tests/browser: reads a plan on stdin, prints what the pages showed as JSON.
//
// Plan: {"chromium": PATH, "pages": [{"file": PATH, "steps": [STEP...]}]}, a STEP one of
//   {"eval": "JS expression"}   its value (JSON) is recorded
//   {"click": "CSS selector"}   the first element matching it is clicked
//   {"key": "ArrowRight"}       a key press on the page
//   {"screenshot": PATH, "selector": "CSS selector"?}  a PNG of the page or one element
//   {"media": "print"}          the page as printed (CSS media type)
// Output: {"pages": [{"values": [...], "requests": [URL...], "errors": [...]}]}: every request
// the page made (its own file included), every console error and page error.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const modules = process.env.ARBITER_NODE_MODULES;
const require = createRequire(path.join(path.resolve(modules), 'noop.js'));
const puppeteer = require('puppeteer-core');

const plan = JSON.parse(fs.readFileSync(0, 'utf8'));
const browser = await puppeteer.launch({
  executablePath: plan.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--hide-scrollbars'],
});
const out = { pages: [] };
try {
  for (const p of plan.pages) {
    const page = await browser.newPage();
    await page.setViewport({ width: p.width || 1100, height: p.height || 1000 });
    const seen = { values: [], requests: [], errors: [] };
    page.on('request', (r) => seen.requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(m.text()); });
    page.on('pageerror', (e) => seen.errors.push(String(e)));
    await page.goto(pathToFileURL(p.file).href, { waitUntil: 'load' });
    for (const s of p.steps) {
      if (s.eval !== undefined) seen.values.push(await page.evaluate(s.eval));
      else if (s.click !== undefined) await page.click(s.click);
      else if (s.key !== undefined) await page.keyboard.press(s.key);
      else if (s.media !== undefined) await page.emulateMediaType(s.media);
      else if (s.screenshot !== undefined) {
        const target = s.selector ? await page.$(s.selector) : page;
        await target.screenshot({ path: s.screenshot });
      }
    }
    out.pages.push(seen);
    await page.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
