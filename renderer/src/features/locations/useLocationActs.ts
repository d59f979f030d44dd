import { useState } from 'react';
import type { Result } from '../../../../shared/result';

export type Notice = { severity: 'success' | 'error'; text: string } | null;

/** Runs a call to the service, then applies its answer and says how it went. True when it succeeded. */
export type Act = <T>(
  call: Promise<Result<T>>,
  success: string,
  apply?: (value: T) => void,
) => Promise<boolean>;

/**
 * The detail view's one notice and busy flag, and `act`: every change to a location goes through it,
 * so the person always sees what happened and the register is reloaded after each success.
 */
export function useLocationActs(onChanged: () => void) {
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  async function act<T>(
    call: Promise<Result<T>>,
    success: string,
    apply?: (value: T) => void,
  ): Promise<boolean> {
    setBusy(true);
    setNotice(null);
    const result = await call;
    setBusy(false);
    if (!result.ok) {
      setNotice({ severity: 'error', text: result.error.message });
      return false;
    }
    apply?.(result.value);
    setNotice({ severity: 'success', text: success });
    onChanged();
    return true;
  }

  return { notice, setNotice, busy, setBusy, act };
}
