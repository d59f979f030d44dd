import { useEffect, useRef } from 'react';
import type { UploadView } from '../../../../shared/contract/uploadChannels';
import { announce } from '../../app/announce';
import { intentOutcomeWords } from './intentWords';

/**
 * Says each file's outcome once, when it comes while the page is open ("sample-donations (November):
 * the service refused 1 row; it needs repair"). Outcomes already there when the page opened are on
 * screen, not news, unless they came in the last half minute (the upload just sent).
 */
/** Within the last half minute. */
const justNow = (iso: string): boolean => Date.now() - Date.parse(iso) < 30_000;

export function useOutcomeAnnouncements(uploads: readonly UploadView[] | null): void {
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!uploads) return;
    const before = seen.current;
    const now = new Map<string, string>();
    const news: string[] = [];
    for (const upload of uploads) {
      for (const intent of upload.intents) {
        now.set(intent.intentId, intent.state);
        const was = before?.get(intent.intentId);
        // On opening, only an outcome that came just now is news (the upload just sent, processed
        // before this page had loaded); older ones are on screen.
        if (!before ? !justNow(intent.updatedAt) : was === intent.state) continue;
        const words = intentOutcomeWords(upload.workspaceName, intent);
        if (words) news.push(words);
      }
    }
    seen.current = now;
    if (news.length) announce(news.join(' '));
  }, [uploads]);
}
