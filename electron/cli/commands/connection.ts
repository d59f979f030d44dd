import { EXIT } from '../exitCodes';
import { registerCommand } from '../main';

registerCommand('connection', {
  summary: 'Show the environment in force and check that the service issues a token.',
  usage: 'donation-desk connection [--env ENV] [--json]',
  async run({ io, json, runtime }) {
    const desk = await runtime();
    const info = await desk.services['app.info']({}, { transport: 'cli' });
    const result = await desk.services['settings.testConnection']({}, { transport: 'cli' });
    if (json) {
      io.out(
        JSON.stringify({ environment: info.environment, dataDir: info.dataDir, connection: result }, null, 2),
      );
    } else {
      io.out(`Environment: ${info.environment.label}`);
      io.out(`Service:     ${info.environment.baseUrl || '(not set)'}`);
      io.out(`Data folder: ${info.dataDir}`);
      (result.ok ? io.out : io.err)(result.message);
    }
    return result.ok ? EXIT.ok : EXIT.service;
  },
});
