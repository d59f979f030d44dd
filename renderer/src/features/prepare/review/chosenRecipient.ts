import { useState } from 'react';
import { RECIPIENT_KEY, type ChosenRecipient } from '../../../app/routes';

/** The recipient Search left for Prepare, if any (nothing where it or the storage cannot be read). */
export function readChosenRecipient(storage: () => Pick<Storage, 'getItem'>): ChosenRecipient | null {
  try {
    return JSON.parse(storage().getItem(RECIPIENT_KEY) ?? 'null') as ChosenRecipient | null;
  } catch {
    return null;
  }
}

/** A recipient chosen with "Use as recipient" in Search, offered until it is used or dismissed. */
export function useChosenRecipient(): [ChosenRecipient | null, () => void] {
  const [chosen, setChosen] = useState(() => readChosenRecipient(() => sessionStorage));
  const forget = () => {
    sessionStorage.removeItem(RECIPIENT_KEY);
    setChosen(null);
  };
  return [chosen, forget];
}
