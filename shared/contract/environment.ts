import { z } from 'zod';

export const environmentIds = ['offline', 'sandbox', 'production', 'custom'] as const;
export const environmentIdSchema = z.enum(environmentIds);
export type EnvironmentId = z.infer<typeof environmentIdSchema>;

export const environmentLabels: Record<EnvironmentId, string> = {
  offline: 'Offline sandbox',
  sandbox: 'Sandbox',
  production: 'Production',
  custom: 'Custom',
};
