import type { Catalogue } from './catalogue';
import { recipientShape } from './donationRules';

/** Whether the seeded directory has this cause, project (of that cause) or portfolio. */
export function isInDirectory(catalogue: Catalogue, recipientId: string): boolean {
  const shape = recipientShape(recipientId);
  if (!shape) return false;
  if (shape.kind === 'portfolio') return catalogue.portfolioById.has(shape.portfolioId);
  const cause = catalogue.causeById.get(shape.causeId);
  if (!cause) return false;
  return shape.kind === 'cause' || cause.projects.some((p) => p.id === shape.projectId);
}

/**
 * When the service finds out that a well-shaped recipient id is not in its directory: `processing`
 * (the donation is created, then declined RECIPIENT_NOT_FOUND a few minutes later) or `validation`
 * (a bulk file's validation looks every recipient up, and such a donation is invalid, so the file
 * ends in ERROR with the row in its error file). A single POST /donations answers at once and is
 * always judged in processing.
 */
export type RecipientCheck = 'processing' | 'validation';
