// A look at what the stream leaves in the panes (issue #11): 4 flood agents stream briefly into the
// built web host; then one tool-call row and one message row are described (elements, size, the
// elements by tag) and the page is screenshot. Usage (after a build):
// `node bench/lib/look.mjs OUT.png [flood options]`; BENCH_RENDERER=DIR serves another renderer.
import { tmpdir } from 'node:os';
import { launchChromium, startWebHost, streamedPanes } from './web.mjs';

const out = process.argv[2] ?? `${tmpdir()}/acpwb-look.png`;
const extra = process.argv.slice(3).join(' ');
const browser = await launchChromium();
const host = await startWebHost();
try {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  await streamedPanes(page, host.url, extra);
  await page.waitForTimeout(500);
  // The last rows of the first pane: a tool card and a message, above the turn end.
  const rows = await page.evaluate(() => {
    const pane = document.querySelector('[data-testid="session-pane"] [data-testid="transcript"]');
    const describe = (row) => {
      const tags = {};
      for (const el of row.querySelectorAll('*')) tags[el.tagName.toLowerCase()] = (tags[el.tagName.toLowerCase()] ?? 0) + 1;
      return { elements: row.querySelectorAll('*').length, height: row.getBoundingClientRect().height, tags };
    };
    const byKind = (kind) => [...pane.querySelectorAll('.tx-row')].map((r) => r).filter((r) => r.firstElementChild?.getAttribute('data-testid') === `entry-${kind}`);
    const tool = byKind('tool_call').pop();
    const message = byKind('agent_message').pop();
    return { tool: tool && { ...describe(tool), html: tool.innerHTML.slice(0, 3000) }, message: message && { ...describe(message), html: message.innerHTML.slice(0, 1500) } };
  });
  console.log(JSON.stringify(rows, null, 1));
  await page.screenshot({ path: out });
  console.log(`screenshot: ${out}`);
  await context.close();
} finally {
  await host.stop();
  await browser.close();
}
