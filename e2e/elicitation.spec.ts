import { expect, test } from '@playwright/test';
import { DATABASE_FORM } from './support/elicitation-form';
import { useSharedWebHost } from './support/shared-host';
import { pane, sendPrompt, startFixtureSession, tempProject } from './support/workbench';

useSharedWebHost();

const form = DATABASE_FORM;

test('an elicitation form is generated from its schema, validated, and its answer reaches the agent', async ({ page }) => {
  const scenario = {
    defaultPrompt: {
      steps: [
        { request: { method: 'elicitation/create', params: form }, saveAs: 'answer' },
        { text: 'You said {{saved.answer}}' },
        { end: 'end_turn' },
      ],
    },
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  const init = s.received().find((m) => m.method === 'initialize')?.params as { clientCapabilities?: { elicitation?: object } };
  expect(init.clientCapabilities?.elicitation).toEqual({ form: {}, url: {} });
  await sendPrompt(page, s.sessionId, 'set up the database');
  const p = pane(page, s.sessionId);
  const card = p.getByTestId('elicitation');
  await expect(card).toContainText('Which database should I use?');
  await expect(p).toHaveAttribute('data-status', 'waiting');
  await card.locator('[data-testid="elicitation-field"][data-field="name"]').fill('x');
  await card.getByTestId('elicitation-accept').click();
  await expect(card.locator('[data-testid="elicitation-problem"][data-field="name"]')).toHaveText('At least 2 characters');
  await expect(card.locator('[data-testid="elicitation-problem"][data-field="engine"]')).toHaveText('Required');
  await card.locator('[data-testid="elicitation-field"][data-field="name"]').fill('orders');
  await card.locator('[data-testid="elicitation-field"][data-field="engine"]').selectOption('pg');
  await card.locator('[data-testid="elicitation-field"][data-field="migrate"]').check();
  await card.getByTestId('elicitation-accept').click();
  await expect(card).toHaveCount(0);
  await expect(p).toHaveAttribute('data-status', 'ready');
  const answer = s.received().find((m) => (m.result as { action?: string } | undefined)?.action === 'accept')?.result;
  expect(answer).toEqual({ action: 'accept', content: { name: 'orders', engine: 'pg', port: 5432, migrate: true } });
});

test('a URL elicitation shows the full URL and its host, and declining answers decline', async ({ page }) => {
  const scenario = {
    defaultPrompt: {
      steps: [
        { request: { method: 'elicitation/create', params: { mode: 'url', sessionId: '{{sessionId}}', elicitationId: 'e1', url: 'https://login.example.com/device?code=ABC', message: 'Log in to continue' } }, saveAs: 'answer' },
        { text: 'Result {{saved.answer}}' },
        { end: 'end_turn' },
      ],
    },
  };
  const s = await startFixtureSession(page, { scenario, cwd: tempProject() });
  await sendPrompt(page, s.sessionId, 'log in');
  const card = pane(page, s.sessionId).getByTestId('elicitation');
  await expect(card.getByTestId('elicitation-url-host')).toHaveText('login.example.com');
  await expect(card.getByTestId('elicitation-url')).toHaveText('https://login.example.com/device?code=ABC');
  await card.getByTestId('elicitation-decline').click();
  await expect(pane(page, s.sessionId)).toHaveAttribute('data-status', 'ready');
  expect(s.received().some((m) => (m.result as { action?: string } | undefined)?.action === 'decline')).toBe(true);
});
