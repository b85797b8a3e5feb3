/** An agent's `elicitation/create` form request (fixture scenario params): a database to set up. */
export const DATABASE_FORM = {
  mode: 'form',
  sessionId: '{{sessionId}}',
  message: 'Which database should I use?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Database name', minLength: 2 },
      engine: { type: 'string', title: 'Engine', oneOf: [{ const: 'pg', title: 'PostgreSQL' }, { const: 'sqlite', title: 'SQLite' }] },
      port: { type: 'integer', title: 'Port', minimum: 1, maximum: 65535, default: 5432 },
      migrate: { type: 'boolean', title: 'Run migrations', default: false },
    },
    required: ['name', 'engine'],
  },
};
